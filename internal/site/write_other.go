//go:build !linux

package site

import "os"

// writeStat is os.WriteFile(path, data, 0o644), and the fileStat of the
// file it wrote, taken from the open file (fstat) rather than by looking
// its path up again once it is closed; closing a file changes none of what
// fileStat holds.
func writeStat(path string, data []byte) (fileStat, error) {
	f, err := createFile(path, 0o644)
	if err != nil {
		return fileStat{}, err
	}
	_, err = f.Write(data)
	var fi os.FileInfo
	if err == nil {
		fi, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fileStat{}, err
	}
	return statOf(fi), nil
}
