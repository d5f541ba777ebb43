package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/regular"
)

// An incremental build keeps two trees beside the output folder OUT: OUT
// itself (live) and .OUT.standby, the tree the build before last wrote.
// A build brings the standby up to date in place, writing only what
// changed since it was live and deleting what is gone, then exchanges the
// two folders, so that unchanged files are neither rewritten nor deleted,
// and a failed build never touches the live output. .OUT.state records,
// for each tree, the key of the inputs every file was made from (DESIGN
// notes in README, "Incremental builds").

// agentRecord is what a tree holds of one agent: the key of the inputs its
// files were made from (zero: unknown, to be rewritten), and the fields its
// cards' SDK-projection signatures leave out, one per line.
type agentRecord struct {
	Key       key
	Projected string
	// Extra are the agent's files in its .well-known folder beyond its
	// two cards (a remote agent's upstream copies).
	Extra []string
	Stats []fileStat // of the agent's files (rec.names()), as written
	// Sums are the SHA-256 of those files as written, for layout.SumsFile.
	Sums [][32]byte
	// Folders are agents/<id> and its .well-known once the files were in
	// them: a name added to either since changes them.
	Folders [2]fileStat
	// Extended says the agent has extended cards, which every build
	// makes afresh in the private output.
	Extended bool
	// checked says this build found the agent's files and folders as
	// Stats and Folders record them (agentIntact), or wrote them and
	// recorded them so; never saved.
	checked bool
}

// fileRecord is what a tree holds at one path outside agents/: the key of
// its inputs (or of its bytes), and the file as written, with its SHA-256
// (for layout.SumsFile).
type fileRecord struct {
	Key  key
	Stat fileStat
	Sum  [32]byte
}

// fileStat identifies a file as a build wrote it. A file changed since
// (edited, restored from a copy, replaced by a link) no longer matches,
// and is treated as unknown: rewritten, never kept or copied.
type fileStat struct {
	Size, Mtime int64
	// Ctime, the inode's change time, moves on any write or rename even
	// when the modification time is set back.
	Ctime int64
	Ino   uint64
	Mode  uint32
}

// statOf is the fileStat of what fi describes.
func statOf(fi os.FileInfo) fileStat {
	_, ino, _ := fileID(fi)
	return fileStat{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Ctime: changeTime(fi), Ino: ino, Mode: uint32(fi.Mode())}
}

// intact reports whether path is still the regular file st describes.
func intact(path string, st fileStat) bool {
	now, ok := statFile(path)
	return ok && st.Mode != 0 && fs.FileMode(now.Mode).IsRegular() && now == st
}

// folderIntact reports whether path is still the folder st describes:
// nothing was added to it or removed from it since.
func folderIntact(path string, st fileStat) bool {
	now, ok := statFile(path)
	return ok && st.Mode != 0 && fs.FileMode(now.Mode).IsDir() && now == st
}

// treeState is what one tree holds.
type treeState struct {
	Dev, Ino uint64 // the tree's folder, which keeps its identity when renamed
	// Agents are its agents, and the source of each it was built from.
	Agents *agentTable
	Files  map[string]fileRecord // every other file
	// Clean is the key of the private text (the extended cards') that
	// every file of the tree was last found free of; zero when unknown.
	// A build that finds the same text again looks only in the files it
	// wrote.
	Clean key
	// raw is the tree as the state file it was read from holds it (in
	// the memory of the whole file, until openStandby copies it), which
	// saving it again writes as it is: the live tree, which a build only
	// reads, is saved twice. The tree a build writes into drops it
	// (prepareStandby); nil for a tree made or changed since.
	raw []byte
}

func newTreeState() *treeState {
	return &treeState{Agents: newAgentTable(0), Files: map[string]fileRecord{}}
}

// matches reports whether dir is the folder t describes.
func (t *treeState) matches(dir string) bool {
	dev, ino, ok := dirID(dir)
	return ok && t != nil && t.Ino != 0 && dev == t.Dev && ino == t.Ino
}

// stamp records dir as the folder t describes.
func (t *treeState) stamp(dir string) {
	t.Dev, t.Ino, _ = dirID(dir)
}

// buildState is the state file: the live tree and the standby.
type buildState struct {
	Live    *treeState
	Standby *treeState // nil: unknown (a build was writing it)
	// Private is the private output the live tree's build swapped in;
	// nil when none. A build that writes its private output elsewhere
	// removes that folder (removeOldPrivate).
	Private *privateRecord
}

// standbyPath and statePath are the standby tree and state file of out.
func standbyPath(out string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".standby")
}
func statePath(out string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".state")
}

// loadState reads the state file (statefile.go); a missing, unreadable
// or damaged one, one naming what no build writes, or anything but a
// regular file (a link, a named pipe, which would block the build, a
// device) is no state.
func loadState(path string) *buildState {
	data, err := regular.ReadFile(path)
	if err != nil {
		return &buildState{}
	}
	st := decodeState(data)
	if st == nil {
		return &buildState{}
	}
	for _, t := range []*treeState{st.Live, st.Standby} {
		if t == nil {
			continue
		}
		fixNil(t)
		if !t.sane() {
			// Names the build would join to paths: never trust ones that
			// could leave the tree.
			return &buildState{}
		}
	}
	return st
}

// sane reports whether every name t holds is one a build writes: agent
// ids are slugs, an agent's extra files distinct JSON files of its
// .well-known folder, files clean relative slash paths inside the tree.
func (t *treeState) sane() bool {
	a := t.Agents
	for e := range a.entries {
		// Every id: those of a source's agent too.
		if !validSlug(a.id(uint32(e))) {
			return false
		}
		extra := a.extraNames(&a.entries[e])
		for i, name := range extra {
			// A JSON file of its .well-known folder, named once and not
			// as one every agent has (sha256sums.txt lists each once).
			base, isJSON := strings.CutSuffix(name, ".json")
			if !isJSON || !validSlug(base) || slices.Contains(agentFileNames, name) || slices.Contains(extra[:i], name) {
				return false
			}
		}
	}
	for name := range t.Files {
		if name == "" || !fs.ValidPath(name) || strings.Contains(name, "\\") {
			return false
		}
	}
	return true
}

// dropRecord lets the record of t's agents and files go when t is saved
// from the bytes it was read as (raw), which do not need it: a build
// holds the live tree's record, as large as the standby's (about 0.4 KB
// an agent), only while it builds the agents. Nothing may read t's
// agents or files after this. t may be nil.
func (t *treeState) dropRecord() {
	if t != nil && t.raw != nil {
		t.Agents, t.Files = newAgentTable(0), map[string]fileRecord{}
	}
}

func fixNil(t *treeState) {
	if t.Agents == nil {
		t.Agents = newAgentTable(0)
	}
	if t.Files == nil {
		t.Files = map[string]fileRecord{}
	}
}

// prepareStandby returns the standby tree to build into and what it holds:
// the known standby as it is, else a new empty folder (an unknown one, left
// by a build that was killed, is removed first).
func prepareStandby(st *buildState, standby string) (t *treeState, fresh bool, err error) {
	if st.Standby != nil && st.Standby.matches(standby) {
		st.Standby.raw = nil // about to change
		return st.Standby, false, nil
	}
	if _, err := os.Lstat(standby); err == nil {
		if err := os.RemoveAll(standby); err != nil {
			return nil, false, fmt.Errorf("removing the unknown standby tree %s: %v", standby, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, err
	}
	if err := os.Mkdir(standby, 0o755); err != nil {
		return nil, false, err
	}
	t = newTreeState()
	t.stamp(standby)
	return t, true, nil
}

// exchangeTrees makes the standby live and the live tree the standby. A
// first build (no live tree) just moves the standby in.
func exchangeTrees(standby, out string) error {
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(standby, out)
	}
	return exchange(standby, out)
}

// exchangeByRenames swaps two folders with three renames, putting things
// back when the second fails.
func exchangeByRenames(a, b string) error {
	tmp := a + ".swap"
	if err := os.Rename(b, tmp); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		if rerr := os.Rename(tmp, b); rerr != nil {
			return fmt.Errorf("%v; and restoring the previous output failed: %v (it is at %s)", err, rerr, tmp)
		}
		return err
	}
	return os.Rename(tmp, a)
}
