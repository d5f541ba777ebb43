package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/agentcards/agentcards/internal/builtsite"
	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/compose"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/terminal"
	"github.com/agentcards/agentcards/internal/verify"
)

// lintedCard is one card's findings.
type lintedCard struct {
	// Source is the file or URL the card came from, or the manifest.
	Source string `json:"source"`
	// Agent and Card say which card of the manifest: the agent's id and
	// the file the build writes it to ("agent-card.json",
	// "extended-agent-card.enterprise.json").
	Agent    string         `json:"agent,omitempty"`
	Card     string         `json:"card,omitempty"`
	Findings []lint.Finding `json:"findings"`
}

// lintReport is what `lint -json` prints.
type lintReport struct {
	Cards    []lintedCard `json:"cards"`
	Errors   int          `json:"errors"`
	Warnings int          `json:"warnings"`
	Silenced int          `json:"silenced"`
	// Unread lists what could not be read or fetched (exit status 2):
	// its cards are unknown.
	Unread []unreadTarget `json:"unread"`
	// Broken lists the manifests that do not build (exit status 1; their
	// problems are printed on stderr).
	Broken []unreadTarget `json:"broken"`
}

// fileError is an error reading one file of a folder TARGET.
type fileError struct {
	path string
	err  error
}

func (e fileError) Error() string { return e.err.Error() }
func (e fileError) Unwrap() error { return e.err }

// unreadTarget is a TARGET, or a file of one, that could not be linted.
type unreadTarget struct {
	Target string `json:"target"`
	Error  string `json:"error"`
}

// errLintFailed makes exit code 1 without another message.
type errLintFailed struct{}

func (errLintFailed) Error() string { return "lint found problems" }

// manifestBroken is a manifest that does not build (its problems are
// printed): lint fails (exit code 1).
type manifestBroken string

func (m manifestBroken) Error() string { return string(m) }

// errLintUnread makes exit code 2: a target could not be read or fetched
// (said already), so its cards are unknown.
type errLintUnread struct{ n int }

func (e errLintUnread) Error() string { return plural(e.n, "target") + " could not be read" }

func runLint(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("lint", stderr)
	manifestPath := fs.String("manifest", "agents.toml", "the manifest to lint when no TARGET is given")
	asJSON := fs.Bool("json", false, "write the findings as JSON")
	strict := fs.Bool("strict", false, "fail on warnings too, not only on errors")
	listRules := fs.Bool("rules", false, "list the rules and exit")
	timeout := fs.Duration("timeout", fetch.DefaultTimeout, "timeout for each HTTP request")
	maxBytes := fs.Int64("max-bytes", fetch.DefaultMaxBytes, "largest card read or fetched, in bytes")
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return usageOrHelp(err)
	}
	if *listRules {
		return printRules(stdout, *asJSON)
	}
	targets := fs.Args()
	if len(targets) == 0 {
		targets = []string{*manifestPath}
	}
	client := &fetch.Client{Timeout: *timeout, MaxBytes: *maxBytes, Pins: &fetch.Pins{}} // one network policy for the run
	rep := &lintReport{Cards: []lintedCard{}, Unread: []unreadTarget{}, Broken: []unreadTarget{}}
	failed, broken := 0, 0
	for _, t := range targets {
		cards, errs := lintTarget(t, client, stderr)
		for _, err := range errs {
			// The other targets and files are still linted.
			fmt.Fprintf(stderr, "agentcards lint: %s\n", terminal.EscapeLines(err.Error()))
			target := t
			var fe fileError
			if errors.As(err, &fe) {
				target = fe.path
			}
			if errors.As(err, new(manifestBroken)) {
				broken++
				rep.Broken = append(rep.Broken, unreadTarget{Target: target, Error: err.Error()})
			} else {
				failed++
				rep.Unread = append(rep.Unread, unreadTarget{Target: target, Error: err.Error()})
			}
		}
		rep.Cards = append(rep.Cards, cards...)
	}
	for i, c := range rep.Cards {
		if c.Findings == nil {
			rep.Cards[i].Findings = []lint.Finding{}
		}
		e, w := lint.Count(c.Findings)
		rep.Errors += e
		rep.Warnings += w
		for _, f := range c.Findings {
			if f.Silenced != "" {
				rep.Silenced++
			}
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		for _, c := range rep.Cards {
			for _, f := range c.Findings {
				if f.Silenced == "" {
					fmt.Fprintf(stdout, "%s: %s\n  fix: %s\n", terminal.Escape(c.label()), formatFinding(f), terminal.Escape(f.Fix))
				}
			}
		}
		fmt.Fprintf(stdout, "lint: %s, %s in %s", plural(rep.Errors, "error"), plural(rep.Warnings, "warning"), plural(len(rep.Cards), "card"))
		if rep.Silenced > 0 {
			fmt.Fprintf(stdout, " (%d silenced in the manifest; -json lists them)", rep.Silenced)
		}
		if broken > 0 {
			fmt.Fprintf(stdout, "; %s that does not build (its problems are above)", plural(broken, "manifest"))
		}
		if failed > 0 {
			fmt.Fprintf(stdout, "; %s could not be read", plural(failed, "target"))
		}
		fmt.Fprintln(stdout)
	}
	switch {
	case failed > 0:
		return errLintUnread{failed}
	case broken > 0 || rep.Errors > 0 || *strict && rep.Warnings > 0:
		return errLintFailed{}
	}
	return nil
}

// label names a card in text output.
func (c lintedCard) label() string {
	if c.Agent == "" {
		return c.Source
	}
	return fmt.Sprintf("%s: agent %s, %s", c.Source, c.Agent, c.Card)
}

// formatFinding is one finding on one line: "PATH: SEVERITY RULE: MESSAGE",
// escaped for a terminal (the message quotes the card's text).
func formatFinding(f lint.Finding) string {
	return terminal.Escape(f.String())
}

// printRules lists the rules.
func printRules(w io.Writer, asJSON bool) error {
	if asJSON {
		b, err := json.MarshalIndent(lint.Rules(), "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tCATEGORY\tFINDS")
	for _, r := range lint.Rules() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Category, r.Finds)
	}
	return tw.Flush()
}

// lintTarget lints one TARGET: a manifest (.toml), a built site folder (or
// a folder of card files), a card file, or a URL (an origin means its
// /.well-known/agent-card.json). The errors are what could not be read;
// the cards are what could.
func lintTarget(t string, client *fetch.Client, stderr io.Writer) ([]lintedCard, []error) {
	if st, err := os.Stat(t); err == nil && st.IsDir() {
		return lintSite(t, client.MaxBytes)
	}
	cards, err := lintOne(t, client, stderr)
	if err != nil {
		return nil, []error{err}
	}
	return cards, nil
}

// lintOne lints a TARGET that is not a folder.
func lintOne(t string, client *fetch.Client, stderr io.Writer) ([]lintedCard, error) {
	if u, err := url.Parse(t); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return lintURL(u, client)
	}
	if _, err := os.Stat(t); err != nil {
		return nil, fmt.Errorf("%s: %v", t, err)
	}
	if strings.HasSuffix(strings.ToLower(t), ".toml") {
		return lintManifest(t, stderr)
	}
	data, err := verify.ReadLocalFile(t, client.MaxBytes)
	if err != nil {
		return nil, err
	}
	c, err := lintBytes(t, data, filepath.Base(t) == layout.ServerCardFile)
	if err != nil {
		return nil, err
	}
	return []lintedCard{c}, nil
}

// lintBytes lints one card's JSON; server says it is an MCP Server Card.
func lintBytes(source string, data []byte, server bool) (lintedCard, error) {
	return lintBytesWith(&lint.Linter{}, source, data, server)
}

// decodePublished reads a published JSON document as verify does (card.Decode,
// strict); a UTF-8 byte order mark before it is skipped, as JSON parsers
// may (RFC 8259).
func decodePublished(data []byte) (map[string]any, error) {
	return card.Decode(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), card.Strict)
}

// lintFile reads and lints the card file at p of a folder TARGET; an error
// names the file.
func lintFile(lr *lint.Linter, p string, limit int64, server bool) ([]byte, lintedCard, error) {
	data, err := verify.ReadLocalFile(p, limit)
	if err != nil {
		return nil, lintedCard{}, fileError{p, err}
	}
	c, err := lintBytesWith(lr, p, data, server)
	if err != nil {
		return nil, lintedCard{}, fileError{p, err}
	}
	return data, c, nil
}

// lintBytesWith is lintBytes with the Linter of a run.
func lintBytesWith(lr *lint.Linter, source string, data []byte, server bool) (lintedCard, error) {
	doc, err := decodePublished(data)
	if err != nil {
		return lintedCard{}, fmt.Errorf("%s: not a card: %v", source, err)
	}
	c := lintedCard{Source: source}
	if server {
		c.Findings = lr.ServerCard(doc)
	} else {
		c.Findings = lr.Card(doc)
	}
	return c, nil
}

// lintURL fetches a card and lints it.
func lintURL(u *url.URL, client *fetch.Client) ([]lintedCard, error) {
	if u.Path == "" || u.Path == "/" {
		u = &url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host, Path: layout.RootCardPath}
	}
	data, final, err := client.Get(context.Background(), u.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", u.Redacted(), err)
	}
	source := u.Redacted()
	if final != nil && final.Redacted() != source {
		source += " (redirected to " + final.Redacted() + ")"
	}
	c, err := lintBytes(source, data, strings.HasSuffix(u.Path, "/"+layout.ServerCardFile))
	if err != nil {
		return nil, err
	}
	return []lintedCard{c}, nil
}

// lintSite lints a built site (read by builtsite): every agent's
// agent-card.json and agent.json (the second reporting only what the first
// does not: both are made from one entry, and a hostile site may change
// either), the root cards unless they copy an agent's, every MCP Server
// Card and the catalogs. Only regular files are read: a card that is a link
// is reported, not read. A folder that is not a site has each of its .json
// files linted as a card (lintFolder).
func lintSite(dir string, limit int64) ([]lintedCard, []error) {
	files, err := builtsite.List(dir)
	if err != nil {
		return nil, []error{err}
	}
	var sited, servers, catalogs []builtsite.File
	var errs []error
	public := isDir(filepath.Join(dir, layout.WellKnown))
	for _, f := range files {
		k := f.Kind
		switch {
		case k == builtsite.Link:
			errs = append(errs, fileError{f.Path, fmt.Errorf("%s is a symbolic link, not a plain file: not followed; a built site holds none (a host serves none)", f.Path)})
			continue
		case k == builtsite.ExtendedCard && public:
			errs = append(errs, fileError{f.Path, fmt.Errorf("%s is an extended card in a public site: extended cards are for authenticated callers only; remove it and publish only the build's public output", f.Path)})
			continue
		}
		if k != builtsite.ServerCard && !k.IsCatalog() && (k == builtsite.StrayCard || !k.IsCard()) {
			continue
		}
		if !f.Regular() {
			// A link is not followed, and not passed over in silence
			// either: a hostile site would hide a card behind one.
			errs = append(errs, fileError{f.Path, fmt.Errorf("%s is not a plain file (a symbolic link?): not read; a site's cards are plain files", f.Path)})
			continue
		}
		switch {
		case k.IsCatalog():
			catalogs = append(catalogs, f)
		case k == builtsite.ServerCard:
			servers = append(servers, f)
		default:
			sited = append(sited, f)
		}
	}
	if len(sited) == 0 && len(servers) == 0 && len(errs) == 0 {
		return lintFolder(dir, limit)
	}
	lr := &lint.Linter{}
	out, cardErrs := lintPairs(lr, builtsite.Pairs(sited), limit)
	errs = append(errs, cardErrs...)
	for _, f := range servers {
		if _, c, err := lintFile(lr, f.Path, limit, true); err != nil {
			errs = append(errs, err)
		} else {
			out = append(out, c)
		}
	}
	catOut, catErrs := lintCatalogs(lr, catalogs, out, limit)
	return append(out, catOut...), append(errs, catErrs...)
}

// lintPairs lints the cards of a site, folder by folder, the root's last:
// an agent.json reports what its agent-card.json does not, and the root's
// cards are left out when they copy an agent's.
func lintPairs(lr *lint.Linter, pairs []builtsite.Pair, limit int64) ([]lintedCard, []error) {
	read := func(f *builtsite.File) ([]byte, lintedCard, error) { return lintFile(lr, f.Path, limit, false) }
	var out []lintedCard
	var errs []error
	// An agent's shapes, by their bytes: the root cards copy one agent's.
	agentCards := map[string][]lint.Finding{}
	for _, pr := range pairs {
		var first []lint.Finding
		var copied bool
		if pr.Card != nil {
			data, c, err := read(pr.Card)
			switch {
			case err != nil:
				errs = append(errs, err)
			case pr.Root && agentCards[string(data)] != nil:
				first, copied = agentCards[string(data)], true
			default:
				first = c.Findings
				if !pr.Root {
					agentCards[string(data)] = nonNil(c.Findings)
				}
				out = append(out, c)
			}
		}
		if pr.Legacy != nil {
			data, c, err := read(pr.Legacy)
			switch {
			case err != nil:
				errs = append(errs, err)
			case pr.Root && copied && agentCards[string(data)] != nil:
			default:
				if pr.Card != nil {
					c.Findings = lint.Twin(first, c.Findings)
				}
				if !pr.Root {
					agentCards[string(data)] = nonNil(c.Findings)
				}
				out = append(out, c)
			}
		}
	}
	return out, errs
}

// lintCatalogs lints a site's catalogs, whose entries' names and
// descriptions reach the models that pick agents: the text rules, for what
// the cards (linted as cards) do not say already (an entry repeats its
// card's description).
func lintCatalogs(lr *lint.Linter, catalogs []builtsite.File, cards []lintedCard, limit int64) ([]lintedCard, []error) {
	var said []lint.Finding
	for _, c := range cards {
		said = append(said, c.Findings...)
	}
	var out []lintedCard
	var errs []error
	for _, f := range catalogs {
		p := f.Path
		data, err := verify.ReadLocalFile(p, limit)
		if err == nil {
			var doc map[string]any
			if doc, err = decodePublished(data); err == nil {
				if fs := lint.Twin(said, lr.Document(doc)); len(fs) > 0 {
					out = append(out, lintedCard{Source: p, Findings: fs})
				}
			} else {
				err = fmt.Errorf("%s: not a catalog: %v", p, err)
			}
		}
		if err != nil {
			errs = append(errs, fileError{p, err})
		}
	}
	return out, errs
}

// nonNil is fs, or an empty list for nil, so that a map of them tells a
// card with no findings from no card.
func nonNil(fs []lint.Finding) []lint.Finding {
	if fs == nil {
		return []lint.Finding{}
	}
	return fs
}

// lintFolder lints each .json file under dir (links not followed) as a
// card, an MCP Server Card when it is named server-card.json.
func lintFolder(dir string, limit int64) ([]lintedCard, []error) {
	lr := &lint.Linter{}
	var out []lintedCard
	var errs []error
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
			return nil
		}
		if !d.Type().IsRegular() {
			errs = append(errs, fileError{p, fmt.Errorf("%s is not a plain file (a symbolic link?): not read", p)})
			return nil
		}
		if _, c, err := lintFile(lr, p, limit, d.Name() == layout.ServerCardFile); err != nil {
			errs = append(errs, err)
		} else {
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if len(out) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s holds no cards: neither a built site (.well-known/agent-card.json, agents/<id>/.well-known/agent-card.json) nor .json files", dir))
	}
	return out, errs
}

// lintManifest lints every card a manifest makes: each agent's public card
// and its extended cards, with the manifest's silences applied.
func lintManifest(path string, stderr io.Writer) ([]lintedCard, error) {
	m, err := manifest.Load(path)
	if err != nil {
		var errs manifest.Errors
		if errors.As(err, &errs) {
			for _, d := range errs {
				fmt.Fprintln(stderr, terminal.Escape(d.String()))
			}
			return nil, manifestBroken(fmt.Sprintf("%s in %s: lint reads the cards of a manifest that builds; fix them first", plural(len(errs), "problem"), path))
		}
		return nil, err
	}
	var out []lintedCard
	for i := range m.Agents {
		a := &m.Agents[i]
		c, err := lintAgent(m, a, path, layout.CardFile)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		public := map[lint.Finding]bool{}
		for _, f := range c.Findings {
			public[f] = true
		}
		for _, ec := range a.ExtendedCards() {
			c, err := lintAgent(m, ec.Agent, path, layout.ExtendedName(ec.Tier, false))
			if err != nil {
				return nil, err
			}
			c.Agent = a.ID
			// What the extended card keeps of the public one was
			// reported there.
			c.Findings = slices.DeleteFunc(c.Findings, func(f lint.Finding) bool { return public[f] })
			out = append(out, c)
		}
	}
	return out, nil
}

// lintAgent lints the v1.0 card of one agent of a manifest.
func lintAgent(m *manifest.Manifest, a *manifest.Agent, source, name string) (lintedCard, error) {
	var v1 any = compose.NewV1(m, a)
	if a.Remote != nil {
		v1 = a.Remote.Card // a remote agent's card is the gateway's
	}
	unsigned, err := card.Compact(v1)
	if err != nil {
		return lintedCard{}, err
	}
	findings, err := lint.Unsigned(unsigned, a.Silenced())
	if err != nil {
		return lintedCard{}, fmt.Errorf("%s: agent %s: %v", source, a.ID, err)
	}
	return lintedCard{Source: source, Agent: a.ID, Card: name, Findings: findings}, nil
}

// isDir reports whether p is a folder (not a link to one).
func isDir(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}
