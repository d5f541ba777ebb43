//go:build linux

package site

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// exchange swaps two folders atomically (renameat2 RENAME_EXCHANGE): there
// is no moment when out is missing. Filesystems without it get three
// renames.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return exchangeByRenames(a, b)
	}
	if err != nil {
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}

// fileID is a file's device and inode.
func fileID(fi os.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}

// dirID is a folder's device and inode.
func dirID(dir string) (dev, ino uint64, ok bool) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return 0, 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), st.Ino, true
}
