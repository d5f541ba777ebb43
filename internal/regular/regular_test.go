//go:build unix

package regular

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
