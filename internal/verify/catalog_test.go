package verify

import (
	"strings"
	"testing"
)

// TestPublisherVouch: an identifier's publisher is vouched for by the
// keys of that domain's origin only, on its default port (or, for a
// .localhost publisher, of a loopback origin).
func TestPublisherVouch(t *testing.T) {
	for _, c := range []struct {
		id, keys, warning string
	}{
		{"urn:air:b.example:a2a:x", "https://b.example/.well-known/jwks.json", ""},
		{"urn:air:B.Example.:a2a:x", "https://b.example:443/.well-known/jwks.json", ""},
		{"urn:air:b.example:a2a:x", "https://b.example:8443/.well-known/jwks.json", "its identifier claims publisher b.example, but its card was signed by the keys of https://b.example:8443, not by b.example's (port 8443: an identifier's publisher is its domain's origin on the default port) (-strict refuses it)"},
		{"urn:air:b.example:a2a:x", "http://b.example:443/.well-known/jwks.json", "its identifier claims publisher b.example, but its card was signed by the keys of http://b.example:443, not by b.example's (port 443: an identifier's publisher is its domain's origin on the default port) (-strict refuses it)"},
		{"urn:air:agent.localhost:a2a:x", "http://localhost:8080/.well-known/jwks.json", ""},
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

// TestSitePublisher: a site's catalog may claim only the publisher its
// own origin vouches for: the origin of its base URL, which a verified
// signature's jku must name; on another port than the default, that
// origin vouches for no publisher. A claim of another is a warning, and
// with strict a problem.
func TestSitePublisher(t *testing.T) {
	for _, c := range []struct {
		base   string
		jkus   map[string]bool
		pub    string
		refuse string // what the problem says, "" when none
	}{
		{"https://agents.example.com", map[string]bool{"https://agents.example.com/.well-known/jwks.json": true}, "agents.example.com", ""},
		{"https://agents.example.com", map[string]bool{"https://agents.example.com/.well-known/jwks.json": true}, "", ""},
		{"https://owner.github.io/repo", map[string]bool{"https://owner.github.io/repo/.well-known/jwks.json": true}, "owner.github.io", ""},
		{"http://127.0.0.1:8090", map[string]bool{"http://127.0.0.1:8090/.well-known/jwks.json": true}, "agent.localhost", ""},
		{"https://agents.example.com", map[string]bool{"https://agents.example.com/.well-known/jwks.json": true}, "bank.example",
			"site: catalog entry 0 claims publisher bank.example, but the site is https://agents.example.com (the origin its cards' jku names), not bank.example's: refused (-strict)"},
		{"https://agents.example.com:8443", map[string]bool{"https://agents.example.com:8443/.well-known/jwks.json": true}, "agents.example.com",
			"site: catalog entry 0 claims publisher agents.example.com, but the site is https://agents.example.com:8443 (the origin its cards' jku names), not agents.example.com's (port 8443: an identifier's publisher is its domain's origin on the default port): refused (-strict)"},
		// The catalog's base counts only when a verified signature's jku
		// names its JWKS.
		{"https://agents.example.com", map[string]bool{"https://agents.example.com/.well-known/jwks.json": false}, "agents.example.com",
			"site: catalog entry 0 claims publisher agents.example.com, but no verified signature names the site's JWKS as its jku, so no origin vouches for the publisher the catalog claims: refused (-strict)"},
		{"https://agents.example.com", map[string]bool{}, "agents.example.com",
			"site: catalog entry 0 claims publisher agents.example.com, but no verified signature names the site's JWKS as its jku, so no origin vouches for the publisher the catalog claims: refused (-strict)"},
	} {
		for _, strict := range []bool{false, true} {
			rep := &Report{}
			sitePublisher("site", c.base, c.jkus, strict, rep)("catalog entry 0", c.pub)
			got := rep.Warnings
			want := strings.TrimSuffix(c.refuse, ": refused (-strict)") + " (-strict refuses it)"
			if strict {
				got, want = rep.Problems, c.refuse
			}
			if c.refuse == "" {
				if len(rep.Problems)+len(rep.Warnings) != 0 {
					t.Errorf("%s claiming %q (strict %v): %q %q", c.base, c.pub, strict, rep.Problems, rep.Warnings)
				}
				continue
			}
			if len(got) != 1 || got[0] != want || len(rep.Problems)+len(rep.Warnings) != 1 {
				t.Errorf("%s claiming %q (strict %v): problems %q, warnings %q; want %q", c.base, c.pub, strict, rep.Problems, rep.Warnings, want)
			}
		}
	}
}
