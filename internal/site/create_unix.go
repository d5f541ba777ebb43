//go:build unix && !linux

package site

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// createFile is os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC,
// perm), with the same open(2) flags, but without trying to add the file
// to the runtime's poller: for a regular file that costs four fcntl(2)
// calls and an epoll_ctl(2) that fails, on every file the build writes.
// os.NewFile leaves a blocking descriptor as it is.
func createFile(path string, perm uint32) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, perm)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
