// Package program identifies the running agentcards program by the
// SHA-256 of its executable, worked out once per process: the build keys
// its reusable output by it, and the lint cache its entries, so that a new
// build of the program starts afresh. It needs only the standard library.
package program

import (
	"crypto/sha256"
	"io"
	"os"
	"sync"
)

// Digest is the SHA-256 of the running program's executable; ok is false
// when it cannot be read.
func Digest() (digest [32]byte, ok bool) { return digestOnce() }

var digestOnce = sync.OnceValues(func() ([32]byte, bool) {
	// On Linux, the file this process runs, even if its path now names
	// another (an upgrade during the build).
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		exe, err := os.Executable()
		if err != nil {
			return [32]byte{}, false
		}
		if f, err = os.Open(exe); err != nil {
			return [32]byte{}, false
		}
	}
	defer f.Close()
	// A piece at a time: the program is tens of megabytes.
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [32]byte{}, false
	}
	return [32]byte(h.Sum(nil)), true
})
