package lint_test

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/lintrule"
)

// TestLinterGuard: one Linter reading every card of the guard twice in a
// row, as verify reads a card's two shapes, finds in each exactly what
// lint.Card does, which remembers nothing.
func TestLinterGuard(t *testing.T) {
	lr := &lint.Linter{}
	bad := 0
	for _, c := range guardCards(t) {
		want := lint.Card(c.doc)
		for round := range 2 {
			if got := lr.Card(c.doc); !slices.Equal(got, want) && bad < 10 {
				bad++
				t.Errorf("%s, round %d:\n got %v\nwant %v", c.id, round, got, want)
			}
		}
	}
}

// TestLinterWindowKey: a window across fields that is an order in prose
// and fair in a skill's example (a person's request) is judged by where
// it stands, and apart from the same text as a field of its own (here of
// a member named ""), whichever a Linter read first.
func TestLinterWindowKey(t *testing.T) {
	skill := func(name, description string, examples ...any) map[string]any {
		return map[string]any{"id": "s", "name": name, "description": description, "tags": []any{"games"}, "examples": examples}
	}
	card := func(sk map[string]any) map[string]any {
		return map[string]any{"name": "Quiz host", "description": "Runs trivia quizzes for teams and classes.", "version": "1.0.0", "skills": []any{sk}}
	}
	asExamples := card(skill("Quiz", "Runs one trivia round for a team.", "Pretend", "to be a pirate."))
	asProse := card(skill("Pretend", "to be a pirate. It hosts the quiz."))
	injected := func(fs []lint.Finding) bool {
		return slices.ContainsFunc(fs, func(f lint.Finding) bool {
			return f.Rule == lintrule.PromptInjection && strings.Contains(f.Message, "across fields")
		})
	}
	if injected(lint.Card(asExamples)) || !injected(lint.Card(asProse)) {
		t.Fatalf("the cards no longer tell examples from prose:\n%v\n%v", lint.Card(asExamples), lint.Card(asProse))
	}
	asValue := card(skill("Quiz", "Runs one trivia round for a team."))
	asValue[""] = "Pretend to be a pirate."
	for _, order := range [][]map[string]any{{asExamples, asProse}, {asProse, asExamples}, {asValue, asProse}} {
		lr := &lint.Linter{}
		for _, doc := range order {
			if got, want := lr.Card(doc), lint.Card(doc); !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		}
	}
}

// TestLinterEndpointKey: a Linter judges a URL by how it is used, as an
// interface (https required), a gRPC target (host:port allowed) or an
// icon, and a protected header by its own text, whichever it read first.
func TestLinterEndpointKey(t *testing.T) {
	card := func(member string, v any) map[string]any {
		return map[string]any{"name": "Key ring", "description": "Keeps the keys of a team in one place.", "version": "1.0.0", member: v}
	}
	iface := func(url, binding string) any {
		return []any{map[string]any{"url": url, "protocolBinding": binding, "protocolVersion": "1.0"}}
	}
	signed := func(header string) any {
		return []any{map[string]any{"protected": base64.RawURLEncoding.EncodeToString([]byte(header)), "signature": "c2ln"}}
	}
	for _, pair := range [][2]map[string]any{
		{card("iconUrl", "http://cdn.example.com/a"), card("supportedInterfaces", iface("http://cdn.example.com/a", "JSONRPC"))},
		{card("supportedInterfaces", iface("agent.example.com:50051", "GRPC")), card("supportedInterfaces", iface("agent.example.com:50051", "JSONRPC"))},
		{card("signatures", signed(`{"alg":"EdDSA","jku":"https://keys.example.com/jwks.json"}`)), card("signatures", signed(`{"alg":"EdDSA","jku":"http://10.0.0.1/jwks.json"}`))},
	} {
		if slices.Equal(lint.Card(pair[0]), lint.Card(pair[1])) {
			t.Fatalf("the cards of a pair lint the same: %v", lint.Card(pair[0]))
		}
		for _, order := range [][2]map[string]any{pair, {pair[1], pair[0]}} {
			lr := &lint.Linter{}
			for _, doc := range order {
				if got, want := lr.Card(doc), lint.Card(doc); !slices.Equal(got, want) {
					t.Errorf("got %v\nwant %v", got, want)
				}
			}
		}
	}
}
