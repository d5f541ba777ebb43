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
	c := &Cache{old: map[string][]lint.Finding{}, used: map[string][]lint.Finding{}}
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
	c.path = filepath.Join(base, "agentcards", "lint", hex.EncodeToString(project[:16])+".json")
	c.engine = engine
	data, err := readRegular(c.path)
	if err != nil {
		return c
	}
	var f file
	if json.Unmarshal(data, &f) == nil && f.Format == format && f.Engine == engine && f.Cards != nil {
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
	}
	c.mu.Lock()
	c.used[key] = fs
	c.mu.Unlock()
	// The caller silences findings in place: it gets a copy.
	return slices.Clone(fs), nil
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
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// readRegular reads the regular file at path, never through a link.
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return os.ReadFile(path)
}
