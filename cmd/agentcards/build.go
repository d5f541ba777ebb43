package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/site"
	"github.com/agentcards/agentcards/internal/terminal"
)

func runBuild(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("build", stderr)
	manifestPath := fs.String("manifest", "agents.toml", "the manifest to build")
	outDir := fs.String("out", "", "output folder (default: site.output from the manifest, else public)")
	var keyFiles multiFlag
	fs.Var(&keyFiles, "key", "private signing key PEM `file` (repeatable; also $"+sign.EnvSigningKey+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if getenv("GOMEMLIMIT") == "" {
		// A build's live memory is small and flat (one group of agents at a
		// time); keep the collector from letting the heap drift far above
		// it on large sites.
		debug.SetMemoryLimit(buildMemoryLimit)
		if getenv("GOGC") == "" {
			// Under that limit, collect less often than the default: the
			// live heap is a few tens of MiB, and the limit still bounds
			// the peak.
			debug.SetGCPercent(buildGCPercent)
		}
	}

	src, err := manifest.Open(*manifestPath)
	if err != nil {
		if problems := manifestProblems(err, *manifestPath, stderr); problems != nil {
			return problems
		}
		return fmt.Errorf("%v (run it where agents.toml is, or pass -manifest)", err)
	}
	defer src.Close()
	if problems, _ := src.Problems(); len(problems) > 0 {
		// Check every agent too, so that every problem is listed at once.
		return manifestProblems(src.Check(), *manifestPath, stderr)
	}
	m := src.Head
	privs, err := keyring.Read(keyFiles, getenv(sign.EnvSigningKey))
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(m.Dir, sign.DevKeyDir, sign.DevKeyFile)); len(privs) == 0 && errors.Is(err, os.ErrNotExist) && !isCI(getenv) {
		// A first build makes the development key: not for a manifest
		// that cannot build, which must leave nothing behind.
		if problems := src.Check(); problems != nil {
			return manifestProblems(problems, *manifestPath, stderr)
		}
	}
	ring, err := keyring.Open(keyring.Options{KeysDir: m.KeysDir(), KeysNamed: m.KeysNamed(), DevDir: m.Dir, Private: privs, JKU: site.JWKSURL(m), AllowDev: !isCI(getenv)})
	if errors.Is(err, keyring.ErrDevKeyRefused) {
		return fmt.Errorf("no signing key, and CI=%s: refusing to sign with a development key. Give the key through $%s (a secret holding the PEM) or -key FILE; see README, \"Signing keys\"", getenv("CI"), sign.EnvSigningKey)
	}
	if err != nil {
		return err
	}
	warnDevKey(stderr, ring)
	if u, err := url.Parse(m.Site.BaseURL); err == nil && strings.Trim(u.Path, "/") != "" {
		fmt.Fprintf(stderr, "warning: site.baseUrl %s has a path: well-known URIs exist only at an origin's root (RFC 8615), so A2A clients asking %s://%s/.well-known/agent-card.json will not find these cards. A GitHub project page (owner.github.io/repo/) cannot serve them; use a custom domain (README, \"Publishing to GitHub Pages\").\n", m.Site.BaseURL, u.Scheme, u.Host)
	}
	for _, n := range ring.Notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	for _, w := range ring.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	keys, signers := ring.Keys, ring.Signers

	if *outDir != "" {
		m.Site.Output = *outDir
		if !filepath.IsAbs(*outDir) {
			// -out is relative to where the command runs, not to the manifest.
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			m.Site.Output = filepath.Join(wd, *outDir)
		}
	}
	// Every output file is scanned for the keys this build holds, in any
	// encoding, and for the secret's own text.
	secrets, err := secret.NewScanner(ring.Private, getenv(sign.EnvSigningKey))
	if err != nil {
		return err
	}
	linted := &buildLint{}
	rep, err := site.Build(site.Options{Source: src, OutDir: m.OutputDir(), Keys: keys, Signers: signers, Secrets: secrets, Inspect: linted.inspect})
	if problems := manifestProblems(err, *manifestPath, stderr); problems != nil {
		return problems
	}
	if err != nil {
		return fmt.Errorf("%v\nthe previous output (if any) was left untouched", err)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(stderr, "note: %s\n", terminal.Escape(n))
	}
	if len(rep.Projected) > 0 {
		ids := make([]string, 0, len(rep.Projected))
		for id := range rep.Projected {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		var shown []string
		for i, id := range ids {
			if i == 5 {
				shown = append(shown, fmt.Sprintf("and %d more", len(ids)-5))
				break
			}
			shown = append(shown, id+": "+terminal.Escape(strings.Join(rep.Projected[id], ", ")))
		}
		fmt.Fprintf(stderr, "note: %d agent(s) have security requirements without scopes, which the A2A SDKs erase before they verify (%s).\n",
			len(ids), strings.Join(shown, "; "))
		if m.Site.ProjectionSignatures() {
			fmt.Fprintf(stderr, "note: each key signed those cards twice: over the strict RFC 8785 form, and over the SDKs' form, which does not cover those fields (README, \"Scope-less security requirements\").\n")
		} else {
			fmt.Fprintf(stderr, "WARNING: site.sdkProjectionSignatures is false, so those cards carry strict signatures only and will NOT verify with the A2A SDKs.\n")
		}
	}
	var kids []string
	for _, s := range signers {
		kids = append(kids, s.KID+" ("+s.Alg+")")
	}
	servers := ""
	if n := len(m.MCPServers); n > 0 {
		servers = fmt.Sprintf(" and %d MCP server(s)", n)
	}
	signed := "signed by " + strings.Join(kids, ", ")
	if rep.Agents == 0 {
		signed = "no agent card to sign (JWKS: " + strings.Join(kids, ", ") + ")"
	}
	fmt.Fprintf(stdout, "built %s: %s%s, %d files, %s\n", terminal.Escape(m.OutputDir()), plural(rep.Agents, "agent"), servers, rep.Files, signed)
	linted.print(stderr)
	if rep.Extended > 0 {
		fmt.Fprintf(stdout, "built %s: %s, for the agents' own servers to return from GetExtendedAgentCard; never publish this folder (README, \"Extended cards\")\n", terminal.Escape(rep.PrivateDir), plural(rep.Extended, "extended card"))
	}
	if rep.RemovedPrivate != "" {
		fmt.Fprintf(stdout, "removed %s: the private output an earlier build wrote (site.privateOutput changed)\n", terminal.Escape(rep.RemovedPrivate))
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", terminal.Escape(w))
	}
	return nil
}

// buildMemoryLimit is the soft memory limit a build runs under unless
// $GOMEMLIMIT sets one.
const buildMemoryLimit = 192 << 20

// buildGCPercent is the collector's target a build runs with unless $GOGC
// sets one (the default is 100).
const buildGCPercent = 400

// manifestProblems prints the diagnostics err carries, one per line, and
// returns the error that ends the command; nil when err carries none.
func manifestProblems(err error, path string, stderr io.Writer) error {
	var errs manifest.Errors
	if !errors.As(err, &errs) {
		return nil
	}
	for _, d := range errs {
		fmt.Fprintln(stderr, terminal.Escape(d.String()))
	}
	return fmt.Errorf("%s in %s; nothing was written", plural(len(errs), "problem"), path)
}

// isCI reports whether the build runs under CI, where the development key
// is refused.
func isCI(getenv env) bool {
	v := strings.ToLower(getenv("CI"))
	return v != "" && v != "false" && v != "0"
}

// warnDevKey says loudly that a development key signs.
func warnDevKey(stderr io.Writer, ring *keyring.Ring) {
	if ring.DevKey == "" {
		return
	}
	verb := "using"
	if ring.DevCreated {
		verb = "created"
	}
	fmt.Fprintf(stderr, "WARNING: no signing key configured: %s the DEVELOPMENT key %s (kid %s).\n"+
		"WARNING: its public half is added to this build's jwks.json. Do not publish this site;\n"+
		"WARNING: make a real key with `agentcards keygen` and sign with $%s or -key FILE instead (README, \"Signing keys\").\n", verb, ring.DevKey, ring.Signers[0].KID, sign.EnvSigningKey)
}

// buildLint counts the lint findings of the cards a build signs, and
// keeps only the ones it prints: a large site's findings are not held
// until the build ends.
type buildLint struct {
	mu          sync.Mutex
	errs, warns int
	shown       int           // findings not silenced
	first       []lintFinding // the first maxLintLines of them, by agent id then in card order
}

// lintFinding is one finding of an agent's card, the index-th of its list.
type lintFinding struct {
	agent string
	index int
	lint.Finding
}

// inspect lints one agent's public card (site.Options.Inspect).
func (l *buildLint) inspect(a *manifest.Agent, unsigned []byte) {
	findings, err := lintUnsigned(unsigned, a.Silenced())
	if err != nil {
		return
	}
	l.add(a.ID, findings)
}

// add counts the findings of agent id's card.
func (l *buildLint) add(id string, findings []lint.Finding) {
	if len(findings) == 0 {
		return
	}
	e, w := lint.Count(findings)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs, l.warns = l.errs+e, l.warns+w
	for i, f := range findings {
		if f.Silenced != "" {
			continue
		}
		l.shown++
		l.keep(lintFinding{id, i, f})
	}
}

// keep adds f to the findings printed if it is among the first
// maxLintLines (with mu held).
func (l *buildLint) keep(f lintFinding) {
	order := func(a, b lintFinding) int {
		if c := strings.Compare(a.agent, b.agent); c != 0 {
			return c
		}
		return a.index - b.index
	}
	if len(l.first) == maxLintLines && order(f, l.first[len(l.first)-1]) > 0 {
		return
	}
	f.agent = strings.Clone(f.agent)
	i, _ := slices.BinarySearchFunc(l.first, f, order)
	l.first = slices.Insert(l.first, i, f)
	if len(l.first) > maxLintLines {
		l.first = l.first[:maxLintLines]
	}
}

// maxLintLines is how many findings a build prints; `agentcards lint`
// lists them all.
const maxLintLines = 20

// print writes the findings as warnings: lint never fails a build.
func (l *buildLint) print(w io.Writer) {
	for _, f := range l.first {
		fmt.Fprintf(w, "warning: lint: agent %s: %s\n", terminal.Escape(f.agent), formatFinding(f.Finding))
	}
	if l.shown > maxLintLines {
		fmt.Fprintf(w, "warning: lint: and %d more\n", l.shown-maxLintLines)
	}
	if l.errs+l.warns > 0 {
		fmt.Fprintf(w, "warning: lint found %s and %s in the cards this build signed; `agentcards lint` lists them with their fixes (README, \"Linting\")\n", plural(l.errs, "error"), plural(l.warns, "warning"))
	}
}
