package verify

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/regular"
)

// Local files: read as regular files only (never a named pipe or a device)
// within the size limit, and the folders they lie in.

// maxBytes is the size limit of one document: -max-bytes, or the default.
func maxBytes(opts Options) int64 {
	if opts.Fetch != nil && opts.Fetch.MaxBytes > 0 {
		return opts.Fetch.MaxBytes
	}
	return fetch.DefaultMaxBytes
}

// ReadLocalFile reads a local file the way verify does: a regular file
// only (never waiting on a named pipe or reading a device), within limit
// bytes.
func ReadLocalFile(path string, limit int64) ([]byte, error) {
	return readLocal(path, Options{Fetch: &fetch.Client{MaxBytes: limit}})
}

// readInSite is readLocal for the file at path inside the built site dir:
// no part of path below dir may be a symbolic link (a build writes none,
// and a host serves none: a link would make verify vouch for a file the
// site does not publish).
func readInSite(dir, path string, opts Options) ([]byte, error) {
	if err := noLinkBelow(dir, path); err != nil {
		return nil, err
	}
	return readLocal(path, opts)
}

// noLinkBelow reports a symbolic link on the way from dir down to path.
func noLinkBelow(dir, path string) error {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	cur := dir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		st, err := os.Lstat(cur)
		if err != nil {
			return nil // missing: readLocal says so
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return linkError(cur)
		}
	}
	return nil
}

// linkError refuses a symbolic link in a built site.
func linkError(path string) error {
	return fmt.Errorf("%s is a symbolic link, not a plain file: not followed; a built site holds none (a host serves none)", path)
}

// readLocal reads a local card or JWKS: a regular file no larger than the
// fetch size limit (-max-bytes).
func readLocal(path string, opts Options) ([]byte, error) {
	limit := maxBytes(opts)
	// Stat before opening: opening a named pipe would wait for a writer.
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes is over the %d-byte limit (-max-bytes)", path, st.Size(), limit)
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: over the %d-byte limit (-max-bytes)", path, limit)
	}
	return b, nil
}

// siteRoot finds the built site a card file lies in: the nearest folder
// above it with .well-known/jwks.json, looking no higher than the working
// directory, and only for a file under the working directory (both compared
// after resolving symbolic links). A JWKS planted in /tmp or in a parent
// folder is never trusted; "" means none was found.
func siteRoot(path string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if wd, err = filepath.EvalSymlinks(wd); err != nil {
		return "", err
	}
	if filepath.Dir(wd) == wd {
		return "", nil // from the root, everything is "under" it: /tmp too
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	for dir := filepath.Dir(real); regular.Within(dir, wd); dir = filepath.Dir(dir) {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(layout.JWKS))); err == nil && st.Mode().IsRegular() {
			return dir, nil
		}
		if dir == wd {
			break
		}
	}
	return "", nil
}

// readCard reads a card file of a site into buf (grown as needed) and
// returns its bytes and buf: as readLocal does, but for a file the walk
// found to be regular, with as few system calls as the platform allows
// (readRegular).
func readCard(path string, d fs.DirEntry, opts Options, buf []byte) (body, newBuf []byte, err error) {
	if d.Type()&fs.ModeSymlink != 0 {
		return nil, buf, linkError(path)
	}
	if d.Type().IsRegular() {
		body, buf, ok, err := readRegular(path, maxBytes(opts), buf)
		if ok {
			return body, buf, err
		}
	}
	body, err = readLocal(path, opts)
	return body, buf, err
}

// withinReal reports whether p, with links resolved, is inside dir (also
// resolved); a p that does not resolve is not read, so it passes.
func withinReal(p, dir string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return true
	}
	realDir, err := filepath.EvalSymlinks(dir)
	return err == nil && regular.Within(real, realDir)
}
