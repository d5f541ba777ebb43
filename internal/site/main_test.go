package site

import (
	"os"
	"testing"

	"github.com/agentcards/agentcards/internal/htmlexec"
)

// TestMain holds every page the tests render by a compiled program to
// html/template's (a page whose bytes differ fails its render); the
// benchmarks turn that off while they run (benchmarkAsBuilt).
func TestMain(m *testing.M) {
	htmlexec.Crosscheck(true)
	os.Exit(m.Run())
}

// benchmarkAsBuilt renders the pages of b as a build does, not held to
// html/template's, to time them as they are.
func benchmarkAsBuilt(b *testing.B) {
	htmlexec.Crosscheck(false)
	b.Cleanup(func() { htmlexec.Crosscheck(true) })
}
