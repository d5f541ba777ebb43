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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/atomicfile"
	"github.com/agentcards/agentcards/internal/lint"
)

// format names the cache file's layout.
const format = "agentcards-lint-cache/1"

// Cache holds findings by card digest. It is safe for concurrent use.
type Cache struct {
	path   string // "": findings are not kept
	engine string // the program's digest
	mu     sync.Mutex
	old    map[string][]lint.Finding // read from the file
	used   map[string][]lint.Finding // the entries of this build, written back
	texts  map[string]string         // one copy of each finding's text
}

// file is the cache file's content.
type file struct {
	Format string                    `json:"format"`
	Engine string                    `json:"engine"`
	Cards  map[string][]lint.Finding `json:"cards"`
}

// Open returns the cache of the project whose manifest folder is dir, as
// the last build left it; a cache that cannot be found or read is empty.
// getenv gives the environment the cache directory is found by, as
// os.UserCacheDir finds it (without one, findings are not kept).
func Open(dir string, getenv func(string) string) *Cache {
	c := &Cache{old: map[string][]lint.Finding{}, used: map[string][]lint.Finding{}, texts: map[string]string{}}
	base := userCacheDir(getenv)
	if base == "" {
		return c
	}
	engine, err := programDigest()
	if err != nil {
		return c
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return c
	}
	project := sha256.Sum256([]byte(abs))
	path := filepath.Join(base, "agentcards", "lint", hex.EncodeToString(project[:16])+".json")
	if insideProject(path, abs) {
		// A cache in the project (HOME or XDG_CACHE_HOME set to it, as
		// some containers and scripts do) could arrive in a commit.
		return c
	}
	c.path, c.engine = path, engine
	data, err := readOwn(c.path)
	if err != nil {
		return c
	}
	var f file
	if json.Unmarshal(data, &f) == nil && f.Format == format && f.Engine == engine && f.Cards != nil {
		for _, fs := range f.Cards {
			for i := range fs {
				fs[i] = c.detached(fs[i])
			}
		}
		c.old = f.Cards
	}
	return c
}

// Findings returns the findings of the card whose unsigned bytes are
// given, none silenced (lint.Unsigned with no reasons): from the cache
// when the same bytes were linted before, else by linting them.
func (c *Cache) Findings(unsigned []byte) ([]lint.Finding, error) {
	if c == nil {
		return lint.Unsigned(unsigned, nil)
	}
	sum := sha256.Sum256(unsigned)
	key := hex.EncodeToString(sum[:])
	c.mu.Lock()
	fs, ok := c.used[key]
	if !ok {
		fs, ok = c.old[key]
	}
	c.mu.Unlock()
	if !ok {
		var err error
		if fs, err = lint.Unsigned(unsigned, nil); err != nil {
			return nil, err
		}
		// A finding's text may share the memory of the whole decoded
		// card: the cache keeps copies (one of each text), not every
		// card of the site.
		c.mu.Lock()
		for i := range fs {
			fs[i] = c.detached(fs[i])
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.used[key] = fs
	c.mu.Unlock()
	// The caller silences findings in place: it gets a copy.
	return slices.Clone(fs), nil
}

// detached is f with strings of the cache's own, one copy of each text
// (with mu held).
func (c *Cache) detached(f lint.Finding) lint.Finding {
	f.Rule, f.Path, f.Message, f.Fix, f.Silenced = c.intern(f.Rule), c.intern(f.Path), c.intern(f.Message), c.intern(f.Fix), c.intern(f.Silenced)
	f.Severity, f.Category = lint.Severity(c.intern(string(f.Severity))), lint.Category(c.intern(string(f.Category)))
	return f
}

// intern returns the cache's copy of s (with mu held).
func (c *Cache) intern(s string) string {
	if t, ok := c.texts[s]; ok {
		return t
	}
	t := strings.Clone(s)
	c.texts[t] = t
	return t
}

// Save writes the entries this build used, and only those, for the next
// build.
func (c *Cache) Save() error {
	if c == nil || c.path == "" {
		return nil
	}
	c.mu.Lock()
	data, err := json.Marshal(file{Format: format, Engine: c.engine, Cards: c.used})
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(c.path, data, 0o600)
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

// programDigest is the SHA-256 of the running program's executable.
func programDigest() (string, error) {
	// On Linux, the file this process runs, even if the path now names
	// another (an upgrade during the build).
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		exe, err := os.Executable()
		if err != nil {
			return "", err
		}
		if f, err = os.Open(exe); err != nil {
			return "", err
		}
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
			if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
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

// readOwn reads the regular file at path, never through a link, and only
// when it and its folder belong to this user and no one else may write
// them (ownedByMe).
func readOwn(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	dir, err := os.Lstat(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if !ownedByMe(fi) || !ownedByMe(dir) {
		return nil, errors.New("another user may write it")
	}
	return os.ReadFile(path)
}
