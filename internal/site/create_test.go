package site

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteStat: writeStat writes what os.WriteFile writes, replacing a
// longer file, with the same mode, and returns what statFile then finds.
func TestWriteStat(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{[]byte(`{"a":1}`), nil, bytes.Repeat([]byte("y"), 1<<20)} {
		got, err := writeStat(p, data)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := statFile(p)
		if !ok || got != want {
			t.Errorf("writeStat gave %+v, statFile %+v", got, want)
		}
		if b, _ := os.ReadFile(p); !bytes.Equal(b, data) {
			t.Errorf("the file holds %d bytes, want %d", len(b), len(data))
		}
	}
	q := filepath.Join(dir, "new.html")
	if _, err := writeStat(q, []byte("page")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ref"), []byte("page"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(q)
	b, _ := os.Stat(filepath.Join(dir, "ref"))
	if a.Mode() != b.Mode() {
		t.Errorf("mode %v, os.WriteFile's %v", a.Mode(), b.Mode())
	}
	if _, err := writeStat(filepath.Join(dir, "missing", "f"), nil); !os.IsNotExist(err) {
		t.Errorf("into a missing folder: %v, want a not-exist error", err)
	}
}
