package main

import (
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

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/site"
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
	if err := fs.Parse(args); err != nil {
		return usageOrHelp(err)
	}
	if *listRules {
		return printRules(stdout, *asJSON)
	}
	targets := fs.Args()
	if len(targets) == 0 {
		targets = []string{*manifestPath}
	}
	client := &fetch.Client{Timeout: *timeout, MaxBytes: *maxBytes}
	rep := &lintReport{Cards: []lintedCard{}}
	failed, broken := 0, 0
	for _, t := range targets {
		cards, err := lintTarget(t, client, stderr)
		if err != nil {
			// The other targets are still linted.
			fmt.Fprintf(stderr, "agentcards lint: %s\n", terminal.EscapeLines(err.Error()))
			if errors.As(err, new(manifestBroken)) {
				broken++
			} else {
				failed++
			}
			continue
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
	path := f.Path
	if path == "" {
		path = "(card)"
	}
	return terminal.Escape(fmt.Sprintf("%s: %s %s: %s", path, f.Severity, f.Rule, f.Message))
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

// lintTarget lints one TARGET: a manifest (.toml), a built site folder, a
// card file, or a URL (an origin means its /.well-known/agent-card.json).
func lintTarget(t string, client *fetch.Client, stderr io.Writer) ([]lintedCard, error) {
	if u, err := url.Parse(t); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return lintURL(u, client)
	}
	st, err := os.Stat(t)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", t, err)
	}
	switch {
	case st.IsDir():
		return lintSite(t, client.MaxBytes)
	case strings.HasSuffix(strings.ToLower(t), ".toml"):
		return lintManifest(t, stderr)
	}
	data, err := verify.ReadLocalFile(t, client.MaxBytes)
	if err != nil {
		return nil, err
	}
	c, err := lintBytes(t, data, filepath.Base(t) == "server-card.json")
	if err != nil {
		return nil, err
	}
	return []lintedCard{c}, nil
}

// lintBytes lints one card's JSON; server says it is an MCP Server Card.
func lintBytes(source string, data []byte, server bool) (lintedCard, error) {
	doc, err := card.Decode(data, card.Strict)
	if err != nil {
		return lintedCard{}, fmt.Errorf("%s: not a card: %v", source, err)
	}
	c := lintedCard{Source: source}
	if server {
		c.Findings = lint.ServerCard(doc)
	} else {
		c.Findings = lint.Card(doc)
	}
	return c, nil
}

// lintURL fetches a card and lints it.
func lintURL(u *url.URL, client *fetch.Client) ([]lintedCard, error) {
	if u.Path == "" || u.Path == "/" {
		u = &url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host, Path: "/.well-known/agent-card.json"}
	}
	data, final, err := client.Get(context.Background(), u.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", u.Redacted(), err)
	}
	source := u.Redacted()
	if final != nil && final.Redacted() != source {
		source += " (redirected to " + final.Redacted() + ")"
	}
	c, err := lintBytes(source, data, strings.HasSuffix(u.Path, "/server-card.json"))
	if err != nil {
		return nil, err
	}
	return []lintedCard{c}, nil
}

// lintSite lints a built site: every agent's agent-card.json (its
// agent.json only where there is none: both are made from the same
// entry), the root cards unless they are copies of an agent's, and every
// MCP Server Card. Only regular files are read; links are not followed.
func lintSite(dir string, limit int64) ([]lintedCard, error) {
	var out []lintedCard
	agentCards := map[string]bool{}
	var roots []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		parts := strings.Split(rel, "/")
		var server bool
		switch {
		case len(parts) == 2 && parts[0] == ".well-known" && (parts[1] == "agent-card.json" || parts[1] == "agent.json"):
			roots = append(roots, p)
			return nil
		case len(parts) == 4 && parts[0] == "agents" && parts[2] == ".well-known" && parts[3] == "agent-card.json":
		case len(parts) == 4 && parts[0] == "agents" && parts[2] == ".well-known" && parts[3] == "agent.json":
			if _, err := os.Lstat(filepath.Join(filepath.Dir(p), "agent-card.json")); err == nil {
				return nil
			}
		case len(parts) == 3 && parts[0] == manifest.MCPFolder && parts[2] == "server-card.json":
			server = true
		default:
			return nil
		}
		data, err := verify.ReadLocalFile(p, limit)
		if err != nil {
			return err
		}
		agentCards[string(data)] = true
		c, err := lintBytes(p, data, server)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range roots {
		data, err := verify.ReadLocalFile(p, limit)
		if err != nil {
			return nil, err
		}
		if agentCards[string(data)] || filepath.Base(p) == "agent.json" && hasRootCard(dir) {
			continue
		}
		c, err := lintBytes(p, data, false)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no cards (.well-known/agent-card.json, agents/<id>/.well-known/agent-card.json): is it a built site?", dir)
	}
	return out, nil
}

// hasRootCard reports whether a site has a root agent-card.json.
func hasRootCard(dir string) bool {
	st, err := os.Lstat(filepath.Join(dir, ".well-known", "agent-card.json"))
	return err == nil && st.Mode().IsRegular()
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
		c, err := lintAgent(m, a, path, site.CardFile)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		public := map[lint.Finding]bool{}
		for _, f := range c.Findings {
			public[f] = true
		}
		for _, ec := range a.ExtendedCards() {
			name := "extended-agent-card.json"
			if ec.Tier != "" {
				name = "extended-agent-card." + ec.Tier + ".json"
			}
			c, err := lintAgent(m, ec.Agent, path, name)
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
	unsigned, err := card.Compact(card.NewV1(m, a))
	if err != nil {
		return lintedCard{}, err
	}
	findings, err := lintUnsigned(unsigned, a.Silenced())
	if err != nil {
		return lintedCard{}, fmt.Errorf("%s: agent %s: %v", source, a.ID, err)
	}
	return lintedCard{Source: source, Agent: a.ID, Card: name, Findings: findings}, nil
}

// lintUnsigned lints a card as the build encodes it, before signing, and
// applies an agent's silences.
func lintUnsigned(unsigned []byte, silenced map[string]string) ([]lint.Finding, error) {
	doc, err := card.Decode(unsigned, card.Strict)
	if err != nil {
		return nil, err
	}
	findings := lint.Card(doc)
	lint.Silence(findings, silenced)
	return findings, nil
}
