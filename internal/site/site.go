package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
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
	// error it returns fails the build, and nothing is published. doc is
	// unsigned as card.Decode(unsigned, card.Strict) returns it, which the
	// build decoded to sign the card and still reads: Inspect must not
	// change it.
	Inspect func(a *manifest.Agent, unsigned []byte, doc map[string]any) error
	// InspectUpstream, when set, is shown what each remote agent the
	// build signs republishes of its owner's beside its own, byte for
	// byte: the owner's card (layout.UpstreamCardFile), with Inspect's
	// rules, and the owner's JWKS (layout.UpstreamJWKSFile; empty when
	// the snapshot has none): called from many goroutines at once; an
	// error fails the build, and nothing is published.
	InspectUpstream func(a *manifest.Agent, card, jwks []byte) error
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
	return layout.URL(m.Site.BaseURL, layout.JWKS)
}

// Build brings the site up to date: it writes the standby tree beside
// opts.OutDir (only what changed since that tree was last built) and
// exchanges it with the output. On any error the previous output is left
// as it was.
func Build(opts Options) (*Report, error) {
	// The program's key, a hash of its whole file, is needed once the
	// build prepares: work it out meanwhile.
	go programKey()
	opts, src, err := checkOptions(opts)
	if err != nil {
		return nil, err
	}
	p, err := resolvePaths(opts, src.Head)
	if err != nil {
		return nil, err
	}
	// One build at a time beside the output and the private output (and
	// the previous private output, which it may remove); the locks are
	// taken in one order, so that two builds that name each other's
	// folders never wait for each other.
	prevPriv := loadPrivateRecord(statePath(p.out))
	if prevPriv == nil && p.remember {
		// An output folder with no record (site.output moved too): the
		// manifest's last build may have written one elsewhere.
		prevPriv = loadLastPrivate(p.manifestDir, p.manifest)
	}
	unlock, err := lockDirs(append([]string{filepath.Dir(p.out), filepath.Dir(p.newDir)}, prevPriv.lockDir()...)...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s, err := openStandby(p, prevPriv)
	if err != nil {
		return nil, err
	}
	b := &builder{opts: opts, src: src, m: src.Head, tree: s.newTree(opts.Secrets), live: s.liveTree()}
	rep, private, err := b.run()
	if err != nil {
		// The standby holds what was written so far, recorded exactly.
		s.saveUnfinished()
		return nil, err
	}
	if err := s.publish(rep, private, opts); err != nil {
		return nil, err
	}
	return rep, nil
}

// checkOptions checks what a build is given, and fills in the defaults:
// the manifest to build, and a scanner for generic key material.
func checkOptions(opts Options) (Options, *manifest.Source, error) {
	src := opts.Source
	if src == nil {
		src = opts.Manifest.Source()
	}
	m := src.Head
	if problems, fatal := src.Problems(); fatal {
		return opts, nil, problems
	}
	if len(opts.Signers) == 0 {
		return opts, nil, errors.New("no signing key")
	}
	for _, s := range opts.Signers {
		if opts.Keys.Find(s.KID) == nil {
			return opts, nil, fmt.Errorf("signing key %s has no public half in the keys folder (%s): add it with `agentcards keygen`, or commit its public JWK there", s.KID, m.KeysDir())
		}
	}
	if opts.Secrets == nil {
		s, err := secret.NewScanner(nil)
		if err != nil {
			return opts, nil, err
		}
		opts.Secrets = s
	}
	return opts, src, nil
}

// buildPaths are the real paths (realPath) a build works with, which the
// output folders must keep clear of, and the manifest's file.
type buildPaths struct {
	newDir      string // the private output
	out         string // the output folder
	manifestDir string
	keysDir     string
	manifest    string // the manifest's file, for ownerLine
	// remember says the build keeps, beside the manifest, the record of
	// the private output it swaps in (lastPrivatePath): not a preview's,
	// which writes elsewhere.
	remember bool
}

// resolvePaths makes the folders of a build real paths, and the output
// folder's parent. A preview's output folder is not the one the manifest
// names, which is refused where a build would refuse it.
func resolvePaths(opts Options, m *manifest.Manifest) (buildPaths, error) {
	out, err := filepath.Abs(opts.OutDir)
	if err != nil {
		return buildPaths{}, err
	}
	if st, err := os.Lstat(out); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return buildPaths{}, fmt.Errorf("output folder %s is a symbolic link: a build replaces the folder itself, so give the real path (site.output or -out)", out)
	}
	// Compare real paths: a keys folder or manifest reached through a link
	// must still never be inside what the build replaces.
	p := buildPaths{manifest: m.Path, remember: opts.ConfiguredOutDir == ""}
	if p.out, err = realPath(out); err != nil {
		return buildPaths{}, err
	}
	if p.manifestDir, err = realPath(m.Dir); err != nil {
		return buildPaths{}, err
	}
	if p.keysDir, err = realPath(m.KeysDir()); err != nil {
		return buildPaths{}, err
	}
	if opts.ConfiguredOutDir != "" {
		// A preview: the output folder the manifest names is held to the
		// rules a build holds it to, though the preview writes elsewhere.
		if err := configuredOutConflict(opts.ConfiguredOutDir, p.manifestDir, p.keysDir); err != nil {
			return buildPaths{}, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(p.out), 0o755); err != nil {
		return buildPaths{}, err
	}
	privDir := opts.PrivateDir
	if privDir == "" {
		privDir = m.PrivateDir()
	}
	if p.newDir, err = realPath(privDir); err != nil {
		return buildPaths{}, err
	}
	return p, nil
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

// TopLevel is every name a build writes at the top of the output folder
// (the templates' assets among them); a folder holding anything else is
// not replaced.
var TopLevel = append([]string{layout.WellKnown, layout.AgentsFolder, layout.IndexFile, layout.NoJekyll, layout.HeadersFile, layout.NotFoundFile, layout.RobotsFile, layout.SitemapFile, layout.SumsFile, layout.PagesFolder, layout.SearchFolder, layout.CatalogFolder, layout.SitemapsFolder, layout.SearchIndexFile, layout.KeysFolder, layout.CatalogPageFolder}, templates.Assets...)

// LeakError is an output file that would publish private key material.
type LeakError struct {
	File  string // relative to the output folder
	Found secret.Finding
}

// Error names the file, what it would publish, and what to do.
func (e *LeakError) Error() string {
	return fmt.Sprintf("%s would publish %s: the build stopped and published nothing; remove it from where that file comes from (agents.toml, site/, templates/), and if it is a real key, treat it as leaked and rotate it", e.File, e.Found)
}
