package site

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/atomicfile"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/sign"
)

// privateRecord is the private output a build swapped in, as the state
// file keeps it: the folder's real path and its identity. A build swaps in
// a new folder each time, so only that very folder has the identity; a
// folder made by hand at the same path, or the same files copied into
// another, does not.
type privateRecord struct {
	Path     string
	Dev, Ino uint64
	// OwnerIno and OwnerCtime are the owner file's inode and change time
	// as the build wrote it: a folder restored from a copy may get the old
	// folder's inode back, never a change time of the past.
	OwnerIno   uint64
	OwnerCtime int64
}

// lastPrivatePath is the file, in the manifest's git-ignored .agentcards
// folder and named for the manifest, that records the private output the manifest's last build
// swapped in, wherever its public output was: a build that moves
// site.output and site.privateOutput together, whose new output folder
// has no state of its own, still finds the old private output there.
func lastPrivatePath(manifestDir, manifest string) string {
	return filepath.Join(manifestDir, sign.DevKeyDir, "private-output."+filepath.Base(manifest)+".json")
}

// loadLastPrivate reads lastPrivatePath; nil when there is none or it
// does not hold a clean absolute path.
func loadLastPrivate(manifestDir, manifest string) *privateRecord {
	data, err := regular.ReadFile(lastPrivatePath(manifestDir, manifest))
	if err != nil || len(data) > 4096 {
		return nil
	}
	var r privateRecord
	if json.Unmarshal(data, &r) != nil || !filepath.IsAbs(r.Path) || filepath.Clean(r.Path) != r.Path || r.Ino == 0 {
		return nil
	}
	return &r
}

// saveLastPrivate writes r to lastPrivatePath, or removes the file when r
// is nil (the build wrote no private output).
func saveLastPrivate(manifestDir, manifest string, r *privateRecord) error {
	path := lastPrivatePath(manifestDir, manifest)
	if r == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}

// ownerID is the inode and change time of the owner file in dir.
func ownerID(dir string) (ino uint64, ctime int64, ok bool) {
	fi, err := os.Lstat(filepath.Join(dir, ownerFile))
	if err != nil || !fi.Mode().IsRegular() {
		return 0, 0, false
	}
	_, ino, ok = fileID(fi)
	ctime = changeTime(fi)
	return ino, ctime, ok && ctime != 0
}

// recordPrivate is the record of the private output dir a build has just
// swapped in; nil when it has none (wrote is false) or the system cannot
// tell folders apart.
func recordPrivate(dir string, wrote bool) *privateRecord {
	if !wrote {
		return nil
	}
	dev, ino, ok := dirID(dir)
	if !ok || ino == 0 {
		return nil
	}
	oino, octime, ok := ownerID(dir)
	if !ok {
		return nil
	}
	return &privateRecord{Path: dir, Dev: dev, Ino: ino, OwnerIno: oino, OwnerCtime: octime}
}

// lockDir is the folder a build locks before it may remove r: the one
// beside it, as for any private output; none for no record.
func (r *privateRecord) lockDir() []string {
	if r == nil || !filepath.IsAbs(r.Path) {
		return nil
	}
	return []string{filepath.Dir(r.Path)}
}

// errSkip is a previous private output there is nothing to say about:
// gone already, or the folder the build writes now.
var errSkip = errors.New("nothing to remove")

// checkOldPrivate says why the build must not touch the previous private
// output r ("" when it may go on to look inside), or errSkip when there is
// nothing to do: the path is clean and absolute, neither the new private
// output nor the public one (or a folder kept beside it) and neither
// inside the other, holds neither the manifest nor the keys, is a real
// folder at every level, and is the very folder the last build swapped in.
func checkOldPrivate(r *privateRecord, p buildPaths) (string, error) {
	old := r.Path
	if !filepath.IsAbs(old) || filepath.Clean(old) != old {
		return "is not a clean absolute path", nil
	}
	if old == p.newDir {
		return "", errSkip
	}
	st, err := os.Lstat(old)
	if errors.Is(err, fs.ErrNotExist) {
		return "", errSkip
	}
	if err != nil {
		return "cannot be read: " + err.Error(), nil
	}
	if now, err := os.Lstat(p.newDir); err == nil && os.SameFile(st, now) {
		return "", errSkip // the same folder, by another name
	}
	switch {
	case regular.Within(p.newDir, old):
		return "holds the new private output " + p.newDir, nil
	case regular.Within(old, p.newDir):
		return "is inside the new private output " + p.newDir, nil
	case overlapsOutput(old, p.out) != "":
		return overlapsOutput(old, p.out), nil
	case regular.Within(p.manifestDir, old):
		return "holds the manifest", nil
	case regular.Within(p.keysDir, old):
		return "holds the keys folder", nil
	case st.Mode()&fs.ModeSymlink != 0:
		return "is a symbolic link", nil
	case !st.IsDir():
		return "is not a folder", nil
	}
	if real, err := realPath(old); err != nil || real != old {
		return "is reached through a symbolic link", nil
	}
	if dev, ino, ok := dirID(old); !ok || dev != r.Dev || ino != r.Ino {
		return "is not the folder the last build wrote (it was replaced since)", nil
	}
	if ino, ctime, ok := ownerID(old); !ok || ino != r.OwnerIno || ctime != r.OwnerCtime {
		return "holds an owner file the last build did not write (restored or copied since)", nil
	}
	return "", nil
}

// cardName is the name of a file a build writes in agents/<id>/ of a
// private output (layout.ExtendedFile).
var cardName = regexp.MustCompile(`^extended-agent(-card)?(\.[a-z0-9]+(-[a-z0-9]+)*)?\.json$`)

// privateTree is what a previous private output holds.
type privateTree struct {
	cards   []string // files a build wrote, listed in the owner file
	dirs    []string // agents/<id> and agents, deepest first
	foreign []string // anything else
}

// readPrivateTree looks at the private output opened as root: the proof
// that a build of this manifest wrote it (our .gitignore, and an owner
// file naming the manifest by owner), and what it holds. Nothing follows
// a link: only regular files and folders count as the build's.
func readPrivateTree(root *os.Root, owner string) (*privateTree, string) {
	ignore, err := readRegular(root, privateIgnore)
	if err != nil || string(ignore) != string(privateIgnoreText) {
		return nil, "carries no .gitignore of ours"
	}
	data, err := readRegular(root, ownerFile)
	if err != nil {
		return nil, "carries no " + ownerFile
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != owner {
		return nil, "holds " + lines[0] + ", not this manifest's"
	}
	listed := map[string]bool{}
	for _, l := range lines[1:] {
		listed[l] = true
	}
	t := &privateTree{}
	err = fs.WalkDir(root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		parts := strings.Split(rel, "/")
		switch {
		case rel == "." || rel == privateIgnore || rel == ownerFile:
			if rel == "." || d.Type().IsRegular() {
				return nil
			}
		case rel == "agents" && d.IsDir(), len(parts) == 2 && parts[0] == "agents" && d.IsDir() && validSlug(parts[1]):
			t.dirs = append(t.dirs, rel)
			return nil
		case len(parts) == 3 && listed[rel] && cardName.MatchString(parts[2]) && d.Type().IsRegular():
			t.cards = append(t.cards, rel)
			return nil
		}
		t.foreign = append(t.foreign, rel)
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, "cannot be read: " + err.Error()
	}
	slices.Reverse(t.dirs)
	return t, ""
}

// readRegular reads a regular file of root, never through a link.
func readRegular(root *os.Root, name string) ([]byte, error) {
	st, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	return root.ReadFile(name)
}

// removeOldPrivate removes the private output r that an earlier build
// wrote, once a build that writes its private output elsewhere (or none)
// has succeeded. It removes only what it can prove a build of this
// manifest wrote there (checkOldPrivate, readPrivateTree), and only the
// files that build wrote: a folder holding anything else keeps it, and
// its .gitignore. It works through the folder opened once, whose identity
// it checks, so a link swapped in after the checks is never followed out
// of it. locked says the build holds the lock beside the folder. It
// returns the folder when it removed it, else a warning ("" when there is
// nothing to say).
func removeOldPrivate(r *privateRecord, locked bool, p buildPaths) (removed, warning string) {
	if r == nil {
		return "", ""
	}
	left := func(why string) string {
		return fmt.Sprintf("site.privateOutput changed, but the previous private output %s was left in place: it %s; if it still holds extended cards, delete it yourself", r.Path, why)
	}
	why, err := checkOldPrivate(r, p)
	if err != nil {
		return "", ""
	}
	if why == "" && !locked {
		why = "was written by a build that ran at the same time as this one"
	}
	if why != "" {
		return "", left(why)
	}
	root, err := os.OpenRoot(r.Path)
	if err != nil {
		return "", left("cannot be opened: " + err.Error())
	}
	defer root.Close()
	if st, err := root.Stat("."); err != nil || !sameID(st, r) {
		return "", left("is not the folder the last build wrote (it was replaced since)")
	}
	t, why := readPrivateTree(root, ownerLine(r.Path, p.manifest))
	if why != "" {
		return "", left(why)
	}
	var failed []string
	remove := func(names ...string) {
		for _, n := range names {
			if err := root.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
				failed = append(failed, n)
			}
		}
	}
	// The owner file last: while it is there, a build stopped halfway
	// finds the folder still its own and finishes the job.
	remove(t.cards...)
	remove(ownerFile)
	if len(t.foreign) > 0 {
		for _, d := range t.dirs {
			root.Remove(d) // only when empty: a folder of yours stays
		}
		shown := t.foreign
		if len(shown) > 5 {
			shown = append(slices.Clone(shown[:5]), fmt.Sprintf("and %d more", len(t.foreign)-5))
		}
		return "", fmt.Sprintf("site.privateOutput changed, and the previous private output %s holds files no build wrote (%s): the build removed its extended cards from it but kept the folder, those files and its .gitignore; delete it yourself when you are done with it", r.Path, strings.Join(shown, ", "))
	}
	remove(t.dirs...)
	remove(privateIgnore)
	if len(failed) == 0 {
		// An empty folder, removed by its name only if it is still the
		// one opened.
		if st, err := os.Lstat(r.Path); err != nil || !sameID(st, r) || os.Remove(r.Path) != nil {
			failed = append(failed, ".")
		}
	}
	if len(failed) > 0 {
		return "", left("could not be removed completely (" + strings.Join(failed, ", ") + ")")
	}
	return r.Path, ""
}

// sameID reports whether st is the folder r records.
func sameID(st fs.FileInfo, r *privateRecord) bool {
	dev, ino, ok := fileID(st)
	return ok && st.IsDir() && dev == r.Dev && ino == r.Ino
}
