package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/secret"
)

// privateOutput is a private output folder about to be replaced.
type privateOutput struct {
	dir     string // the folder (a real path)
	owner   string // ownerFile's first line for this manifest
	next    string // the new tree, written beside dir; "" when none
	existed bool   // dir held a previous private output
	swapped bool
}

// openPrivate looks at the private output folder dir (a real path), whose
// parent the build has locked if it existed. When the site has extended
// cards (needed), dir must not overlap the public output or the folders a
// build keeps beside it, hold the manifest or the keys folder, or exist
// without being a private output a build of this manifest wrote. When it
// has none, a private output this manifest's builds wrote there is to be
// removed, and anything else there is none of the build's business. out,
// manifestDir and keysDir are real paths; manifest is the manifest's file.
func openPrivate(dir, out, manifestDir, keysDir, manifest string, needed bool) (*privateOutput, error) {
	p := &privateOutput{dir: dir, owner: ownerLine(dir, manifest)}
	st, err := os.Lstat(dir)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	overlap := overlapsOutput(dir, out)
	if !needed {
		if !exists || overlap != "" || !st.IsDir() || p.foreign() != "" {
			return p, nil
		}
	}
	if err := privateConflict(dir, out, manifestDir, keysDir); err != nil {
		return nil, err
	}
	if exists && !st.IsDir() {
		return nil, fmt.Errorf("private output folder %s is not a folder; move it away or choose another (site.privateOutput)", dir)
	}
	if exists {
		if why := p.foreign(); why != "" {
			return nil, fmt.Errorf("private output folder %s %s; move it away or choose another folder (site.privateOutput): a build replaces the whole folder", dir, why)
		}
	}
	p.existed = exists
	parent := filepath.Dir(dir)
	if _, err := os.Stat(parent); errors.Is(err, fs.ErrNotExist) {
		// Not there when the build took its locks: nothing can be in it.
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return nil, err
		}
	}
	removeStale(dir)
	return p, nil
}

// privateConflict refuses a private output folder dir (a real path) that
// overlaps the public output out or the folders a build keeps beside it,
// or holds the manifest's folder or the keys folder.
func privateConflict(dir, out, manifestDir, keysDir string) error {
	if overlap := overlapsOutput(dir, out); overlap != "" {
		return fmt.Errorf("private output folder %s %s: extended cards must never be inside what is published; set site.privateOutput to a folder beside the public one (default \"private\")", dir, overlap)
	}
	for _, in := range []struct{ dir, what string }{{manifestDir, "the manifest"}, {keysDir, "the keys folder (site.keys)"}} {
		if regular.Within(in.dir, dir) {
			return fmt.Errorf("private output folder %s holds %s, which a build would delete; choose a folder of its own (site.privateOutput)", dir, in.what)
		}
	}
	return nil
}

// configuredConflict is privateConflict for the folders a manifest names,
// made real paths.
func configuredConflict(priv, out, manifestDir, keysDir string) error {
	realPriv, err := realPath(priv)
	if err != nil {
		return err
	}
	realOut, err := realPath(out)
	if err != nil {
		return err
	}
	return privateConflict(realPriv, realOut, manifestDir, keysDir)
}

// overlapsOutput says how dir overlaps the public output out or the
// folders a build keeps beside it (.out.standby, .out.state, .out.build-*),
// "" when it does not.
func overlapsOutput(dir, out string) string {
	if regular.Within(out, dir) || regular.Within(dir, out) {
		return "and the output folder " + out + " overlap"
	}
	if rel, err := filepath.Rel(filepath.Dir(out), dir); err == nil && !strings.HasPrefix(rel, "..") {
		first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		if strings.HasPrefix(first, "."+filepath.Base(out)+".") {
			return "is inside " + filepath.Join(filepath.Dir(out), first) + ", which a build of " + out + " keeps and swaps in"
		}
	}
	return ""
}

// ownerFile names, in a private output, the manifest whose builds write
// it (as a path from the folder, so that a project copied elsewhere is
// still its own), then every file the last build wrote there.
const ownerFile = ".agentcards-owner"

// ownerLine is the first line of ownerFile for the private output dir of
// a manifest's file ("" when read from memory).
func ownerLine(dir, manifest string) string {
	if manifest == "" {
		return "extended cards built from a manifest read from memory"
	}
	if real, err := realPath(manifest); err == nil {
		manifest = real
	}
	if rel, err := filepath.Rel(dir, manifest); err == nil {
		manifest = filepath.ToSlash(rel)
	}
	return "extended cards built from " + manifest
}

// foreign says why the folder is not a private output this manifest's
// builds wrote, "" when it is: only our .gitignore, the owner file naming
// this manifest, and the files it lists, in agents/<id>/ folders.
func (p *privateOutput) foreign() string {
	ignore, err := regular.ReadFile(filepath.Join(p.dir, privateIgnore))
	if err != nil || !bytes.Equal(ignore, privateIgnoreText) {
		return "exists and is not one agentcards wrote (no .gitignore of ours)"
	}
	owner, err := regular.ReadFile(filepath.Join(p.dir, ownerFile))
	if err != nil {
		return "exists and is not one agentcards wrote (no " + ownerFile + ")"
	}
	lines := strings.Split(strings.TrimSuffix(string(owner), "\n"), "\n")
	if lines[0] != p.owner {
		return "holds " + lines[0] + ", not this manifest's: give each manifest a site.privateOutput of its own"
	}
	listed := map[string]bool{}
	for _, l := range lines[1:] {
		listed[l] = true
	}
	why := ""
	filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			why = "cannot be read: " + err.Error()
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(p.dir, path)
		rel = filepath.ToSlash(rel)
		parts := strings.Split(rel, "/")
		ok := false
		switch {
		case rel == ".":
			ok = true
		case len(parts) == 1:
			ok = (rel == privateIgnore || rel == ownerFile) && d.Type().IsRegular() || rel == "agents" && d.IsDir()
		case len(parts) == 2:
			ok = parts[0] == "agents" && d.IsDir() && validSlug(parts[1])
		case len(parts) == 3:
			ok = listed[rel] && d.Type().IsRegular()
		}
		if !ok {
			why = "holds " + rel + ", which a build did not write"
			return filepath.SkipAll
		}
		return nil
	})
	return why
}

// prepare writes files, the new private output, beside the folder; with
// no files, the folder (if it is there) is to be removed.
func (p *privateOutput) prepare(files map[string][]byte, secrets *secret.Scanner) error {
	if files == nil && !p.existed {
		return nil
	}
	next, err := os.MkdirTemp(filepath.Dir(p.dir), buildPrefix(p.dir))
	if err != nil {
		return err
	}
	p.next = next
	if files != nil {
		owner := p.owner + "\n"
		for _, rel := range slices.Sorted(maps.Keys(files)) {
			if rel != privateIgnore {
				owner += rel + "\n"
			}
		}
		files = maps.Clone(files)
		files[ownerFile] = []byte(owner)
	}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(next, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			p.discard()
			return err
		}
		if f, found := secrets.Scan(path, files[rel]); found {
			p.discard()
			return &LeakError{File: "private output " + rel, Found: f}
		}
		if err := os.WriteFile(path, files[rel], 0o600); err != nil {
			p.discard()
			return err
		}
	}
	return nil
}

// swap puts the new private output in place.
func (p *privateOutput) swap() error {
	if p.next == "" {
		return nil
	}
	if err := exchangeTrees(p.next, p.dir); err != nil {
		return err
	}
	p.swapped = true
	return nil
}

// undo puts the previous private output back after swap.
func (p *privateOutput) undo() error {
	if !p.swapped {
		return nil
	}
	var err error
	if p.existed {
		err = exchange(p.next, p.dir)
	} else {
		err = os.Rename(p.dir, p.next)
	}
	if err == nil {
		p.swapped = false
	}
	return err
}

// finish removes what is left beside the folder: the previous output, or
// the new one that was never swapped in; and the folder itself when the
// site has no extended cards any more.
func (p *privateOutput) finish(empty bool) error {
	if p.next == "" {
		return nil
	}
	if err := os.RemoveAll(p.next); err != nil {
		return err
	}
	if empty && p.swapped {
		return os.Remove(p.dir)
	}
	return nil
}

// discard removes the new tree without swapping it in.
func (p *privateOutput) discard() {
	if p.next != "" && !p.swapped {
		os.RemoveAll(p.next)
	}
}
