package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: the file gets the new content and mode, a link at the name
// is replaced rather than written through, and nothing else is left.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	path := filepath.Join(dir, "state")
	if err := os.Symlink(target, path); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := Write(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("written through the link: target holds %q", b)
	}
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
		t.Fatalf("path: %v, %v", st, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("path holds %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d entries left, want 2", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "x"), nil, 0o644); err == nil {
		t.Error("a write into a missing folder succeeded")
	}
}
