package build

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/card"
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
	// documents lints the owners' JWKS of remote agents (Upstream).
	documents lint.Linter

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
// front of the error.) doc is unsigned decoded (card.Decode,
// card.Strict), or nil; it is not changed.
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

// Upstream checks what remote agent a republishes of its owner's, byte
// for byte, beside its own card (site.Options.InspectUpstream): the
// owner's card (owner) as Inspect checks the agent's card, and the
// owner's JWKS (jwks, when not empty) with the rules for text of any
// published document. A credential lint finds in either, not silenced for a, fails
// the build, and so does a file that cannot be linted. The card's other
// findings are its owner's, for the owner to mend: they are not counted.
// (The build names the agent in front of the error.)
func (l *Lint) Upstream(a *manifest.Agent, owner, jwks []byte) error {
	findings, err := l.Cache.Findings(owner, nil)
	if err != nil {
		return fmt.Errorf("the owner's card it republishes as %s could not be linted (%s); nothing was published", layout.UpstreamCardFile, terminal.Escape(err.Error()))
	}
	lint.Silence(findings, a.Silenced())
	if err := refuseCredential(findings, "card", layout.UpstreamCardFile, "take a snapshot of a card without it"); err != nil || len(jwks) == 0 {
		return err
	}
	doc, err := card.Decode(jwks, card.Strict)
	if err != nil {
		return fmt.Errorf("the owner's JWKS it republishes as %s could not be linted (%s); nothing was published", layout.UpstreamJWKSFile, terminal.Escape(err.Error()))
	}
	findings = l.documents.Document(doc)
	lint.Silence(findings, a.Silenced())
	return refuseCredential(findings, "JWKS", layout.UpstreamJWKSFile, "take a snapshot whose keys do not carry it")
}

// refuseCredential is the error for the first credential among the
// findings of the owner's what (card, JWKS) that a remote agent
// republishes as name, or nil; mend says what to do instead.
func refuseCredential(findings []lint.Finding, what, name, mend string) error {
	f, ok := standingCredential(findings)
	if !ok {
		return nil
	}
	return fmt.Errorf("the owner's %s it republishes as %s, byte for byte, would publish a credential: %s; %s, or remove the remote agent (if it is none, silence credential-in-card for this agent with the reason, README \"Linting\")", what, name, terminal.Escape(f.String()), mend)
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
