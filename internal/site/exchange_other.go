//go:build !linux && (darwin || dragonfly || freebsd || netbsd || openbsd)

package site

import (
	"os"
	"syscall"
)

// exchange swaps two folders with three renames.
func exchange(a, b string) error { return exchangeByRenames(a, b) }

// fileID is a file's device and inode.
func fileID(fi os.FileInfo) (dev, ino uint64, ok bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino), true
	}
	return 0, 0, false
}

// dirID is a folder's device and inode, where the system has them.
func dirID(dir string) (dev, ino uint64, ok bool) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return 0, 0, false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino), true
	}
	return 0, 0, false
}
