//go:build !linux

package site

import "os"

// statFile is the fileStat of path, without following a link; ok is false
// when it is missing.
func statFile(path string) (fileStat, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileStat{}, false
	}
	return statOf(fi), true
}
