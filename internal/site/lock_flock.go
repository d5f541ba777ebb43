//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package site

import (
	"os"
	"syscall"
)

// lockDir takes an exclusive advisory lock on the folder dir (flock), and
// waits for it; unlock releases it. The kernel releases the lock of a
// process that dies, even by SIGKILL, so a lock never goes stale.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
