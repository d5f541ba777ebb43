//go:build darwin || freebsd || netbsd

package site

import (
	"os"
	"syscall"
)

// changeTime is when the file's inode last changed (its ctime), which,
// unlike the modification time, no one can set back; 0 where unknown.
func changeTime(fi os.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctimespec.Nano()
	}
	return 0
}
