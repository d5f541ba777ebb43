// Package site writes the output tree: signed cards for every agent, the
// JWKS, the AI catalog and an index page. A build is atomic (written beside
// the output folder and swapped in at the end) and reproducible.
package site

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
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
	Manifest *manifest.Manifest
	// OutDir is the output folder; it is replaced as a whole.
	OutDir string
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
}

// Report says what a build did.
type Report struct {
	Agents int
	Files  int
	// Notes are things the user should know, one line each.
	Notes []string
	// Projected lists, per agent id, the fields the A2A SDKs erase before
	// verifying, for cards that therefore carry SDK-projection signatures.
	Projected map[string][]string
}

// JWKSURL is the absolute URL of the site's JWKS, the jku of every signature.
func JWKSURL(m *manifest.Manifest) string {
	return m.Site.BaseURL + "/" + WellKnown + "/" + JWKSFile
}

// Build writes the whole site into a new folder beside opts.OutDir and
// swaps it in. On any error the previous output is left as it was.
func Build(opts Options) (*Report, error) {
	m := opts.Manifest
	if len(opts.Signers) == 0 {
		return nil, errors.New("no signing key")
	}
	for _, s := range opts.Signers {
		if opts.Keys.Find(s.KID) == nil {
			return nil, fmt.Errorf("signing key %s has no public half in the keys folder (%s): add it with `agentcards keygen`, or commit its public JWK there", s.KID, m.KeysDir())
		}
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
	if err := checkOutDir(realOut, realManifest, realKeys, pageSlugs(m)); err != nil {
		return nil, err
	}
	out = realOut
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	// One build at a time beside an output folder; while this one holds
	// the lock, any build folder there is a leftover of a build that died.
	unlock, err := lockDir(filepath.Dir(out))
	if err != nil {
		return nil, fmt.Errorf("locking %s: %v", filepath.Dir(out), err)
	}
	defer unlock()
	removeStale(out)
	tmp, err := os.MkdirTemp(filepath.Dir(out), buildPrefix(out))
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	rep, err := write(tmp, opts)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := swap(tmp, out); err != nil {
		var ce *CleanupError
		if errors.As(err, &ce) {
			rep.Notes = append(rep.Notes, ce.Error())
			return rep, nil
		}
		os.RemoveAll(tmp)
		return nil, err
	}
	return rep, nil
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
func checkOutDir(out, manifestDir, keysDir string, pages []string) error {
	for _, in := range []struct{ dir, what string }{{manifestDir, "the manifest"}, {keysDir, "the keys folder (site.keys)"}} {
		if rel, err := filepath.Rel(out, in.dir); err == nil && (rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
			return fmt.Errorf("output folder %s holds %s, which a build would delete; choose a folder of its own (site.output)", out, in.what)
		}
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
		if !slices.Contains(TopLevel, e.Name()) && !slices.Contains(pages, e.Name()) {
			foreign = "it holds " + e.Name() + ", which a build does not write"
			break
		}
	}
	if foreign != "" {
		return fmt.Errorf("output folder %s exists and is not an agentcards site (%s); move it away or choose another folder (site.output): a build replaces the whole folder", out, foreign)
	}
	return nil
}

// TopLevel is every name a build writes at the top of the output folder;
// a folder holding anything else is not replaced.
var TopLevel = []string{WellKnown, "agents", "index.html", ".nojekyll", HeadersFile, NotFoundFile, RobotsFile, SitemapFile, SearchIndexFile, "style.css", "search.js"}

// pageSlugs lists the extra pages in site/ (each becomes a top-level
// folder).
func pageSlugs(m *manifest.Manifest) []string {
	files, _ := filepath.Glob(filepath.Join(m.Dir, PagesDir, "*.md"))
	var out []string
	for _, f := range files {
		if slug := strings.TrimSuffix(filepath.Base(f), ".md"); slug != "index" {
			out = append(out, slug)
		}
	}
	return out
}

// swap replaces out with tmp: the old tree is moved aside, the new one
// moved in, and the old one removed; if the second move fails the old tree
// is put back.
func swap(tmp, out string) error {
	old := ""
	if _, err := os.Lstat(out); err == nil {
		old = tmp + ".old"
		if err := os.Rename(out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		if old != "" {
			if rerr := os.Rename(old, out); rerr != nil {
				return fmt.Errorf("%v; and restoring the previous output failed: %v (it is at %s)", err, rerr, old)
			}
		}
		return err
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			// The new site is in place; only the cleanup failed.
			return &CleanupError{Path: old, Err: err}
		}
	}
	return nil
}

// CleanupError says the new site is in place but the previous one, moved
// aside, could not be removed.
type CleanupError struct {
	Path string
	Err  error
}

func (e *CleanupError) Error() string {
	return fmt.Sprintf("the new site is in place, but the previous one could not be removed from %s: %v", e.Path, e.Err)
}

// agentOutput is what building one agent produced.
type agentOutput struct {
	cardJSON, legacyJSON []byte
	notes                []string
	projected            []string
	err                  error
}

func write(root string, opts Options) (*Report, error) {
	m := opts.Manifest
	if opts.Secrets == nil {
		s, err := secret.NewScanner(nil)
		if err != nil {
			return nil, err
		}
		opts.Secrets = s
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if err := os.Mkdir(filepath.Join(root, "agents"), 0o755); err != nil {
		return nil, err
	}
	results := make([]agentOutput, len(m.Agents))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(m.Agents)) {
		wg.Go(func() {
			for i := range jobs {
				results[i] = buildAgent(root, m, &m.Agents[i], opts.Signers, opts.Secrets)
			}
		})
	}
	for i := range m.Agents {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	rep := &Report{Agents: len(m.Agents), Files: 2 * len(m.Agents), Projected: map[string][]string{}}
	var def *agentOutput
	for i := range results {
		r := &results[i]
		if r.err != nil {
			return nil, fmt.Errorf("agent %q: %w", m.Agents[i].ID, r.err)
		}
		rep.Notes = append(rep.Notes, r.notes...)
		if len(r.projected) > 0 {
			rep.Projected[m.Agents[i].ID] = r.projected
		}
		if m.Agents[i].ID == m.DefaultAgentID() {
			def = r
		}
	}
	wk := filepath.Join(root, WellKnown)
	if err := os.MkdirAll(wk, 0o755); err != nil {
		return nil, err
	}
	jwks, err := opts.Keys.JSON()
	if err != nil {
		return nil, err
	}
	catalog, err := Catalog(m)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		filepath.Join(wk, CardFile):    def.cardJSON,
		filepath.Join(wk, LegacyFile):  def.legacyJSON,
		filepath.Join(wk, JWKSFile):    jwks,
		filepath.Join(wk, CatalogFile): catalog,
		// GitHub Pages deployed from a branch runs Jekyll, which drops
		// dot-folders such as .well-known unless this file exists.
		filepath.Join(root, ".nojekyll"): {},
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeOutput(opts.Secrets, root, name, files[name]); err != nil {
			return nil, err
		}
	}
	rep.Files += len(files)
	notes, written, err := writeDocs(root, opts, rep.Projected)
	if err != nil {
		return nil, err
	}
	rep.Notes = append(rep.Notes, notes...)
	rep.Files += written
	return rep, nil
}

// buildAgent writes agents/<id>/.well-known/{agent-card.json,agent.json}.
func buildAgent(root string, m *manifest.Manifest, a *manifest.Agent, signers []*sign.Signer, secrets *secret.Scanner) agentOutput {
	var out agentOutput
	v1 := card.NewV1(m, a)
	unsigned, err := card.Marshal(v1)
	if err != nil {
		return agentOutput{err: err}
	}
	project := m.Site.ProjectionSignatures()
	v1.Signatures, out.projected, err = signatures(unsigned, signers, project)
	if err != nil {
		return agentOutput{err: err}
	}
	if out.cardJSON, err = card.Marshal(v1); err != nil {
		return agentOutput{err: err}
	}

	v03, notes := card.NewV03(m, a)
	out.notes = notes
	unsigned, err = card.Marshal(v03)
	if err != nil {
		return agentOutput{err: err}
	}
	if v03.Signatures, _, err = signatures(unsigned, signers, project); err != nil {
		return agentOutput{err: err}
	}
	if out.legacyJSON, err = card.Marshal(v03); err != nil {
		return agentOutput{err: err}
	}

	// agents/ exists already: two plain mkdirs are cheaper than MkdirAll.
	dir := filepath.Join(root, "agents", a.ID)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return agentOutput{err: err}
	}
	dir = filepath.Join(dir, WellKnown)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return agentOutput{err: err}
	}
	if err := writeOutput(secrets, root, filepath.Join(dir, CardFile), out.cardJSON); err != nil {
		return agentOutput{err: err}
	}
	if err := writeOutput(secrets, root, filepath.Join(dir, LegacyFile), out.legacyJSON); err != nil {
		return agentOutput{err: err}
	}
	return out
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

// signatures signs an unsigned card with every signer. When the A2A SDKs'
// canonical form of the card differs from its strict JCS form (a security
// requirement without scopes), and project is set, each signer also signs
// the SDK projection, after all the strict signatures; projected lists what
// that form leaves out either way.
func signatures(unsigned []byte, signers []*sign.Signer, project bool) (sigs []card.Signature, projected []string, err error) {
	projectedDoc, omitted, err := card.SDKProjection(unsigned)
	removed := card.Paths(omitted)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range signers {
		sig, err := s.Sign(unsigned)
		if err != nil {
			return nil, nil, err
		}
		sigs = append(sigs, sig)
	}
	if len(removed) == 0 || !project {
		return sigs, removed, nil
	}
	for _, s := range signers {
		sig, err := s.SignProjection(projectedDoc)
		if err != nil {
			return nil, nil, err
		}
		sigs = append(sigs, sig)
	}
	return sigs, removed, nil
}

// skillTags is every tag of an agent's skills, first use first, once each.
func skillTags(a *manifest.Agent) []string {
	var tags []string
	seen := map[string]bool{}
	for _, s := range a.Skills {
		for _, t := range s.Tags {
			if !seen[t] {
				seen[t] = true
				tags = append(tags, t)
			}
		}
	}
	return tags
}
