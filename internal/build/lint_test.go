package build

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/terminal"
)

// TestBuildLintKeepsFirst checks that a build, which keeps only the
// findings it prints, prints what it would print holding them all: the
// first MaxLintLines by agent id then card order, the number left out and
// the totals, whatever order the agents are linted in.
func TestBuildLintKeepsFirst(t *testing.T) {
	for _, n := range []int{0, 1, 7, 40, 500} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		cards := map[string][]lint.Finding{}
		var ids []string
		for i := range n {
			id := fmt.Sprintf("agent-%d", rng.IntN(10*n+1))
			if _, dup := cards[id]; dup {
				continue
			}
			var fs []lint.Finding
			for j := range rng.IntN(4) + i%2 {
				f := lint.Finding{Rule: fmt.Sprintf("rule-%d", j), Severity: lint.Warning, Path: fmt.Sprintf("skills[%d]", j), Message: "m"}
				if rng.IntN(3) == 0 {
					f.Severity = lint.Error
				}
				if rng.IntN(5) == 0 {
					f.Silenced = "because"
				}
				fs = append(fs, f)
			}
			cards[id] = fs
			ids = append(ids, id)
		}
		l := &Lint{}
		var wg sync.WaitGroup
		for _, id := range ids {
			wg.Go(func() { l.Add(id, cards[id]) })
		}
		wg.Wait()
		var got bytes.Buffer
		l.Print(&got)
		if want := printAll(cards); got.String() != want {
			t.Errorf("%d agents:\n got:\n%s\nwant:\n%s", n, got.String(), want)
		}
	}
}

// printAll is what a build printing from every finding it holds prints.
func printAll(cards map[string][]lint.Finding) string {
	var w strings.Builder
	var errs, warns, shown int
	for _, id := range slices.Sorted(maps.Keys(cards)) {
		e, wn := lint.Count(cards[id])
		errs, warns = errs+e, warns+wn
		for _, f := range cards[id] {
			if f.Silenced != "" {
				continue
			}
			if shown < MaxLintLines {
				fmt.Fprintf(&w, "warning: lint: agent %s: %s\n", id, terminal.Escape(f.String()))
			}
			shown++
		}
	}
	if shown > MaxLintLines {
		fmt.Fprintf(&w, "warning: lint: and %d more\n", shown-MaxLintLines)
	}
	if errs+warns > 0 {
		fmt.Fprintf(&w, "warning: lint found %s and %s in the cards this build signed; `agentcards lint` lists them with their fixes (README, \"Linting\")\n", count(errs, "error"), count(warns, "warning"))
	}
	return w.String()
}

// TestInspectRefusesWhatItCannotLint: a card the linter cannot read is
// not waved through unlinted (its credentials unchecked): Inspect fails.
func TestInspectRefusesWhatItCannotLint(t *testing.T) {
	l := &Lint{}
	a := &manifest.Agent{ID: "agent-\x1b[31m"}
	for _, unsigned := range []string{`{"name":`, `{"name":"a","name":"b"}`, "\xff"} {
		err := l.Inspect(a, []byte(unsigned), nil)
		if err == nil {
			t.Errorf("Inspect(%q): no error; a card that cannot be linted would be published", unsigned)
			continue
		}
		if strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("Inspect(%q): error %q holds a raw escape", unsigned, err)
		}
	}
	if err := l.Inspect(a, []byte(`{"name":"a"}`), nil); err != nil {
		t.Errorf("Inspect of a card that decodes: %v", err)
	}
}

// TestUpstreamRefusesCredentialInJWKS: the owner's JWKS, republished byte
// for byte beside a remote agent's card, is linted as a document: a
// credential in it (a token in a key's x5u) fails the build unless
// silenced for the agent; an ordinary JWKS passes.
func TestUpstreamRefusesCredentialInJWKS(t *testing.T) {
	card := []byte(`{"name":"Partner","description":"Answers questions about orders.","version":"1.0.0"}`)
	jwk := `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"k1","alg":"EdDSA","use":"sig"`
	plain := []byte(`{"keys":[` + jwk + `}]}`)
	token := []byte(`{"keys":[` + jwk + `,"x5u":"https://partner.example.test/certs/k1.pem?access_token=sk_live_4eC39HqLyjWDarjtT1zdp7dc"}]}`)
	l := &Lint{}
	a := &manifest.Agent{ID: "partner"}
	if err := l.Upstream(a, card, plain); err != nil {
		t.Errorf("Upstream with an ordinary JWKS: %v", err)
	}
	err := l.Upstream(a, card, token)
	if err == nil || !strings.Contains(err.Error(), "upstream-jwks.json") || !strings.Contains(err.Error(), "credential-in-card") {
		t.Fatalf("Upstream with a token in the JWKS: error %v, want one naming upstream-jwks.json and credential-in-card", err)
	}
	if strings.Contains(err.Error(), "4eC39HqLyjWDarjtT1zdp7dc") {
		t.Errorf("the error repeats the token: %v", err)
	}
	if err := l.Upstream(a, card, []byte(`{"keys":[`)); err == nil {
		t.Errorf("Upstream with a JWKS that cannot be read: no error")
	}
	a.Lint = &manifest.Lint{Silence: map[string]string{"credential-in-card": "the partner's own demo token"}}
	if err := l.Upstream(a, card, token); err != nil {
		t.Errorf("Upstream with the rule silenced: %v", err)
	}
}
