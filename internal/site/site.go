// Package site writes the output tree: signed cards for every agent, the
// JWKS, the AI catalog and an index page. A build is atomic (written beside
// the output folder and swapped in at the end) and reproducible.
package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
)

// Paths inside the output tree.
const (
	WellKnown   = ".well-known"
	CardFile    = "agent-card.json"
	LegacyFile  = "agent.json"
	JWKSFile    = "jwks.json"
	CatalogFile = "ai-catalog.json"
)

// Options is what a build needs.
type Options struct {
	// Source is the manifest to build, read agent by agent; when nil,
	// Manifest (loaded whole) is built.
	Source   *manifest.Source
	Manifest *manifest.Manifest
	// OutDir is the output folder; it is replaced as a whole.
	OutDir string
	// PrivateDir is the folder of extended cards, replaced as a whole too
	// (default: the manifest's site.privateOutput).
	PrivateDir string
	// ConfiguredOutDir and ConfiguredPrivateDir, when a build writes
	// elsewhere than the manifest says (a preview), are the folders the
	// manifest names: a site with extended cards is refused when they
	// conflict, as a build into them would be.
	ConfiguredOutDir, ConfiguredPrivateDir string
	// Keys is the published key set; every signer's key must be in it.
	Keys *sign.KeySet
	// Signers sign every card, each adding one signature (two where a card
	// needs an SDK-projection signature too).
	Signers []*sign.Signer
	// Workers is how many agents are built at once (default: GOMAXPROCS).
	Workers int
	// Secrets scans every output file before it is written: a file
	// holding private key material (generic, or the bytes of the keys this
	// build holds) fails the build and nothing is published. Nil scans for
	// generic key material only.
	Secrets *secret.Scanner
	// Inspect, when set, is shown each agent's public A2A v1.0 card that
	// the build signs, as encoded before signing: agents an incremental
	// build keeps unchanged are not shown again. It is called from many
	// goroutines at once. The build's lint warnings come from it; an
	// error it returns fails the build, and nothing is published.
	Inspect func(a *manifest.Agent, unsigned []byte) error
}

// Report says what a build did.
type Report struct {
	Agents int
	Files  int
	// Extended is how many extended cards (each in two shapes) were
	// written to PrivateDir.
	Extended   int
	PrivateDir string
	// LeakScanned is how many files of the public tree the leak check
	// read: all of them, or only those the build wrote when the tree was
	// known to be free of the same private text.
	LeakScanned int
	// RemovedPrivate is the private output an earlier build wrote and
	// this one removed, site.privateOutput having changed since; "" when
	// none.
	RemovedPrivate string
	// Notes are things the user should know, one line each.
	Notes []string
	// Warnings are things the user should act on, one line each.
	Warnings []string
	// Projected lists, per agent id, the fields the A2A SDKs erase before
	// verifying, for cards that therefore carry SDK-projection signatures.
	Projected map[string][]string
}

// JWKSURL is the absolute URL of the site's JWKS, the jku of every signature.
func JWKSURL(m *manifest.Manifest) string {
	return m.Site.BaseURL + "/" + WellKnown + "/" + JWKSFile
}

// Build brings the site up to date: it writes the standby tree beside
// opts.OutDir (only what changed since that tree was last built) and
// exchanges it with the output. On any error the previous output is left
// as it was.
func Build(opts Options) (*Report, error) {
	src := opts.Source
	if src == nil {
		src = opts.Manifest.Source()
	}
	m := src.Head
	if problems, fatal := src.Problems(); fatal {
		return nil, problems
	}
	if len(opts.Signers) == 0 {
		return nil, errors.New("no signing key")
	}
	for _, s := range opts.Signers {
		if opts.Keys.Find(s.KID) == nil {
			return nil, fmt.Errorf("signing key %s has no public half in the keys folder (%s): add it with `agentcards keygen`, or commit its public JWK there", s.KID, m.KeysDir())
		}
	}
	if opts.Secrets == nil {
		s, err := secret.NewScanner(nil)
		if err != nil {
			return nil, err
		}
		opts.Secrets = s
	}
	out, err := filepath.Abs(opts.OutDir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Lstat(out); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("output folder %s is a symbolic link: a build replaces the folder itself, so give the real path (site.output or -out)", out)
	}
	// Compare real paths: a keys folder or manifest reached through a link
	// must still never be inside what the build replaces.
	realOut, err := realPath(out)
	if err != nil {
		return nil, err
	}
	realManifest, err := realPath(m.Dir)
	if err != nil {
		return nil, err
	}
	realKeys, err := realPath(m.KeysDir())
	if err != nil {
		return nil, err
	}
	if opts.ConfiguredOutDir != "" {
		// A preview: the output folder the manifest names is held to the
		// rules a build holds it to, though the preview writes elsewhere.
		if err := configuredOutConflict(opts.ConfiguredOutDir, realManifest, realKeys); err != nil {
			return nil, err
		}
	}
	out = realOut
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	// One build at a time beside an output folder; while this one holds
	// the lock, any build folder there is a leftover of a build that died.
	privDir := opts.PrivateDir
	if privDir == "" {
		privDir = m.PrivateDir()
	}
	realPriv, err := realPath(privDir)
	if err != nil {
		return nil, err
	}
	// One build at a time beside the output and the private output (and
	// the previous private output, which it may remove); the locks are
	// taken in one order, so that two builds that name each other's
	// folders never wait for each other.
	prevPriv := loadState(statePath(out)).Private
	unlock, err := lockDirs(append([]string{filepath.Dir(out), filepath.Dir(realPriv)}, prevPriv.lockDir()...)...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	removeStale(out)
	state := loadState(statePath(out))
	// The folder beside the previous private output is locked only if a
	// build that ran while this one waited did not change it.
	prevLocked := state.Private == nil || prevPriv != nil && state.Private.Path == prevPriv.Path
	liveKnown := state.Live != nil && state.Live.matches(out)
	if err := checkOutDir(realOut, realManifest, realKeys, liveKnown); err != nil {
		return nil, err
	}

	standby := standbyPath(out)
	if st, err := os.Lstat(standby); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder: it is where builds keep the previous tree; remove it", standby)
	}
	standbyState, fresh, err := prepareStandby(state, standby)
	if err != nil {
		return nil, err
	}
	// Until this build's leak check passes, no file of the tree is known
	// to be free of private text (it is about to change); what was known
	// holds for the files this build does not write.
	cleanBefore := standbyState.Clean
	standbyState.Clean = key{}
	var live *treeState
	if liveKnown {
		live = state.Live
	}
	// Until this build records what it wrote, the standby is unknown.
	// Every state saved before the new private output is in place keeps
	// the previous one's record.
	if err := (&buildState{Live: live, Private: state.Private}).save(statePath(out)); err != nil {
		return nil, err
	}
	b := &builder{opts: opts, src: src, m: m, tree: &tree{root: standby, fresh: fresh, secrets: opts.Secrets, cleanBefore: cleanBefore, st: standbyState}}
	if liveKnown {
		b.live = liveTree{dir: out, st: live}
	}
	rep, privFiles, err := b.run()
	if err != nil {
		// The standby holds what was written so far, recorded exactly.
		(&buildState{Live: live, Standby: standbyState, Private: state.Private}).save(statePath(out))
		return nil, err
	}
	private, err := openPrivate(realPriv, realOut, realManifest, realKeys, m.Path, privFiles != nil)
	if err == nil && privFiles != nil && opts.ConfiguredPrivateDir != "" {
		// A preview: the folders the manifest names are held to the
		// rules a build holds them to, though it writes elsewhere.
		err = configuredConflict(opts.ConfiguredPrivateDir, opts.ConfiguredOutDir, realManifest, realKeys)
	}
	if err == nil {
		err = private.prepare(privFiles, opts.Secrets)
	}
	if err != nil {
		(&buildState{Live: live, Standby: standbyState, Private: state.Private}).save(statePath(out))
		return nil, err
	}
	// The private output first: it can be put back if the public one
	// cannot be exchanged, so that the two always come from one build.
	if err := private.swap(); err != nil {
		private.discard()
		(&buildState{Live: live, Standby: standbyState, Private: state.Private}).save(statePath(out))
		return nil, fmt.Errorf("private output: %w", err)
	}
	if err := exchangeTrees(standby, out); err != nil {
		if uerr := private.undo(); uerr != nil {
			err = fmt.Errorf("%v; and putting the previous private output back failed: %v (it is at %s)", err, uerr, private.next)
		} else {
			private.discard()
		}
		(&buildState{Live: live, Standby: standbyState, Private: state.Private}).save(statePath(out))
		return nil, err
	}
	if err := private.finish(privFiles == nil); err != nil {
		rep.Notes = append(rep.Notes, "the previous private output could not be removed: "+err.Error())
	}
	if privFiles != nil {
		rep.PrivateDir = private.dir
	}
	// Before the state forgets it: a build stopped halfway through
	// removing it finishes the job next time.
	removed, warning := removeOldPrivate(state.Private, prevLocked, privatePaths{newDir: realPriv, out: realOut, manifestDir: realManifest, keysDir: realKeys, manifest: m.Path})
	rep.RemovedPrivate = removed
	if warning != "" {
		rep.Warnings = append(rep.Warnings, warning)
	}
	// The folders keep their identities: standbyState now describes out, and the
	// previous live tree (known or not) is the standby.
	next := &buildState{Live: standbyState, Standby: live, Private: recordPrivate(private.dir, privFiles != nil)}
	if err := next.save(statePath(out)); err != nil {
		rep.Notes = append(rep.Notes, "the build state could not be saved, so the next build starts from scratch: "+err.Error())
	}
	return rep, nil
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

// realPath is p made absolute with every symbolic link resolved; the part
// of p that does not exist yet is kept as it is.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return abs, nil
	}
	rp, err := realPath(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(abs)), nil
}

// checkOutDir refuses output folders a build must not replace: one holding
// the manifest or the keys folder, or an existing folder that is not a
// previous build. All three paths are real (realPath).
func checkOutDir(out, manifestDir, keysDir string, known bool) error {
	for _, in := range []struct{ dir, what string }{{manifestDir, "the manifest"}, {keysDir, "the keys folder (site.keys)"}} {
		if within(in.dir, out) {
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
	if _, err := os.Stat(filepath.Join(out, WellKnown, JWKSFile)); err != nil {
		foreign = "no " + WellKnown + "/" + JWKSFile
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

// TopLevel is every name a build writes at the top of the output folder
// (the templates' assets among them); a folder holding anything else is
// not replaced.
var TopLevel = append([]string{WellKnown, "agents", "index.html", ".nojekyll", HeadersFile, NotFoundFile, RobotsFile, SitemapFile, SumsFile, PagesFolder, SearchFolder, CatalogFolder, SitemapsFolder, "search-index.json"}, templates.Assets...)

// CleanupError says the new site is in place but the previous one, moved
// aside, could not be removed.
type CleanupError struct {
	Path string
	Err  error
}

func (e *CleanupError) Error() string {
	return fmt.Sprintf("the new site is in place, but the previous one could not be removed from %s: %v", e.Path, e.Err)
}

// writeOutput writes one file of the new tree under root, after scanning
// it for private key material: every byte the build publishes passes here.
func writeOutput(secrets *secret.Scanner, root, path string, data []byte) error {
	if f, found := secrets.Scan(path, data); found {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			rel = path
		}
		return &LeakError{File: filepath.ToSlash(rel), Found: f}
	}
	return os.WriteFile(path, data, 0o644)
}

// LeakError is an output file that would publish private key material.
type LeakError struct {
	File  string // relative to the output folder
	Found secret.Finding
}

func (e *LeakError) Error() string {
	return fmt.Sprintf("%s would publish %s: the build stopped and published nothing; remove it from where that file comes from (agents.toml, site/, templates/), and if it is a real key, treat it as leaked and rotate it", e.File, e.Found)
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
