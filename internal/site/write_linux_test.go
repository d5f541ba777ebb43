//go:build linux

package site

import (
	"fmt"
	"os"
	"testing"
)

// TestWriteStatFailsAsOSWriteFile: writeStat promises package os's
// errors (write_linux.go: "the same flags, the same errors"). os.File.Write
// makes a write(2) call even for no bytes, so a file that refuses writes
// fails os.WriteFile with nothing to write too: /dev/full answers ENOSPC,
// and a procfs file EINVAL. writeStat must fail there as well, with the
// same error, for every length of data.
func TestWriteStatFailsAsOSWriteFile(t *testing.T) {
	for _, p := range []string{"/dev/full", "/proc/self/status"} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s: %v", p, err)
		}
		for _, data := range [][]byte{nil, {}, []byte("x"), make([]byte, 70000)} {
			want := os.WriteFile(p, data, 0o644)
			_, got := writeStat(p, data)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("writeStat(%s, %d bytes): %v; os.WriteFile: %v", p, len(data), got, want)
			}
		}
	}
}
