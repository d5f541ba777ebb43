package regular

import (
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		path, dir string
		want      bool
	}{
		{"/a", "/a", true},
		{"/a/b", "/a", true},
		{"/a/b/../c", "/a", true},
		{"/a/..b", "/a", true},
		{"/ab", "/a", false},
		{"/a/../b", "/a", false},
		{"/", "/a", false},
		{"/b/a", "/a", false},
		{"a/b", "a", true},
		{"b", "a", false},
		{"a", "/a", false}, // one relative, one absolute: no answer, so no
	} {
		if got := Within(filepath.FromSlash(c.path), filepath.FromSlash(c.dir)); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", c.path, c.dir, got, c.want)
		}
	}
}
