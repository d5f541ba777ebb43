//go:build !unix

package site

import (
	"io/fs"
	"os"
)

// createFile is os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC,
// perm).
func createFile(path string, perm uint32) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fs.FileMode(perm))
}
