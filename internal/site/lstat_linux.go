//go:build linux

package site

import (
	"io/fs"
	"syscall"
)

// statFile is the fileStat of path, without following a link; ok is false
// when it is missing. It is what statOf(os.Lstat(path)) gives, without
// the os.FileInfo: a build looks up every file it keeps this way.
func statFile(path string) (fileStat, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return fileStat{}, false
		}
	}
	return statOfSys(&st), true
}

// statOfSys is the fileStat of what st describes, as statOf of the
// os.FileInfo made from it.
func statOfSys(st *syscall.Stat_t) fileStat {
	return fileStat{Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), Ino: st.Ino, Mode: uint32(fileMode(st.Mode))}
}

// fileMode is the fs.FileMode of a stat mode, as package os makes it.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & syscall.S_IFMT {
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
