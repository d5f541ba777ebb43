package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/agentcards/agentcards/internal/build"
	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/lintcache"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/terminal"
)

func runBuild(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("build", stderr)
	manifestPath := fs.String("manifest", "agents.toml", "the manifest to build")
	outDir := fs.String("out", "", "output folder (default: site.output from the manifest, else public)")
	var keyFiles multiFlag
	fs.Var(&keyFiles, "key", "private signing key PEM `file` (repeatable; also $"+sign.EnvSigningKey+"; default: the keys keygen left in .agentcards/, else the development key)")
	verbose := fs.Bool("v", false, "print every note, also those that ask nothing of you")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	build.TuneMemory(getenv)

	var cache <-chan *lintcache.Cache
	if !isCI(getenv) {
		// Under CI every build starts on a fresh machine: nothing to
		// keep, and nothing read that a runner did not write. Else the
		// cache (and the program's digest, its key) is read while the
		// manifest is; the manifest's folder is that of its path.
		opened := make(chan *lintcache.Cache, 1)
		go func() { opened <- lintcache.Open(filepath.Dir(*manifestPath), getenv) }()
		cache = opened
	}
	src, err := manifest.Open(*manifestPath)
	if err != nil {
		if problems := manifestProblems(err, *manifestPath, stderr); problems != nil {
			return problems
		}
		return fmt.Errorf("%v (run it where agents.toml is, or pass -manifest)", err)
	}
	defer src.Close()
	m := src.Head
	if problems, _ := src.Problems(); len(problems) > 0 {
		// The manifest's problems come first, before any about the keys.
		return manifestProblems(src.Check(), *manifestPath, stderr)
	}
	privs, err := keyring.Read(keyFiles, getenv(sign.EnvSigningKey))
	if err != nil {
		return err
	}
	out := ""
	if *outDir != "" {
		// -out is relative to where the command runs, not to the manifest.
		if out, err = filepath.Abs(*outDir); err != nil {
			return err
		}
	}
	var lints *lintcache.Cache
	if cache != nil {
		lints = <-cache
	}
	res, err := build.Run(build.Options{Source: src, Keys: privs, Secret: getenv(sign.EnvSigningKey), AllowDev: !isCI(getenv), OutDir: out, LintCache: lints})
	if errors.Is(err, keyring.ErrDevKeyRefused) {
		return fmt.Errorf("no signing key, and CI=%s: refusing to sign with a development key. Give the key through $%s (a secret holding the PEM) or -key FILE; see README, \"Signing keys\"", getenv("CI"), sign.EnvSigningKey)
	}
	// A build that failed wrote nothing: its error is all it says. What
	// the keys would have been (the development key, a rotation's notes)
	// is said by the build that succeeds.
	if problems := manifestProblems(err, *manifestPath, stderr); problems != nil {
		return problems
	}
	if err != nil {
		if res == nil { // before anything was built: the keys
			return err
		}
		return fmt.Errorf("%v\nthe previous output (if any) was left untouched", err)
	}
	printBuilt(stdout, stderr, m, res, *verbose)
	return nil
}

// printBuilt says what a build that succeeded made, then what asks
// something of the user: the summary lines on stdout; on stderr the
// warnings about the base URL and the keys, the notes (all of them with
// verbose), the lint findings, the build's warnings, and last, once, that
// the development key signed.
func printBuilt(stdout, stderr io.Writer, m *manifest.Manifest, res *build.Result, verbose bool) {
	rep, signers := res.Report, res.Ring.Signers
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
	if rep.Extended > 0 {
		fmt.Fprintf(stdout, "built %s: %s, for the agents' own servers to return from GetExtendedAgentCard; never publish this folder (README, \"Extended cards\")\n", terminal.Escape(rep.PrivateDir), plural(rep.Extended, "extended card"))
	}
	if rep.RemovedPrivate != "" {
		fmt.Fprintf(stdout, "removed %s: the private output an earlier build wrote (site.privateOutput changed)\n", terminal.Escape(rep.RemovedPrivate))
	}
	warnBaseURL(stderr, m.Site.BaseURL)
	res.PrintKeys(stderr)
	res.PrintNotes(stderr, verbose)
	res.Lint.Print(stderr)
	res.PrintWarnings(stderr)
	res.PrintDevKey(stderr, false)
}

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

// warnBaseURL warns of a baseUrl with a path, where no well-known URI
// can live.
func warnBaseURL(stderr io.Writer, baseURL string) {
	if u, err := url.Parse(baseURL); err == nil && strings.Trim(u.Path, "/") != "" {
		fmt.Fprintf(stderr, "warning: site.baseUrl %s has a path: well-known URIs exist only at an origin's root (RFC 8615), so A2A clients asking %s://%s/.well-known/agent-card.json will not find these cards. A GitHub project page (owner.github.io/repo/) cannot serve them; use a custom domain (README, \"Publishing to GitHub Pages\").\n", baseURL, u.Scheme, u.Host)
	}
}
