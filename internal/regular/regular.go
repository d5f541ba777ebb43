// Package regular reads the inputs a build publishes (Markdown pages,
// template overrides, public keys) as regular files in real folders only.
// A symbolic link, device or named pipe among them is an error that names
// it: a link is how templates/style.css -> /proc/self/environ or
// site/agents/x.md -> ~/.ssh/id_ed25519 would otherwise reach the public
// site.
package regular

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Error is an input that is not a regular file or a real folder.
type Error struct {
	Path string
	What string // "a symbolic link", "a named pipe", ...
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s is %s: refused, because a build publishes what it reads there; replace it with a plain file or folder (copy what it points at)", e.Path, e.What)
}

// describe names what a file mode is, for errors.
func describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// ReadFile reads path, which must be a regular file and not a symbolic
// link. The file opened is checked to be the one inspected, so a link
// swapped in between is noticed.
func ReadFile(path string) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{path, describe(st.Mode())}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(st, fst) {
		return nil, &Error{path, "replaced while it was read"}
	}
	return readAll(f, fst.Size())
}

// maxSizeHint is the largest buffer readAll makes before reading.
const maxSizeHint = 64 << 20

// readAll reads f to its end into a buffer of the size f had (one byte
// more, to see the end without growing it), as os.ReadFile does: where
// io.ReadAll, growing from 512 bytes, copies and clears a large file's
// bytes many times over. A file that grew meanwhile is read whole too. A
// size above maxSizeHint is not taken at its word (a sparse file can say
// anything): the buffer starts there and grows as the bytes come.
func readAll(f io.Reader, size int64) ([]byte, error) {
	size = max(0, min(size, maxSizeHint))
	data := make([]byte, 0, size+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// ReadDir lists dir, which must be a real folder (not a symbolic link to
// one), and refuses it when any entry is a symbolic link, device, named
// pipe or socket. A missing folder gives an error satisfying
// errors.Is(err, fs.ErrNotExist).
func ReadDir(dir string) ([]fs.DirEntry, error) {
	st, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, &Error{dir, describe(st.Mode())}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if t := e.Type(); t&(fs.ModeSymlink|fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice) != 0 {
			return nil, &Error{filepath.Join(dir, e.Name()), describe(t)}
		}
	}
	return entries, nil
}
