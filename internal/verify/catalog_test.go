package verify

import "testing"

// TestPublisherVouch: an identifier's publisher is vouched for by the
// keys of an origin on that domain only (or, for a .localhost publisher,
// of a loopback origin).
func TestPublisherVouch(t *testing.T) {
	for _, c := range []struct {
		id, keys, warning string
	}{
		{"urn:air:b.example:a2a:x", "https://b.example/.well-known/jwks.json", ""},
		{"urn:air:B.Example.:a2a:x", "https://b.example:8443/.well-known/jwks.json", ""},
		{"urn:air:a.example:a2a:x", "https://b.example/.well-known/jwks.json", "its identifier claims publisher a.example, but its card was signed by the keys of https://b.example, not by a.example's (-strict refuses it)"},
		{"urn:air:example.com:a2a:x", "https://agents.example.com/.well-known/jwks.json", "its identifier claims publisher example.com, but its card was signed by the keys of https://agents.example.com, not by example.com's (-strict refuses it)"},
		{"urn:air:agents.example.com:a2a:x", "https://example.com/.well-known/jwks.json", "its identifier claims publisher agents.example.com, but its card was signed by the keys of https://example.com, not by agents.example.com's (-strict refuses it)"},
		{"urn:air:agent.localhost:a2a:x", "http://127.0.0.1:8080/.well-known/jwks.json", ""},
		{"urn:air:agent.localhost:a2a:x", "https://b.example/.well-known/jwks.json", "its identifier claims publisher agent.localhost, but its card was signed by the keys of https://b.example, not by agent.localhost's (-strict refuses it)"},
		{"urn:air:b.example:a2a:x", "keys.json", "its identifier claims publisher b.example, but its card was signed by the keys in keys.json (-jwks), which no origin vouches for as b.example's (-strict refuses it)"},
		{"not-a-urn", "https://b.example/.well-known/jwks.json", ""},
	} {
		e := Entry{Identifier: c.id, Outcome: OutcomeVerified}
		vouch(&e, &Card{JWKS: c.keys, Verified: true}, false)
		if e.Warning != c.warning {
			t.Errorf("%s with %s: warning %q, want %q", c.id, c.keys, e.Warning, c.warning)
		}
		if e.VouchedBy == "" {
			t.Errorf("%s with %s: no vouchedBy", c.id, c.keys)
		}
		strict := Entry{Identifier: c.id, Outcome: OutcomeVerified}
		vouch(&strict, &Card{JWKS: c.keys, Verified: true}, true)
		if refused := strict.Outcome == EntryFailed; refused != (c.warning != "") {
			t.Errorf("%s with %s: -strict outcome %s", c.id, c.keys, strict.Outcome)
		}
	}
	// A card that did not verify is vouched for by no one.
	e := Entry{Identifier: "urn:air:a.example:a2a:x", Outcome: OutcomeNotVerified}
	vouch(&e, &Card{JWKS: "https://b.example/.well-known/jwks.json"}, true)
	if e.VouchedBy != "" || e.Warning != "" || e.Outcome != OutcomeNotVerified {
		t.Errorf("a card that failed: %+v", e)
	}
}
