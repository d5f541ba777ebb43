package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDescDigest: a digest says of a text what the text would: equal
// or not, and its start quoted; the zero digest is that of "".
func TestDescDigest(t *testing.T) {
	long := strings.Repeat("é", 100)
	for _, d := range []string{"", "x", long} {
		for _, s := range []string{"", "x", "y", long, long + "!"} {
			if got := digestDescription(d).is(s); got != (d == s) {
				t.Errorf("digest of %q is %q: %v", d, s, got)
			}
		}
		if got, want := digestDescription(d).quote(), shortQuote(d); got != want {
			t.Errorf("quote of %q: %s, want %s", d, got, want)
		}
	}
	var zero descDigest
	if !zero.is("") || zero.is("x") || zero.quote() != shortQuote("") {
		t.Error("the zero digest is not that of the empty text")
	}
}

// TestPrefetch: catalogs read ahead are handed out in order; one the
// check passes by is dropped, and one asked for out of order, or not
// read ahead, is not handed out (the caller reads it).
func TestPrefetch(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		p := filepath.Join(dir, "catalog", n+".json")
		paths = append(paths, p)
	}
	if err := os.MkdirAll(filepath.Join(dir, "catalog"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if err := os.WriteFile(p, []byte(`{}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := newPrefetch(paths, catalogOptions(Options{}))
	defer f.stop()
	for _, step := range []struct {
		path string
		ok   bool
	}{{paths[0], true}, {paths[3], true}, {paths[1], false}, {paths[4], true}, {"other", false}, {paths[7], true}, {paths[7], false}} {
		l, ok := f.get(step.path)
		if ok != step.ok || ok && l.size != 2 {
			t.Errorf("get %s: %v (%d bytes), want %v", step.path, ok, l.size, step.ok)
		}
	}
	var none *prefetch
	if _, ok := none.get(paths[0]); ok {
		t.Error("a nil prefetch handed out a catalog")
	}
	none.stop()
}
