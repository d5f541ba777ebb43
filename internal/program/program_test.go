package program

import (
	"crypto/sha256"
	"os"
	"testing"
)

// TestDigestIsTheExecutables checks that Digest is the SHA-256 of this
// test binary's file, the same on every call.
func TestDigestIsTheExecutables(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no executable path here:", err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := Digest()
	if !ok || d != sha256.Sum256(data) {
		t.Errorf("Digest() = %x, %v; want %x", d, ok, sha256.Sum256(data))
	}
	if again, _ := Digest(); again != d {
		t.Error("a second call gave another digest")
	}
}
