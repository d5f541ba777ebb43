package site

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/secret"
)

// tree is the standby tree a build brings up to date, and its record
// (treeState) of what it holds, kept exact as files are written: every
// file of the output passes through it.
type tree struct {
	root    string
	fresh   bool            // root was made empty by this build
	secrets *secret.Scanner // scans every file before it is written
	// cleanBefore is the private text the tree was known to be free of
	// when the build began (treeState.Clean).
	cleanBefore key
	files       atomic.Int64 // the files of the output, written or kept
	mu          sync.Mutex   // guards st and written
	st          *treeState
	// written is every file of the tree this build wrote, for the leak
	// check; kept only when it may use it (keepsWritten).
	written []string
}

// keepsWritten reports whether the leak check may read only the files
// this build writes (leakPaths), and so needs their names: only in a tree
// kept from an earlier build that was found free of private text. A
// fresh tree, or one never found so, is read whole, and a large site's
// list of names is not held for nothing.
func (t *tree) keepsWritten() bool {
	return !t.fresh && t.cleanBefore != key{}
}

// liveTree is the previous output, from which a build copies the files
// whose inputs are unchanged: dir is "" and st nil when it is unknown.
type liveTree struct {
	dir string
	st  *treeState
}

// kept counts n files of the output that the tree already held.
func (t *tree) kept(n int) { t.files.Add(int64(n)) }

// knownID is the id of an agent whose source a previous build saw, in the
// tree or in the live output.
func (t *tree) knownID(raw key, live liveTree) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.st.Agents.source(raw); ok {
		return id
	}
	if live.st != nil {
		id, _ := live.st.Agents.source(raw)
		return id
	}
	return ""
}

// agent is what the tree holds of agent id.
func (t *tree) agent(id string) agentRecord {
	t.mu.Lock()
	defer t.mu.Unlock()
	rec, _ := t.st.Agents.get(id)
	return rec
}

// projected is the Projected of what the tree holds of agent id.
func (t *tree) projected(id string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.st.Agents.projected(id)
}

// forgetAgent records that what the tree holds of agent id is unknown.
func (t *tree) forgetAgent(id string) {
	t.mu.Lock()
	t.st.Agents.set(id, &agentRecord{})
	t.mu.Unlock()
}

// keepAgent records that the tree holds agent id as rec, which this
// build found intact (agentIntact), and that the source raw is its; it
// returns the id as the tree's record holds it (setAgent).
func (t *tree) keepAgent(id string, rec agentRecord, raw key) string {
	id = t.setAgent(id, rec, raw)
	t.kept(len(rec.names()))
	return id
}

// setAgent records what the tree holds of agent id, as this build wrote
// it, and the source raw it was built from. It returns the id as the
// tree's record holds it, for the build to keep instead of its own copy.
func (t *tree) setAgent(id string, rec agentRecord, raw key) string {
	rec.checked = true
	t.mu.Lock()
	defer t.mu.Unlock()
	id = t.st.Agents.id(t.st.Agents.set(id, &rec))
	t.st.Agents.setSource(raw, id)
	return id
}

// markClean records that every file of the tree is free of the private
// text whose key is k (treeState.Clean).
func (t *tree) markClean(k key) {
	t.mu.Lock()
	t.st.Clean = k
	t.mu.Unlock()
}

// fileIntact reports whether the tree holds the file rel as recorded with
// key k.
func (t *tree) fileIntact(rel string, k key) bool {
	t.mu.Lock()
	rec, ok := t.st.Files[rel]
	t.mu.Unlock()
	return ok && rec.Key == k && intact(filepath.Join(t.root, filepath.FromSlash(rel)), rec.Stat)
}

// record notes that the tree holds rel, made from k, as w (zero: unknown).
func (t *tree) record(rel string, k key, w fileSum) {
	t.mu.Lock()
	t.st.Files[rel] = fileRecord{Key: k, Stat: w.Stat, Sum: w.Sum}
	t.mu.Unlock()
}

// put makes the file rel hold data, made from k: kept when the tree holds
// it so, else written.
func (t *tree) put(rel string, k key, data []byte) error {
	if t.fileIntact(rel, k) {
		t.kept(1)
		return nil
	}
	return t.replace(rel, k, data)
}

// replace writes the file rel, made from k, and records it; until it is
// written, the tree's copy is unknown.
func (t *tree) replace(rel string, k key, data []byte) error {
	t.record(rel, key{}, fileSum{})
	w, err := t.writeDir(rel, data)
	if err != nil {
		return err
	}
	t.record(rel, k, w)
	return nil
}

// write writes one file of the tree (rel is a slash path), scanning it.
func (t *tree) write(rel string, data []byte) (fileSum, error) {
	t.files.Add(1)
	return t.writeFile(rel, data)
}

// writeDir is write, creating the file's folder first.
func (t *tree) writeDir(rel string, data []byte) (fileSum, error) {
	if dir := path.Dir(rel); dir != "." {
		if err := t.mkdir(dir); err != nil {
			return fileSum{}, err
		}
	}
	return t.write(rel, data)
}

// writeFile writes a file of the tree, and returns it as written with the
// SHA-256 of its bytes. In a tree kept from an earlier build, whatever is
// already at that name must be a plain file: a symbolic link planted there
// would have the build write outside the tree.
func (t *tree) writeFile(rel string, data []byte) (fileSum, error) {
	p := filepath.Join(t.root, filepath.FromSlash(rel))
	if !t.fresh {
		if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
			return fileSum{}, fmt.Errorf("%s in the standby tree %s is not a plain file: refused; remove that folder and build again", rel, t.root)
		}
	}
	st, err := writeOutput(t.secrets, t.root, p, data)
	if err != nil {
		return fileSum{}, err
	}
	if t.keepsWritten() {
		t.mu.Lock()
		t.written = append(t.written, rel)
		t.mu.Unlock()
	}
	return fileSum{Sum: sha256.Sum256(data), Stat: st}, nil
}

// copyFrom copies the file rel of the folder dir into the tree, scanning
// it like every output.
func (t *tree) copyFrom(dir, rel string) (fileSum, error) {
	data, err := regular.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return fileSum{}, err
	}
	return t.writeFile(rel, data)
}

// mkdir makes the folder rel of the tree and its parents. In a tree kept
// from an earlier build, each existing one must be a real folder, not a
// symbolic link.
func (t *tree) mkdir(rel string) error {
	if t.fresh {
		return mkdirNew(filepath.Join(t.root, filepath.FromSlash(rel)))
	}
	p := t.root
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		case err != nil:
			return err
		case !st.IsDir():
			return t.notAFolder(p)
		}
	}
	return nil
}

// mkdirNew is os.MkdirAll(p, 0o755) for a folder that is most likely
// new, with a parent that most likely exists or is new too (an agent's
// .well-known): it makes p, and its parent first when p could not be made
// for want of it, without looking any of them up beforehand (MkdirAll's
// stat of each). Whatever else happens is left to MkdirAll itself, which
// sees the folders made so far.
func mkdirNew(p string) error {
	err := os.Mkdir(p, 0o755)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if parent := filepath.Dir(p); parent != p && mkdirNew(parent) == nil && os.Mkdir(p, 0o755) == nil {
			return nil
		}
	}
	return os.MkdirAll(p, 0o755)
}

// notAFolder is the error for p, in the tree, that is not a plain folder.
func (t *tree) notAFolder(p string) error {
	return fmt.Errorf("%s in the standby tree %s is not a plain folder: refused; remove that folder and build again", strings.TrimPrefix(p, t.root+string(filepath.Separator)), t.root)
}

// realDirs checks that the folder rel of the tree and each one above it is
// a real folder, not a link; a missing one is fine.
func (t *tree) realDirs(rel string) error {
	if rel == "." || rel == "" {
		return nil
	}
	p := t.root
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !st.IsDir() {
			return t.notAFolder(p)
		}
	}
	return nil
}

// removeOthers removes the entries of the folder dir of the tree whose
// names are not in keep (a link is removed, never followed).
func (t *tree) removeOthers(dir string, keep map[string]bool) error {
	if err := t.realDirs(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(filepath.Join(t.root, filepath.FromSlash(dir)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		if keep[e.Name()] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(t.root, filepath.FromSlash(dir), e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// prune removes from the tree what this build no longer produces: the
// agents not in keep, and the files outside agents/ not in want (listing
// pieces and pages that no longer exist).
func (t *tree) prune(keep, want map[string]bool) error {
	// Nothing is removed through a link: every folder on the way must be
	// a real one (a link planted in the standby would otherwise have the
	// build delete what it points at).
	if err := t.realDirs("agents"); err != nil {
		return err
	}
	ids := t.st.Agents.ids()
	slices.Sort(ids)
	for _, id := range ids {
		if keep[id] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(t.root, "agents", id)); err != nil {
			return err
		}
		t.st.Agents.remove(id)
	}
	for _, name := range slices.Sorted(maps.Keys(t.st.Files)) {
		if want[name] {
			continue
		}
		if err := t.removeFile(name); err != nil {
			return err
		}
		delete(t.st.Files, name)
	}
	// The sources only need to be this manifest's.
	a := t.st.Agents
	for r, e := range a.sources {
		if !keep[a.id(e)] {
			delete(a.sources, r)
		}
	}
	return t.pruneUnknown(keep)
}

// removeFile removes the file name of the tree, and the folders it
// leaves empty (page/7/, an extra page's).
func (t *tree) removeFile(name string) error {
	if err := t.realDirs(path.Dir(name)); err != nil {
		return err
	}
	p := filepath.Join(t.root, filepath.FromSlash(name))
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for d := filepath.Dir(p); d != t.root && strings.HasPrefix(d, t.root); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break
		}
	}
	return nil
}

// pruneUnknown removes what the tree holds but no build wrote: entries at
// its top, in the folders of listings, pages and .well-known, and folders
// under agents/ of no agent. (Each agent's own folder is not listed: that
// would cost two folder reads per agent on every build; the files in it are
// checked one by one instead.)
func (t *tree) pruneUnknown(agents map[string]bool) error {
	if t.fresh {
		return nil
	}
	wanted := map[string]map[string]bool{"": {"agents": true}}
	for name := range t.st.Files {
		dir, base := "", name
		for {
			i := strings.IndexByte(base, '/')
			if wanted[dir] == nil {
				wanted[dir] = map[string]bool{}
			}
			if i < 0 {
				wanted[dir][base] = true
				break
			}
			wanted[dir][base[:i]] = true
			dir, base = path.Join(dir, base[:i]), base[i+1:]
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(wanted)) {
		if err := t.removeOthers(dir, wanted[dir]); err != nil {
			return err
		}
	}
	return t.removeOthers("agents", agents)
}

// writeOutput writes one file of the new tree under root, after scanning
// it for private key material: every byte the build publishes passes here
// (layout.SumsFile's through scanSums). It returns the file as written.
func writeOutput(secrets *secret.Scanner, root, path string, data []byte) (fileStat, error) {
	var f secret.Finding
	var found bool
	if path == filepath.Join(root, layout.SumsFile) {
		f, found = scanSums(secrets, data)
	} else {
		f, found = secrets.Scan(path, data)
	}
	if found {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			rel = path
		}
		return fileStat{}, &LeakError{File: filepath.ToSlash(rel), Found: f}
	}
	return writeStat(path, data)
}
