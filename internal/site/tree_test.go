package site

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcards/agentcards/internal/secret"
)

// TestMkdirNewIsMkdirAll: mkdirNew makes what os.MkdirAll makes, and
// fails where it fails: new folders at any depth, folders already there,
// a file in the way at the end or above it.
func TestMkdirNewIsMkdirAll(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(root string)
		rel   string
	}{
		{"new", func(string) {}, "a"},
		{"new parent", func(string) {}, "a/b"},
		{"new grandparent", func(string) {}, "a/b/c"},
		{"there", func(root string) { os.MkdirAll(filepath.Join(root, "a/b"), 0o755) }, "a/b"},
		{"parent there", func(root string) { os.MkdirAll(filepath.Join(root, "a"), 0o755) }, "a/b"},
		{"file there", func(root string) { os.WriteFile(filepath.Join(root, "a"), nil, 0o644) }, "a"},
		{"file above", func(root string) { os.WriteFile(filepath.Join(root, "a"), nil, 0o644) }, "a/b/c"},
		{"link to a folder above", func(root string) {
			os.Mkdir(filepath.Join(root, "real"), 0o755)
			os.Symlink("real", filepath.Join(root, "a"))
		}, "a/b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mine, theirs := t.TempDir(), t.TempDir()
			tc.setup(mine)
			tc.setup(theirs)
			err := mkdirNew(filepath.Join(mine, filepath.FromSlash(tc.rel)))
			want := os.MkdirAll(filepath.Join(theirs, filepath.FromSlash(tc.rel)), 0o755)
			if (err == nil) != (want == nil) {
				t.Fatalf("mkdirNew: %v; MkdirAll: %v", err, want)
			}
			st, serr := os.Stat(filepath.Join(mine, filepath.FromSlash(tc.rel)))
			if want == nil && (serr != nil || !st.IsDir() || st.Mode().Perm() != 0o755&^umask(t)) {
				t.Fatalf("after mkdirNew: %v, %v", st, serr)
			}
		})
	}
}

// umask is the process's file mode creation mask, as a new folder shows it.
func umask(t *testing.T) os.FileMode {
	p := filepath.Join(t.TempDir(), "probe")
	if err := os.Mkdir(p, 0o777); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ st.Mode().Perm()
}

// TestWrittenKeptOnlyForTheLeakCheck checks that a tree keeps the names of
// the files it writes only when the leak check may read just those: not
// in a fresh tree, nor in one never found free of private text.
func TestWrittenKeptOnlyForTheLeakCheck(t *testing.T) {
	scanner, err := secret.NewScanner(nil)
	if err != nil {
		t.Fatal(err)
	}
	clean := key{1}
	for _, c := range []struct {
		name  string
		fresh bool
		clean key
		want  int
	}{
		{"fresh", true, clean, 0},
		{"never clean", false, key{}, 0},
		{"kept clean", false, clean, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &tree{root: t.TempDir(), fresh: c.fresh, secrets: scanner, cleanBefore: c.clean, st: newTreeState()}
			if _, err := tr.write("a.txt", []byte("a")); err != nil {
				t.Fatal(err)
			}
			if len(tr.written) != c.want {
				t.Errorf("written = %q, want %d names", tr.written, c.want)
			}
			paths, err := tr.leakPaths(clean)
			if err != nil || len(paths) != 1 || paths[0] != "a.txt" {
				t.Errorf("leakPaths = %q, %v; want [a.txt]", paths, err)
			}
		})
	}
}
