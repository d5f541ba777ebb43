// Package build runs one build of a manifest, the same way for `agentcards
// build` and for every rebuild of `agentcards serve`: the signing keys, a
// scan of every output file for them (in any encoding) and for the
// secret's own text, the site, and the lint of every card signed. A
// preview is checked as a published site is; only where it is written and
// the origin its cards name differ.
package build

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/lintcache"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/site"
)

// Options say what to build.
type Options struct {
	// Source is the manifest, opened; Run reads its problems first.
	Source *manifest.Source
	// Keys are the private keys given (-key, $AGENTCARDS_SIGNING_KEY), and
	// Secret the text of $AGENTCARDS_SIGNING_KEY itself, which no output
	// file may hold either.
	Keys   []keyring.Private
	Secret string
	// AllowDev lets a development key sign when no key is given (refused
	// under CI: keyring.ErrDevKeyRefused).
	AllowDev bool
	// BaseURL, when set, replaces site.baseUrl: the preview's own origin.
	BaseURL string
	// OutDir and PrivateDir, when set, replace the manifest's outputs.
	OutDir, PrivateDir string
	// LintCache, when set, keeps the lint findings of the cards signed
	// for the next build; a build that succeeds saves it.
	LintCache *lintcache.Cache
}

// Result is what a build did.
type Result struct {
	// Ring is the keys it signed with and published, with their notes and
	// warnings.
	Ring   *keyring.Ring
	Report *site.Report
	// Lint holds the lint findings of the cards it signed.
	Lint *Lint
	// projection is site.sdkProjectionSignatures.
	projection bool
}

// Run builds. A manifest with problems returns them (manifest.Errors) and
// writes nothing; so does a build that fails, leaving the previous output
// as it was. Ring is set as soon as the keys are read, so that a caller
// can say which keys a failed build would have used.
func Run(opts Options) (*Result, error) {
	src := opts.Source
	if problems, _ := src.Problems(); len(problems) > 0 {
		// Check every agent too, so that every problem is listed at once.
		return nil, src.Check()
	}
	m := src.Head
	var configuredOut, configuredPriv string
	if opts.PrivateDir != "" {
		configuredOut, configuredPriv = m.OutputDir(), m.PrivateDir()
	}
	if opts.BaseURL != "" {
		m.Site.BaseURL = opts.BaseURL
	}
	if opts.OutDir != "" {
		m.Site.Output = opts.OutDir
	}
	if _, err := os.Stat(filepath.Join(m.Dir, sign.DevKeyDir, sign.DevKeyFile)); len(opts.Keys) == 0 && errors.Is(err, os.ErrNotExist) && opts.AllowDev {
		// A first build makes the development key: not for a manifest
		// that cannot build, which must leave nothing behind.
		if problems := src.Check(); problems != nil {
			return nil, problems
		}
	}
	ring, err := keyring.Open(keyring.Options{KeysDir: m.KeysDir(), KeysNamed: m.KeysNamed(), DevDir: m.Dir, Private: opts.Keys, JKU: site.JWKSURL(m), AllowDev: opts.AllowDev})
	if err != nil {
		return nil, err
	}
	res := &Result{Ring: ring, Lint: &Lint{Cache: opts.LintCache}, projection: m.Site.ProjectionSignatures()}
	// Every output file is scanned for the keys this build holds, in any
	// encoding, and for the secret's own text.
	var texts []string
	if opts.Secret != "" {
		texts = append(texts, opts.Secret)
	}
	secrets, err := secret.NewScanner(ring.Private, texts...)
	if err != nil {
		return res, err
	}
	res.Report, err = site.Build(site.Options{Source: src, OutDir: m.OutputDir(), PrivateDir: opts.PrivateDir,
		ConfiguredOutDir: configuredOut, ConfiguredPrivateDir: configuredPriv,
		Keys: ring.Keys, Signers: ring.Signers, Secrets: secrets, Inspect: res.Lint.Inspect, InspectUpstream: res.Lint.Upstream})
	if err == nil {
		// A cache that cannot be written only makes the next build
		// lint every card again.
		_ = opts.LintCache.Save()
	}
	return res, err
}
