package site

import (
	"flag"
	"os"
	"testing"

	"github.com/agentcards/agentcards/internal/htmlexec"
)

// TestMain holds every page the tests render by a compiled program to
// html/template's (a page whose bytes differ fails its render), but when
// benchmarks run: they time a build as it is.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		htmlexec.Verify(true)
	}
	os.Exit(m.Run())
}

// verifyPages holds the pages t renders to html/template's, whatever
// TestMain decided.
func verifyPages(t *testing.T) {
	htmlexec.Verify(true)
	t.Cleanup(func() { htmlexec.Verify(flag.Lookup("test.bench").Value.String() == "") })
}
