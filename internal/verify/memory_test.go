package verify

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneMemory checks that verify sets its memory limit and collector
// target unless the environment sets them.
func TestTuneMemory(t *testing.T) {
	limit, percent := debug.SetMemoryLimit(-1), debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	t.Cleanup(func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
	for _, c := range []struct {
		env            map[string]string
		limit, percent int64
	}{
		{map[string]string{}, memoryLimit, gcPercent},
		{map[string]string{"GOGC": "50"}, memoryLimit, 100},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, math.MaxInt64, 100},
	} {
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
		TuneMemory(func(k string) string { return c.env[k] })
		gotPercent := debug.SetGCPercent(100)
		if got := debug.SetMemoryLimit(-1); got != c.limit || int64(gotPercent) != c.percent {
			t.Errorf("%v: limit %d, GOGC %d; want %d, %d", c.env, got, gotPercent, c.limit, c.percent)
		}
	}
}
