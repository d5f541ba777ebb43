package lint_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/lintrule"
	"github.com/agentcards/agentcards/internal/manifest"
)

// manifestRefuses reports whether agents.toml refuses an extension's
// params member name = value, naming that member.
func manifestRefuses(t *testing.T, name string, value any) bool {
	t.Helper()
	key, _ := json.Marshal(name)
	val := tomlValue(value)
	src := `[site]
baseUrl = "https://agents.example.com"

[[agents]]
id = "a"
name = "A"
description = "An agent that does one thing well enough for a test."
version = "1.0.0"

[[agents.supportedInterfaces]]
url = "https://a.example.com/a2a"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"

[[agents.capabilities.extensions]]
uri = "https://e.example/ext"
[agents.capabilities.extensions.params]
` + string(key) + ` = ` + val + `

[[agents.skills]]
id = "s"
name = "S"
description = "Does the thing for the test."
tags = ["t"]
`
	_, err := manifest.Parse("agents.toml", []byte(src))
	var errs manifest.Errors
	if err != nil && !errors.As(err, &errs) {
		t.Fatalf("%s = %s: %v", key, val, err)
	}
	for _, d := range errs {
		if strings.Contains(d.Path, "params.") {
			return true
		}
	}
	if err != nil && len(errs) == 0 {
		t.Fatalf("%s = %s: %v", key, val, err)
	}
	return false
}

// tomlValue writes v (a string, a float64 that is a whole number, a bool,
// or an array of those) as TOML.
func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	case float64:
		return strconv.FormatInt(int64(x), 10)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = tomlValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	panic(fmt.Sprintf("tomlValue: %T", v))
}

// vocabRow is a member of an extension's params, and whether lint reports
// it and the manifest refuses it.
type vocabRow struct {
	name           string
	value          any
	lint, manifest bool
}

// TestOneCredentialVocabulary: lint and the manifest name credentials
// with one vocabulary (package secret): whatever lint reports as a
// credential member of a card, the manifest refuses before it is built;
// words about a credential, placeholders, numbers and ordinary names pass
// both. And lint reports a URL parameter the manifest refuses (?sig=).
// Credentials in URLs and connection strings (secret.InURLs) are the one
// kind lint reports and the manifest leaves to it: the finding fails the
// build, and a reason in the manifest can silence one that is none.
func TestOneCredentialVocabulary(t *testing.T) {
	rows := []vocabRow{
		{"github_token", "ghp_abcdefghijklmnop1234567890ABCD", true, true},
		{"slackBotToken", "xoxb-not-a-real-one-0123456789", true, true},
		{"db_password", "hunter2hunter2", true, true},
		{"db_password", 12345678.0, true, true},
		{"client_secret", "s3cr3t", true, true},
		{"next_token", "<next page>", false, false},
		{"page_token", "<token>", false, false},
		{"max_output_token", 4096.0, false, false},
		{"auth", "oauth2", false, false},
		{"region", "eu-west-1", false, false},
		// Spellings of a name: look-alike, full-width and combining
		// characters, dots, and a bare "key" with a generated secret.
		{"pаssword", "hunter2hunter2", true, true},
		{"ｐａｓｓｗｏｒｄ", "hunter2hunter2", true, true},
		{"db_pаssword", 12345678.0, true, true},
		{"pass͏word", "hunter2hunter2", true, true},
		{"api.key", "abcd1234efgh5678ijkl", true, true},
		{"key", "abcd1234efgh5678ijkl", true, true},
		{"key", "value", false, false},
		// Arrays are read element by element.
		{"github_tokens", []any{"ghp_abcdefghijklmnop1234567890ABCD"}, true, true},
		{"note", "Debug with sk-proj-Abc123Def456Ghi789Jkl012Mno345.", true, true},
		{"db_password", []any{12345678.0}, true, true},
		// Names that only end in letters of one.
		{"spin", 1.0, false, false},
		{"version_pin", 2.0, false, false},
		{"step_in", 2.0, false, false},
		// Names outside the credential suffixes that hold a credential's
		// word: a value in a secret's shape is one.
		{"secretValue", "k3J9xQ2mP8vL5nR7", true, true},
		{"licenseKey", "ABCD-1234-EFGH-5678", true, true},
		{"auth", "9f8e7d6c5b4a3f2e", true, true},
		{"pass", "hunter22", true, true},
		{"cookie", "session=3f9a8b7c6d5e4f3a2b1c", true, true},
		{"webhookSigningSecretV2", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", true, true},
		{"otp_seed", "JBSWY3DPEHPK3PXP", true, true},
		{"credentialsJson", `{"type":"service_account","client_secret":"s3cr3tV4lu3xyz"}`, true, true},
		{"config", `{"nested":{"password":"hunter2hunter2"}}`, true, true},
		// ... and a word, a version, a model or a policy is not.
		{"tokenizer", "cl100k_base", false, false},
		{"authServer", "keycloak-v26", false, false},
		{"tokenModel", "gpt4o-mini", false, false},
		{"sessionTimeout", "30m", false, false},
		{"secretsManager", "aws-secrets-manager", false, false},
		{"passThrough", "enabled", false, false},
		{"authVersion", "v1.0.2", false, false},
		{"cookiePolicy", "SameSite=Lax", false, false},
		{"licenseKey", "MIT", false, false},
		{"seed", 42.0, false, false},
		{"credentialsJson", `{"type":"service_account","project_id":"demo-42"}`, false, false},
		{"monkey", "k3J9xQ2mP8vL5nR7x", false, false},
		// A word about a credential under a credential's own name passes
		// both: the manifest judges values as lint does (issue 26: no
		// refusal of benign input).
		{"auth_token", "required", false, false},
		{"apiKey", "required", false, false},
		{"token", "JWT", false, false},
		{"password", "none", false, false},
		{"credentials", "same-origin", false, false},
		{"secret", false, false, false},
		{"credentials", "https://auth.example.com/.well-known/openid-configuration", false, false},
		// A short word under "token" cannot be told from a short token:
		// refused, and the message says to name it for what it is.
		{"token", "USDC", true, true},
		{"tokenSymbol", "USDC", false, false},
	}
	rows = append(rows, attackRows(t)...)
	for _, tc := range rows {
		doc := map[string]any{"name": "A", "description": "An agent.", "capabilities": map[string]any{
			"extensions": []any{map[string]any{"uri": "https://e.example/ext", "params": map[string]any{tc.name: tc.value}}}}}
		b, _ := json.Marshal(doc)
		dec, err := card.Decode(b, card.Strict)
		if err != nil {
			t.Fatal(err)
		}
		linted := slices.ContainsFunc(lint.Card(dec), func(f lint.Finding) bool { return f.Rule == lintrule.CredentialInCard })
		refused := manifestRefuses(t, tc.name, tc.value)
		if linted != tc.lint || refused != tc.manifest {
			t.Errorf("%s = %v: lint reports it %v (want %v), the manifest refuses it %v (want %v)", tc.name, tc.value, linted, tc.lint, refused, tc.manifest)
		}
	}
	doc := []byte(`{"name":"A","description":"An agent.","documentationUrl":"https://docs.example/guide?sig=AbC123xyz789"}`)
	dec, _ := card.Decode(doc, card.Strict)
	if !slices.ContainsFunc(lint.Card(dec), func(f lint.Finding) bool { return f.Rule == lintrule.CredentialInCard }) {
		t.Error("lint misses ?sig=, which the manifest refuses in a URL")
	}
}
