package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/secret"
)

// The sums file (layout.SumsFile) lists the SHA-256 of every other file of the site, in the
// format of sha256sum(1) ("<hex>  <path>", paths from the site's root,
// sorted), so that `sha256sum -c sha256sums.txt` in the output folder
// checks them all. The publish workflows attest it: one attestation that
// covers a site of any size (README, "Provenance").

// fileSum is a file's SHA-256 and the file as it was when summed.
type fileSum struct {
	Sum  [32]byte
	Stat fileStat
}

// namedSum is the SHA-256 of the file rel of the tree.
type namedSum struct {
	rel string
	sum [32]byte
}

// checksums writes layout.SumsFile: the SHA-256 of every file of the tree. Each
// file the tree's record holds was summed as it was written (by this
// build or an earlier one), and that sum counts only while the file is
// still as it was then; any other file is read.
//
// The tree is walked, so that a file nobody recorded is listed too, except
// for the folders of the agents this build checked or wrote (most of the
// tree): agentIntact found each of their files and both their folders as
// recorded, or the build wrote them and recorded them so, so their files
// are exactly the ones recorded, with the recorded sums. Any other agent
// folder is read on every core.
func (t *tree) checksums() error {
	var (
		sums   []namedSum
		agents []string // agents/<id> folders to walk, as paths
	)
	err := filepath.WalkDir(t.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == t.root {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, t.root+string(filepath.Separator)))
		if d.IsDir() {
			if id, ok := strings.CutPrefix(rel, "agents/"); ok && !strings.Contains(id, "/") {
				if rec, ok := t.st.Agents.get(id); ok && rec.checked {
					sums = rec.appendSums(sums, id)
				} else {
					agents = append(agents, p)
				}
				return fs.SkipDir
			}
			return nil
		}
		s, err := t.sumFile(p, rel, d)
		if err == nil && s.rel != "" {
			sums = append(sums, s)
		}
		return err
	})
	if err != nil {
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), max(len(agents), 1))
	parts := make([][]namedSum, workers)
	errs := make([]error, len(agents))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(agents) {
					return
				}
				errs[i] = filepath.WalkDir(agents[i], func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					rel := filepath.ToSlash(strings.TrimPrefix(p, t.root+string(filepath.Separator)))
					s, err := t.sumFile(p, rel, d)
					if err == nil {
						parts[w] = append(parts[w], s)
					}
					return err
				})
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for _, part := range parts {
		sums = append(sums, part...)
	}
	slices.SortFunc(sums, func(a, b namedSum) int { return strings.Compare(a.rel, b.rel) })
	data := sumsText(sums)
	return t.put(layout.SumsFile, hashParts(data), data)
}

// sumFile is the SHA-256 of the file at p (rel in the tree), from the
// tree's record while the file is as recorded, else read; layout.SumsFile itself
// has none (rel ""). The tree's record is not written while checksums
// runs, so this reads it without the lock.
func (t *tree) sumFile(p, rel string, d fs.DirEntry) (namedSum, error) {
	if rel == layout.SumsFile {
		return namedSum{}, nil
	}
	if !d.Type().IsRegular() {
		return namedSum{}, fmt.Errorf("%s in the tree %s is not a plain file: refused; remove that folder and build again", rel, t.root)
	}
	st, ok := statFile(p)
	if !ok {
		return namedSum{}, fmt.Errorf("%s vanished from the tree %s", rel, t.root)
	}
	// A sum counts only for the file as it was summed: anything changed
	// since is read again.
	if fs.FileMode(st.Mode).IsRegular() {
		if sum, ok := t.recordedSum(rel, st); ok {
			return namedSum{rel, sum}, nil
		}
	}
	data, err := regular.ReadFile(p)
	if err != nil {
		return namedSum{}, err
	}
	return namedSum{rel, sha256.Sum256(data)}, nil
}

// recordedSum is the SHA-256 the tree's record holds for the file rel,
// when the file is still st, as it was written.
func (t *tree) recordedSum(rel string, st fileStat) ([32]byte, bool) {
	if rest, ok := strings.CutPrefix(rel, "agents/"); ok {
		id, name, _ := strings.Cut(rest, "/")
		rec, ok := t.st.Agents.get(id)
		if i := rec.index(name); ok && i >= 0 && rec.Stats[i] == st {
			return rec.Sums[i], true
		}
		return [32]byte{}, false
	}
	if rec, ok := t.st.Files[rel]; ok && rec.Stat == st {
		return rec.Sum, true
	}
	return [32]byte{}, false
}

// appendSums appends to sums those of the files of agent id that rec
// records.
func (rec *agentRecord) appendSums(sums []namedSum, id string) []namedSum {
	for i, name := range rec.names() {
		sums = append(sums, namedSum{agentFile(id, name), rec.Sums[i]})
	}
	return sums
}

// agentFileIndex is the index in agentFileNames of the file name of an
// agent's folder (agentFile); -1 for any other.
func agentFileIndex(name string) int {
	if name != "index.html" {
		var ok bool
		if name, ok = strings.CutPrefix(name, layout.WellKnown+"/"); !ok || name == "index.html" {
			return -1
		}
	}
	return slices.Index(agentFileNames, name)
}

// scanSums is the secret scan of layout.SumsFile's text: its names are
// read as any file's text is, and each of its sums, 64 hex digits, is
// checked for the secret bytes of a key the build holds at either
// alignment of the digits (Scanner.HexShown), the only key material 32
// bytes can carry. A sum is the SHA-256 of a file, summed as it was
// written or read, or taken from the build's state, which whoever can
// write the output can write too: it is checked, not trusted. Reading the
// sums with every detector of Scan would cost far more (3 MB of hex at
// 10,000 agents) and find nothing more.
func scanSums(secrets *secret.Scanner, text []byte) (secret.Finding, bool) {
	names := make([]byte, 0, len(text)/2)
	for len(text) > 0 {
		line, rest, _ := bytes.Cut(text, []byte{'\n'})
		text = rest
		var raw [32]byte
		sum, name, ok := bytes.Cut(bytes.TrimPrefix(line, []byte{'\\'}), []byte("  "))
		if n, err := hex.Decode(raw[:], sum); !ok || err != nil || n != len(raw) {
			// Not a line sumsText writes: read whole, as text.
			names = append(append(names, line...), '\n')
			continue
		}
		if f, found := secrets.HexShown(raw[:]); found {
			return f, true
		}
		names = append(append(names, name...), '\n')
	}
	return secrets.Scan(layout.SumsFile, names)
}

// sumsText is layout.SumsFile's text, of sums sorted by name. Names that
// sha256sum would escape (a backslash or a new line in them) are escaped
// its way: the line starts with a backslash.
func sumsText(sums []namedSum) []byte {
	b := make([]byte, 0, len(sums)*(64+2+48))
	for _, s := range sums {
		name := s.rel
		if strings.ContainsAny(name, "\\\n\r") {
			name = strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(name)
			b = append(b, '\\')
		}
		b = hex.AppendEncode(b, s.sum[:])
		b = append(b, "  "...)
		b = append(b, name...)
		b = append(b, '\n')
	}
	return b
}
