//go:build linux || darwin

package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// readRegular reads the file at path, which a walk of its folder found to
// be a regular file, into buf (grown as needed): open (never following a
// symbolic link, and never waiting, should a named pipe have taken the
// file's place), one fstat to check that it is still a regular file and
// no larger than limit, and reads to the end (usually one read). os.Open
// would add four fcntl calls and an epoll registration to each file. ok
// is false when the file is no longer a plain regular file (a symbolic
// link took its place), for the caller to read it as any other.
func readRegular(path string, limit int64, buf []byte) (body, newBuf []byte, ok bool, err error) {
	var fd int
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if errors.Is(err, syscall.ELOOP) {
		return nil, buf, false, nil
	}
	if err != nil {
		return nil, buf, true, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	for {
		err = syscall.Fstat(fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, buf, true, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if uint32(st.Mode)&syscall.S_IFMT != syscall.S_IFREG {
		return nil, buf, true, fmt.Errorf("%s is not a regular file", path)
	}
	size := int64(st.Size)
	if size > limit {
		return nil, buf, true, fmt.Errorf("%s: %d bytes is over the %d-byte limit (-max-bytes)", path, size, limit)
	}
	// Room for more than the file holds, to see its end: a read of a
	// regular file returns less than asked only at the end. A file
	// that is not the size fstat said (it changed since) is read until
	// a read returns nothing, as readLocal does.
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+512)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		want := cap(buf) - len(buf)
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, buf, true, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, buf, true, fmt.Errorf("%s: over the %d-byte limit (-max-bytes)", path, limit)
		}
		if n < want && int64(len(buf)) == size {
			break
		}
	}
	return buf, buf, true, nil
}
