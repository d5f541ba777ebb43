package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/secret"
)

// standby is a build's work beside the output folder, under its locks:
// the state it found there, and the standby tree it brings up to date and
// then exchanges with the output.
type standby struct {
	paths buildPaths
	state *buildState // as found once the locks were held
	// prevLocked says the folder beside the previous private output
	// (state.Private) is locked.
	prevLocked bool
	dir        string     // the standby tree
	fresh      bool       // dir was made empty by this build
	tree       *treeState // what dir holds
	live       *treeState // what the output holds; nil when unknown
	// cleanBefore is the private text the standby was known to be free
	// of (treeState.Clean) before this build.
	cleanBefore key
}

// openStandby readies the standby tree of the output p.out for a build
// that holds the locks; prevPriv is the previous private output as the
// state recorded it before they were taken.
func openStandby(p buildPaths, prevPriv *privateRecord) (*standby, error) {
	// While this build holds the lock, any build folder beside the output
	// is a leftover of a build that died.
	removeStale(p.out)
	s := &standby{paths: p, state: loadState(statePath(p.out)), dir: standbyPath(p.out)}
	if s.state.Private == nil && p.remember {
		// The record the manifest keeps, when this output has none: the
		// private output a build of it wrote beside another output.
		s.state.Private = loadLastPrivate(p.manifestDir, p.manifest)
	}
	// The folder beside the previous private output is locked only if a
	// build that ran while this one waited did not change it.
	s.prevLocked = s.state.Private == nil || prevPriv != nil && s.state.Private.Path == prevPriv.Path
	liveKnown := s.state.Live != nil && s.state.Live.matches(p.out)
	if err := checkOutDir(p.out, p.manifestDir, p.keysDir, liveKnown); err != nil {
		return nil, err
	}
	if st, err := os.Lstat(s.dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder: it is where builds keep the previous tree; remove it", s.dir)
	}
	var err error
	if s.tree, s.fresh, err = prepareStandby(s.state, s.dir); err != nil {
		return nil, err
	}
	// Until this build's leak check passes, no file of the tree is known
	// to be free of private text (it is about to change); what was known
	// holds for the files this build does not write.
	s.cleanBefore = s.tree.Clean
	s.tree.Clean = key{}
	if liveKnown {
		s.live = s.state.Live
		// Only the live tree's bytes are saved again: keep a copy of them,
		// not the whole file.
		s.live.raw = bytes.Clone(s.live.raw)
	}
	// Until this build records what it wrote, the standby is unknown.
	// Every state saved before the new private output is in place keeps
	// the previous one's record.
	if err := (&buildState{Live: s.live, Private: s.state.Private}).save(statePath(p.out)); err != nil {
		return nil, err
	}
	return s, nil
}

// newTree is the standby tree, for the builder to write into.
func (s *standby) newTree(secrets *secret.Scanner) *tree {
	return &tree{root: s.dir, fresh: s.fresh, secrets: secrets, cleanBefore: s.cleanBefore, st: s.tree}
}

// liveTree is the output, when the state knows what it holds.
func (s *standby) liveTree() liveTree {
	if s.live == nil {
		return liveTree{}
	}
	return liveTree{dir: s.paths.out, st: s.live}
}

// saveUnfinished records the standby as the build left it, which did not
// exchange it with the output.
func (s *standby) saveUnfinished() {
	(&buildState{Live: s.live, Standby: s.tree, Private: s.state.Private}).save(statePath(s.paths.out))
}

// publish puts a finished build in place: the private output's files
// (nil for none) first, then the standby in the output's place; on any
// error both are left as they were. It completes rep.
func (s *standby) publish(rep *Report, files map[string][]byte, opts Options) error {
	p := s.paths
	private, err := openPrivate(p.newDir, p.out, p.manifestDir, p.keysDir, p.manifest, files != nil)
	if err == nil && files != nil && opts.ConfiguredPrivateDir != "" {
		// A preview: the folders the manifest names are held to the
		// rules a build holds them to, though it writes elsewhere.
		err = configuredConflict(opts.ConfiguredPrivateDir, opts.ConfiguredOutDir, p.manifestDir, p.keysDir)
	}
	if err == nil {
		err = private.prepare(files, opts.Secrets)
	}
	if err != nil {
		s.saveUnfinished()
		return err
	}
	// The private output first: it can be put back if the public one
	// cannot be exchanged, so that the two always come from one build.
	if err := private.swap(); err != nil {
		private.discard()
		s.saveUnfinished()
		return fmt.Errorf("private output: %w", err)
	}
	if err := exchangeTrees(s.dir, p.out); err != nil {
		if uerr := private.undo(); uerr != nil {
			err = fmt.Errorf("%v; and putting the previous private output back failed: %v (it is at %s)", err, uerr, private.next)
		} else {
			private.discard()
		}
		s.saveUnfinished()
		return err
	}
	s.finish(rep, private, files != nil)
	return nil
}

// finish tidies up after the exchange: the previous private output, and
// the one before it when site.privateOutput changed since; and records
// the new state, in which the folders keep their identities: the standby
// now describes the output, and the previous live tree (known or not) is
// the standby.
func (s *standby) finish(rep *Report, private *privateOutput, wrote bool) {
	if err := private.finish(!wrote); err != nil {
		rep.Notes = append(rep.Notes, "the previous private output could not be removed: "+err.Error())
	}
	if wrote {
		rep.PrivateDir = private.dir
	}
	// Before the state forgets it: a build stopped halfway through
	// removing it finishes the job next time.
	removed, warning := removeOldPrivate(s.state.Private, s.prevLocked, s.paths)
	rep.RemovedPrivate = removed
	if warning != "" {
		rep.Warnings = append(rep.Warnings, warning)
	}
	next := &buildState{Live: s.tree, Standby: s.live, Private: recordPrivate(private.dir, wrote)}
	if err := next.save(statePath(s.paths.out)); err != nil {
		rep.Notes = append(rep.Notes, "the build state could not be saved, so the next build starts from scratch: "+err.Error())
	}
	if s.paths.remember {
		if err := saveLastPrivate(s.paths.manifestDir, s.paths.manifest, next.Private); err != nil {
			rep.Notes = append(rep.Notes, "where the private output is could not be recorded beside the manifest, so a build that moves site.output and site.privateOutput together will not find it: "+err.Error())
		}
	}
}

// lockDirs locks the folders (lockDir) that exist, in the order of their
// paths, each once; unlock releases them all.
func lockDirs(dirs ...string) (unlock func(), err error) {
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	var unlocks []func()
	unlock = func() {
		for _, u := range slices.Backward(unlocks) {
			u()
		}
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			continue // made, and locked, when a build needs it
		}
		u, err := lockDir(d)
		if err != nil {
			unlock()
			return nil, fmt.Errorf("locking %s: %v", d, err)
		}
		unlocks = append(unlocks, u)
	}
	return unlock, nil
}

// buildPrefix is how the names of the folders a build writes beside out
// begin: the new tree, and the previous one while it is removed.
func buildPrefix(out string) string { return "." + filepath.Base(out) + ".build-" }

// removeStale removes the build folders that builds killed before they
// finished left beside out. The caller holds the folder's lock, so no
// other build is writing one.
func removeStale(out string) {
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(out), buildPrefix(out)+"*"))
	for _, d := range stale {
		os.RemoveAll(d)
	}
}

// checkOutDir refuses output folders a build must not replace: one holding
// the manifest or the keys folder, or an existing folder that is not a
// previous build. All three paths are real (realPath).
func checkOutDir(out, manifestDir, keysDir string, known bool) error {
	for _, in := range []struct{ dir, what string }{{manifestDir, "the manifest"}, {keysDir, "the keys folder (site.keys)"}} {
		if regular.Within(in.dir, out) {
			return fmt.Errorf("output folder %s holds %s, which a build would delete; choose a folder of its own (site.output)", out, in.what)
		}
	}
	if known {
		// The state file says a build of ours made this very folder.
		return nil
	}
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	foreign := ""
	if _, err := os.Stat(filepath.Join(out, layout.WellKnown, layout.JWKSFile)); err != nil {
		foreign = "no " + layout.WellKnown + "/" + layout.JWKSFile
	}
	for _, e := range entries {
		if !slices.Contains(TopLevel, e.Name()) && !validSlug(e.Name()) {
			foreign = "it holds " + e.Name() + ", which a build does not write"
			break
		}
	}
	if foreign != "" {
		return fmt.Errorf("output folder %s exists and is not an agentcards site (%s); move it away or choose another folder (site.output): a build replaces the whole folder", out, foreign)
	}
	return nil
}

// configuredOutConflict is checkOutDir for the output folder out that the
// manifest names, which a preview does not write: the refusal a build of
// the same manifest would meet.
func configuredOutConflict(out, manifestDir, keysDir string) error {
	realOut, err := realPath(out)
	if err != nil {
		return err
	}
	state := loadState(statePath(realOut))
	return checkOutDir(realOut, manifestDir, keysDir, state.Live != nil && state.Live.matches(realOut))
}
