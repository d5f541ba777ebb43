package site

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestFileKey checks that a file's key, read a piece at a time, is
// hashParts of its bytes.
func TestFileKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "program")
	data := bytes.Repeat([]byte("agentcards\x00"), 100_000)
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if k, ok := fileKey(path); !ok || k != hashParts(data) {
		t.Errorf("fileKey %x, %v; want %x", k, ok, hashParts(data))
	}
	if _, ok := fileKey(path + ".missing"); ok {
		t.Error("a missing file has a key")
	}
}
