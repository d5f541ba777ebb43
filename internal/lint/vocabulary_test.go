package lint_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/manifest"
)

// TestOneCredentialVocabulary: lint and the manifest name credentials
// with one vocabulary (package secret): whatever lint reports as a
// credential member of a card, the manifest refuses before it is built;
// words about a credential, placeholders, numbers and ordinary names pass
// both. And lint reports a URL parameter the manifest refuses (?sig=).
func TestOneCredentialVocabulary(t *testing.T) {
	for _, tc := range []struct {
		name           string
		value          any
		lint, manifest bool
	}{
		{"github_token", "ghp_abcdefghijklmnop1234567890ABCD", true, true},
		{"slackBotToken", "xoxb-not-a-real-one-0123456789", true, true},
		{"db_password", "hunter2hunter2", true, true},
		{"db_password", 12345678.0, true, true},
		{"client_secret", "s3cr3t", true, true},
		{"next_token", "", false, false},
		{"page_token", "<token>", false, false},
		{"max_output_token", 4096.0, false, false},
		{"auth", "oauth2", false, false},
		{"region", "eu-west-1", false, false},
		// A name that holds nothing but a credential has no place in a
		// manifest whatever it holds; lint passes a word about one.
		{"auth_token", "required", false, true},
	} {
		doc := map[string]any{"name": "A", "description": "An agent.", "capabilities": map[string]any{
			"extensions": []any{map[string]any{"uri": "https://e.example/ext", "params": map[string]any{tc.name: tc.value}}}}}
		b, _ := json.Marshal(doc)
		dec, err := card.Decode(b, card.Strict)
		if err != nil {
			t.Fatal(err)
		}
		linted := slices.ContainsFunc(lint.Card(dec), func(f lint.Finding) bool { return f.Rule == lint.CredentialInCard })
		refused := manifest.SecretMember(tc.name, tc.value)
		if linted != tc.lint || refused != tc.manifest {
			t.Errorf("%s = %v: lint reports it %v (want %v), the manifest refuses it %v (want %v)", tc.name, tc.value, linted, tc.lint, refused, tc.manifest)
		}
	}
	doc := []byte(`{"name":"A","description":"An agent.","documentationUrl":"https://docs.example/guide?sig=AbC123xyz789"}`)
	dec, _ := card.Decode(doc, card.Strict)
	if !slices.ContainsFunc(lint.Card(dec), func(f lint.Finding) bool { return f.Rule == lint.CredentialInCard }) {
		t.Error("lint misses ?sig=, which the manifest refuses in a URL")
	}
}
