// Package lintcache keeps the lint findings of the cards a build signs,
// by the digest of each card's bytes, from one build of a project to the
// next: a card whose bytes did not change is not read again. Findings
// depend on nothing but those bytes and the rules, so an entry is kept
// only for the same program (the SHA-256 of its executable): a new build
// of agentcards starts afresh.
//
// The cache is a file of the user's cache directory
// ($XDG_CACHE_HOME/agentcards/lint, ~/.cache/agentcards/lint), one per
// project folder, never inside the project: a file in the repository, or
// arriving in a pull request, can silence nothing. A cache that cannot
// be read is an empty one; one that cannot be written is not kept.
package lintcache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/atomicfile"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/program"
	"github.com/agentcards/agentcards/internal/regular"
)

// format names the cache file's layout: a first line "format engine",
// then one line "L <findings as JSON>" for each distinct list of
// findings, then one line "C <card digest> <list number>" for each card.
const format = "agentcards-lint-cache/2"

// maxLine bounds a line of the cache file.
const maxLine = 1 << 20

// Cache holds findings by card digest. It is safe for concurrent use.
type Cache struct {
	path   string // "": findings are not kept
	engine string // the program's digest
	mu     sync.Mutex
	// old and used hold the number of each card's list in lists: those
	// read from the file, and the entries of this build, written back.
	// A large site's build holds one entry a card to its end, numbers
	// rather than pointers, which the collector would follow on every
	// cycle.
	old, used map[[32]byte]uint32
	lists     []*list           // each distinct list of findings
	numbers   map[string]uint32 // the number of each list, by its JSON
}

// list is a list of findings, shared by every card that has it (most
// cards of a site have the same few), with its JSON.
type list struct {
	findings []lint.Finding
	json     string
}

// Open returns the cache of the project whose manifest folder is dir, as
// the last build left it; a cache that cannot be found or read is empty.
// getenv gives the environment the cache directory is found by, as
// os.UserCacheDir finds it (without one, findings are not kept).
func Open(dir string, getenv func(string) string) *Cache {
	c := &Cache{old: map[[32]byte]uint32{}, used: map[[32]byte]uint32{}, numbers: map[string]uint32{}}
	base := userCacheDir(getenv)
	if base == "" {
		return c
	}
	digest, ok := program.Digest()
	if !ok {
		return c
	}
	engine := hex.EncodeToString(digest[:])
	abs, err := filepath.Abs(dir)
	if err != nil {
		return c
	}
	project := sha256.Sum256([]byte(abs))
	path := filepath.Join(base, "agentcards", "lint", hex.EncodeToString(project[:16]))
	if insideProject(path, abs) {
		// A cache in the project (HOME or XDG_CACHE_HOME set to it, as
		// some containers and scripts do) could arrive in a commit.
		return c
	}
	c.path, c.engine = path, engine
	if data, err := readOwn(c.path); err == nil {
		if old, err := c.decode(data); err == nil {
			c.old = old
		}
	}
	return c
}

// Findings returns the findings of the card whose unsigned bytes are
// given, none silenced (lint.Unsigned with no reasons): from the cache
// when the same bytes were linted before, else by linting them. doc, when
// not nil, is unsigned as card.Decode(unsigned, card.Strict) returns it,
// which a build has already: it is linted instead of decoding the bytes
// again (and not changed). The cache is keyed by the bytes either way.
func (c *Cache) Findings(unsigned []byte, doc map[string]any) ([]lint.Finding, error) {
	if c == nil {
		return lintCard(unsigned, doc)
	}
	key := sha256.Sum256(unsigned)
	c.mu.Lock()
	n, ok := c.used[key]
	if !ok {
		n, ok = c.old[key]
	}
	c.mu.Unlock()
	if !ok {
		fs, err := lintCard(unsigned, doc)
		if err != nil {
			return nil, err
		}
		data, err := json.Marshal(fs)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		n, _ = c.intern(string(data), fs)
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.used[key] = n
	l := c.lists[n]
	c.mu.Unlock()
	// The caller silences findings in place: it gets a copy.
	return slices.Clone(l.findings), nil
}

// lintCard is lint.Unsigned(unsigned, nil), of doc when it is given
// (unsigned decoded).
func lintCard(unsigned []byte, doc map[string]any) ([]lint.Finding, error) {
	if doc == nil {
		return lint.Unsigned(unsigned, nil)
	}
	return lint.Card(doc), nil
}

// intern returns the number of the cache's list whose JSON is data, made
// of fs (or of data decoded, when fs is nil) if there is none yet (with
// mu held); false when data is not JSON. The list keeps its own copies: a
// finding's text may share the memory of the whole decoded card.
func (c *Cache) intern(data string, fs []lint.Finding) (uint32, bool) {
	if n, ok := c.numbers[data]; ok {
		return n, true
	}
	if fs == nil {
		if err := json.Unmarshal([]byte(data), &fs); err != nil {
			return 0, false
		}
	}
	l := &list{findings: make([]lint.Finding, len(fs)), json: strings.Clone(data)}
	for i, f := range fs {
		f.Rule, f.Path, f.Message, f.Fix, f.Silenced = strings.Clone(f.Rule), strings.Clone(f.Path), strings.Clone(f.Message), strings.Clone(f.Fix), strings.Clone(f.Silenced)
		f.Severity, f.Category = lint.Severity(strings.Clone(string(f.Severity))), lint.Category(strings.Clone(string(f.Category)))
		l.findings[i] = f
	}
	n := uint32(len(c.lists))
	c.lists = append(c.lists, l)
	c.numbers[l.json] = n
	return n, true
}

// Save writes the entries this build used, and only those, for the next
// build.
func (c *Cache) Save() error {
	if c == nil || c.path == "" {
		return nil
	}
	c.mu.Lock()
	data := c.encode()
	c.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(c.path, data, 0o600)
}

// encode is the cache file of the entries used (with mu held).
func (c *Cache) encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\n", format, c.engine)
	number := map[uint32]int{}
	for _, n := range c.used {
		if _, ok := number[n]; !ok {
			number[n] = len(number)
			fmt.Fprintf(&b, "L %s\n", c.lists[n].json)
		}
	}
	for key, n := range c.used {
		fmt.Fprintf(&b, "C %x %d\n", key, number[n])
	}
	return b.Bytes()
}

// decode reads a cache file made by this program.
func (c *Cache) decode(data []byte) (map[[32]byte]uint32, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxLine)
	if !sc.Scan() || sc.Text() != format+" "+c.engine {
		return nil, errors.New("another format or program")
	}
	var lists []uint32 // the cache's number of each list of the file
	cards := map[[32]byte]uint32{}
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "L":
			n, ok := c.intern(rest, nil)
			if !ok {
				return nil, errors.New("a list that is not JSON")
			}
			lists = append(lists, n)
		case "C":
			digest, number, _ := strings.Cut(rest, " ")
			k, herr := hex.DecodeString(digest)
			n, err := strconv.Atoi(number)
			var key [32]byte
			if herr != nil || len(k) != len(key) || err != nil || n < 0 || n >= len(lists) {
				return nil, errors.New("a card line that is not one")
			}
			copy(key[:], k)
			cards[key] = lists[n]
		default:
			return nil, errors.New("a line that is not one")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return cards, nil
}

// userCacheDir is os.UserCacheDir, read from getenv: "" when there is
// none.
func userCacheDir(getenv func(string) string) string {
	var dir string
	switch runtime.GOOS {
	case "windows":
		dir = getenv("LocalAppData")
	case "darwin", "ios":
		if home := getenv("HOME"); home != "" {
			dir = filepath.Join(home, "Library", "Caches")
		}
	default:
		dir = getenv("XDG_CACHE_HOME")
		if dir == "" {
			if home := getenv("HOME"); home != "" {
				dir = filepath.Join(home, ".cache")
			}
		}
	}
	if !filepath.IsAbs(dir) {
		return ""
	}
	return dir
}

// insideProject reports whether path lies in the project of folder dir:
// the git work tree dir is in (the folder up from it holding .git), or
// dir itself; as written, and with the links of its existing part
// followed.
func insideProject(path, dir string) bool {
	roots := []string{projectRoot(dir)}
	if real, err := filepath.EvalSymlinks(roots[0]); err == nil {
		roots = append(roots, real)
	}
	paths := []string{path, realPath(path)}
	for _, root := range roots {
		for _, p := range paths {
			if regular.Within(p, root) {
				return true
			}
		}
	}
	return false
}

// projectRoot is the top of the git work tree dir is in, or dir.
func projectRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// realPath is path with the links of its longest existing part followed.
func realPath(path string) string {
	rest := ""
	for p := path; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		up := filepath.Dir(p)
		if up == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = up
	}
}

// readOwn reads the regular file at path, never through a link
// (regular.ReadFile), and only when it and its folder belong to this user
// and no one else may write them (ownedByMe).
func readOwn(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	dir, err := os.Lstat(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if !ownedByMe(fi) || !ownedByMe(dir) {
		return nil, errors.New("another user may write it")
	}
	// A regular file, not a link, and the one inspected (no one else may
	// write the folder to swap it).
	return regular.ReadFile(path)
}
