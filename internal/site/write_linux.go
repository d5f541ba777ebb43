//go:build linux

package site

import (
	"io"
	"io/fs"
	"syscall"
)

// writeStat is os.WriteFile(path, data, 0o644), and the fileStat of the
// file it wrote, taken from the open file (fstat) rather than by looking
// its path up again once it is closed; closing a file changes none of what
// fileStat holds. It makes the system calls itself, as package os would
// (the same flags, the same errors, one write(2) even of no bytes),
// without an os.File: that would add an fcntl(2), a finalizer and an
// os.FileInfo to every file a build writes.
func writeStat(path string, data []byte) (fileStat, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, 0o644)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return fileStat{}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
	err := writeAll(fd, data)
	if err != nil {
		err = &fs.PathError{Op: "write", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err == nil {
		for {
			e := syscall.Fstat(fd, &st)
			if e == nil {
				break
			}
			if e != syscall.EINTR {
				err = &fs.PathError{Op: "stat", Path: path, Err: e}
				break
			}
		}
	}
	if e := syscall.Close(fd); e != nil && err == nil {
		err = &fs.PathError{Op: "close", Path: path, Err: e}
	}
	if err != nil {
		return fileStat{}, err
	}
	return statOfSys(&st), nil
}

// writeAll writes data to fd as os.File.Write does: in pieces of at most
// a gigabyte, again on EINTR, io.ErrUnexpectedEOF when nothing is
// written.
func writeAll(fd int, data []byte) error {
	const maxRW = 1 << 30
	// At least one write(2), of no bytes too, as os.File.Write makes: a
	// file may refuse it.
	for {
		n, err := syscall.Write(fd, data[:min(len(data), maxRW)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return err
		case n == 0 && len(data) > 0:
			return io.ErrUnexpectedEOF
		}
		if data = data[n:]; len(data) == 0 {
			return nil
		}
	}
}
