package prereq

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeT records what Missing does to a test instead of doing it.
type fakeT struct {
	testing.TB
	skipped, failed string
}

func (f *fakeT) Helper()                          {}
func (f *fakeT) Name() string                     { return "TestNeedsNode/sub" }
func (f *fakeT) Log(args ...any)                  {}
func (f *fakeT) Skipf(format string, args ...any) { f.skipped = fmt.Sprintf(format, args...) }
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
}

// TestMissing: outside CI a missing prerequisite skips the test and adds a
// line to the skip log; under CI (any value but "false") it fails the test
// and logs nothing.
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		ci         string
		skip, fail bool
	}{{"", true, false}, {"false", true, false}, {"FALSE", true, false}, {"0", true, false}, {"true", false, true}, {"1", false, true}} {
		log := filepath.Join(t.TempDir(), "skips.log")
		t.Setenv(SkipLogEnv, log)
		t.Setenv("CI", c.ci)
		f := &fakeT{TB: t}
		Missing(f, "no node on PATH", "install it")
		if (f.skipped != "") != c.skip || (f.failed != "") != c.fail {
			t.Errorf("CI=%q: skipped %q, failed %q", c.ci, f.skipped, f.failed)
		}
		b, _ := os.ReadFile(log)
		want := "internal/prereq\tTestNeedsNode/sub\tno node on PATH (install it)\n"
		if c.skip && string(b) != want || !c.skip && len(b) != 0 {
			t.Errorf("CI=%q: skip log %q", c.ci, b)
		}
	}
}

// TestSummarize: one SKIP line counting tests, then what was missing with
// the tests it cost, each once; nothing at all for an empty log.
func TestSummarize(t *testing.T) {
	var w bytes.Buffer
	Summarize(strings.NewReader(""), &w)
	if w.Len() != 0 {
		t.Errorf("empty log: %q", w.String())
	}
	log := "internal/site\tTestB\tno node (x)\n" +
		"internal/site\tTestA\tno node (x)\n" +
		"internal/site\tTestA\tno node (x)\n" +
		"internal/preview\tTestC\tno chromium (y)\n" +
		"a broken line\n"
	Summarize(strings.NewReader(log), &w)
	want := "SKIP: 3 test(s) did not run in full, so this run tested less than it seems; missing:\n" +
		"  no chromium (y): internal/preview.TestC\n" +
		"  no node (x): internal/site.TestA, internal/site.TestB\n"
	if w.String() != want {
		t.Errorf("got\n%s\nwant\n%s", w.String(), want)
	}
}
