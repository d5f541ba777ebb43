package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/regular"
)

// SumsFile lists the SHA-256 of every other file of the site, in the
// format of sha256sum(1) ("<hex>  <path>", paths from the site's root,
// sorted), so that `sha256sum -c sha256sums.txt` in the output folder
// checks them all. The publish workflows attest it: one attestation that
// covers a site of any size (README, "Provenance").
const SumsFile = "sha256sums.txt"

// fileSum is a file's SHA-256 and the file as it was when summed.
type fileSum struct {
	Sum  [32]byte
	Stat fileStat
}

// noteSum records the SHA-256 of a file the build wrote, and the file as
// written (with mu held).
func (b *builder) noteSum(rel string, data []byte, st fileStat) {
	if b.sums == nil {
		b.sums = map[string]fileSum{}
	}
	b.sums[rel] = fileSum{sha256.Sum256(data), st}
}

// checksums writes SumsFile: the SHA-256 of every file of the tree. A
// file this build wrote was summed as it was written, one it kept is in
// the tree's record; either counts only while the file is still as it was
// then. Any other file is read.
// The tree's record then holds exactly the files listed.
func (b *builder) checksums() error {
	sums := map[string]fileSum{}
	err := filepath.WalkDir(b.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, b.root+string(filepath.Separator)))
		if rel == SumsFile {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s in the tree %s is not a plain file: refused; remove that folder and build again", rel, b.root)
		}
		st, ok := statFile(p)
		if !ok {
			return fmt.Errorf("%s vanished from the tree %s", rel, b.root)
		}
		// A sum counts only for the file as it was summed: anything
		// changed since is read again.
		if rec, ok := b.sums[rel]; ok && rec.Stat == st {
			sums[rel] = rec
			return nil
		}
		if rec, ok := b.st.Sums[rel]; ok && rec.Stat == st && fs.FileMode(st.Mode).IsRegular() {
			sums[rel] = rec
			return nil
		}
		data, err := regular.ReadFile(p)
		if err != nil {
			return err
		}
		sums[rel] = fileSum{sha256.Sum256(data), st}
		return nil
	})
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.st.Sums = sums
	b.mu.Unlock()
	data := sumsText(sums)
	k := hashParts(data)
	if b.fileIntact(SumsFile, k) {
		b.files.Add(1)
		return nil
	}
	b.record(SumsFile, key{}, fileStat{})
	st, err := b.write(SumsFile, data)
	if err != nil {
		return err
	}
	b.record(SumsFile, k, st)
	return nil
}

// sumsText is SumsFile's text. Names that sha256sum would escape (a
// backslash or a new line in them) are escaped its way: the line starts
// with a backslash.
func sumsText(sums map[string]fileSum) []byte {
	var b []byte
	for _, rel := range slices.Sorted(maps.Keys(sums)) {
		s := sums[rel].Sum
		name := rel
		if strings.ContainsAny(name, "\\\n\r") {
			name = strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(name)
			b = append(b, '\\')
		}
		b = hex.AppendEncode(b, s[:])
		b = append(b, "  "...)
		b = append(b, name...)
		b = append(b, '\n')
	}
	return b
}
