//go:build unix

package site

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestStatFileAsOS checks that statFile gives what statOf of os.Lstat
// does, for every kind of entry and mode bit: the state compares the two
// (files are recorded as written from the open file's os.FileInfo).
func TestStatFileAsOS(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{dir, file}
	for i, mode := range []os.FileMode{0o600, 0o755 | os.ModeSetuid, 0o755 | os.ModeSetgid, 0o777 | os.ModeSticky, 0} {
		p := filepath.Join(dir, "mode"+string(rune('a'+i)))
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if err := os.Symlink(file, filepath.Join(dir, "link")); err == nil {
		paths = append(paths, filepath.Join(dir, "link"))
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err == nil {
		paths = append(paths, filepath.Join(dir, "fifo"))
	}
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := statFile(p)
		if want := statOf(fi); !ok || got != want {
			t.Errorf("%s: statFile %+v, %v; os.Lstat %+v", filepath.Base(p), got, ok, want)
		}
	}
	if _, ok := statFile(filepath.Join(dir, "missing")); ok {
		t.Error("a missing file was found")
	}
}
