//go:build unix

package regular

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

func TestReadFileAndDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "page.md"), []byte("# Hi"), 0o644)
	if b, err := ReadFile(filepath.Join(dir, "page.md")); err != nil || string(b) != "# Hi" {
		t.Fatalf("regular file: %q %v", b, err)
	}
	if _, err := ReadDir(dir); err != nil {
		t.Fatalf("plain folder: %v", err)
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing folder: %v", err)
	}

	os.Symlink("/etc/passwd", filepath.Join(dir, "link.md"))
	if _, err := ReadFile(filepath.Join(dir, "link.md")); err == nil || !strings.Contains(err.Error(), "link.md is a symbolic link: refused") {
		t.Errorf("link to a file: %v", err)
	}
	if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "link.md is a symbolic link") {
		t.Errorf("folder holding a link: %v", err)
	}
	os.Remove(filepath.Join(dir, "link.md"))

	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err == nil {
		if _, err := ReadFile(filepath.Join(dir, "pipe.md")); err == nil || !strings.Contains(err.Error(), "is a named pipe") {
			t.Errorf("named pipe: %v", err)
		}
		if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "is a named pipe") {
			t.Errorf("folder holding a pipe: %v", err)
		}
		os.Remove(filepath.Join(dir, "pipe.md"))
	}

	other := t.TempDir()
	os.Symlink(other, filepath.Join(dir, "site"))
	if _, err := ReadDir(filepath.Join(dir, "site")); err == nil || !strings.Contains(err.Error(), "site is a symbolic link") {
		t.Errorf("a folder that is a link: %v", err)
	}
	if _, err := ReadFile(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder read as a file: %v", err)
	}
}

// TestReadAllAnySizeHint checks that readAll reads a reader whole
// whatever size it is told: right, too small (a file that grew, or one
// that says 0 as /proc's do), too large (one that shrank) or nonsense,
// through reads that return a few bytes at a time.
func TestReadAllAnySizeHint(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789"), 1000)
	for _, size := range []int64{int64(len(want)), 0, 1, 511, int64(len(want)) - 1, int64(len(want)) + 1, 3 * int64(len(want)), -1, 1 << 50} {
		got, err := readAll(iotest.HalfReader(bytes.NewReader(want)), size)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("size %d: read %d bytes, %v; want %d", size, len(got), err, len(want))
		}
	}
	// The first read succeeds, the second fails: what came is kept.
	got, err := readAll(iotest.TimeoutReader(bytes.NewReader(want)), 100)
	if !errors.Is(err, iotest.ErrTimeout) || len(got) == 0 || !bytes.HasPrefix(want, got) {
		t.Errorf("a failing read: %d bytes, %v", len(got), err)
	}
}
