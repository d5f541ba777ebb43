package build

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/lintcache"
	"github.com/agentcards/agentcards/internal/lintrule"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/terminal"
)

// Lint counts the lint findings of the cards a build signs, and keeps
// only the ones it prints: a large site's findings are not held until the
// build ends. It is safe for concurrent use.
type Lint struct {
	// Cache, when set, keeps the findings of cards linted before.
	Cache *lintcache.Cache

	mu          sync.Mutex
	errs, warns int
	shown       int       // findings not silenced
	first       []finding // the first MaxLintLines of them, by agent id then in card order
}

// finding is one finding of an agent's card, the index-th of its list.
type finding struct {
	agent string
	index int
	lint.Finding
}

// Inspect lints one agent's public card (site.Options.Inspect). A
// credential lint finds in it (credential-in-card, not silenced) fails
// the build: whatever lint reports as a credential is never published;
// so does a card that cannot be linted. (The build names the agent in
// front of the error.) doc is unsigned decoded (card.Decode, card.Strict), or nil; it is not
// changed.
func (l *Lint) Inspect(a *manifest.Agent, unsigned []byte, doc map[string]any) error {
	findings, err := l.Cache.Findings(unsigned, doc)
	if err != nil {
		// A card that cannot be linted cannot be shown to hold no
		// credential: it is not published.
		return fmt.Errorf("the card could not be linted (%s); nothing was published", terminal.Escape(err.Error()))
	}
	lint.Silence(findings, a.Silenced())
	l.Add(a.ID, findings)
	if f, ok := standingCredential(findings); ok {
		return fmt.Errorf("the card would publish a credential: %s; remove it from agents.toml (if it is none, silence credential-in-card for this agent with the reason, README \"Linting\")", terminal.Escape(f.String()))
	}
	return nil
}

// Upstream checks the owner's card that remote agent a republishes
// beside its own (site.Options.InspectUpstream) as Inspect checks the
// agent's card: a credential lint finds in it, not silenced for a, fails
// the build, and so does a card that cannot be linted. Its other findings
// are its owner's, for the owner to mend: they are not counted.
// (The build names the agent in front of the error.)
func (l *Lint) Upstream(a *manifest.Agent, data []byte) error {
	findings, err := l.Cache.Findings(data, nil)
	if err != nil {
		return fmt.Errorf("the owner's card it republishes as %s could not be linted (%s); nothing was published", layout.UpstreamCardFile, terminal.Escape(err.Error()))
	}
	lint.Silence(findings, a.Silenced())
	if f, ok := standingCredential(findings); ok {
		return fmt.Errorf("the owner's card it republishes as %s, byte for byte, would publish a credential: %s; take a snapshot of a card without it, or remove the remote agent (if it is none, silence credential-in-card for this agent with the reason, README \"Linting\")", layout.UpstreamCardFile, terminal.Escape(f.String()))
	}
	return nil
}

// standingCredential is the first credential lint found among findings
// (credential-in-card) that no silence stands against.
func standingCredential(findings []lint.Finding) (lint.Finding, bool) {
	for _, f := range findings {
		if f.Rule == lintrule.CredentialInCard && f.Severity == lint.Error && f.Silenced == "" {
			return f, true
		}
	}
	return lint.Finding{}, false
}

// Add counts the findings of agent id's card.
func (l *Lint) Add(id string, findings []lint.Finding) {
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
		l.keep(finding{id, i, f})
	}
}

// keep adds f to the findings printed if it is among the first
// MaxLintLines (with mu held).
func (l *Lint) keep(f finding) {
	order := func(a, b finding) int {
		if c := strings.Compare(a.agent, b.agent); c != 0 {
			return c
		}
		return a.index - b.index
	}
	if len(l.first) == MaxLintLines && order(f, l.first[len(l.first)-1]) > 0 {
		return
	}
	f.agent = strings.Clone(f.agent)
	i, _ := slices.BinarySearchFunc(l.first, f, order)
	l.first = slices.Insert(l.first, i, f)
	if len(l.first) > MaxLintLines {
		l.first = l.first[:MaxLintLines]
	}
}

// MaxLintLines is how many findings a build prints; `agentcards lint`
// lists them all.
const MaxLintLines = 20

// Print writes the findings as warnings (a build fails for none of them
// but a credential, which Inspect and Upstream refuse).
func (l *Lint) Print(w io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, f := range l.first {
		fmt.Fprintf(w, "warning: lint: agent %s: %s\n", terminal.Escape(f.agent), terminal.Escape(f.Finding.String()))
	}
	if l.shown > MaxLintLines {
		fmt.Fprintf(w, "warning: lint: and %d more\n", l.shown-MaxLintLines)
	}
	if l.errs+l.warns > 0 {
		fmt.Fprintf(w, "warning: lint found %s and %s in the cards this build signed; `agentcards lint` lists them with their fixes (README, \"Linting\")\n", count(l.errs, "error"), count(l.warns, "warning"))
	}
}

// count is n and the noun, made plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
