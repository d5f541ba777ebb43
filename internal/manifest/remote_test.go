package manifest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRebaseURL: an interface URL's path and query are appended to the
// gateway's path, whatever slashes either has.
func TestRebaseURL(t *testing.T) {
	for _, c := range []struct{ gateway, from, want string }{
		{"https://gw.example.com/a2a/x", "https://partner.example.com/a2a/rpc", "https://gw.example.com/a2a/x/a2a/rpc"},
		{"https://gw.example.com/a2a/x/", "https://partner.example.com/a2a/rpc", "https://gw.example.com/a2a/x/a2a/rpc"},
		{"https://gw.example.com/a2a/x", "https://partner.example.com", "https://gw.example.com/a2a/x"},
		{"https://gw.example.com/a2a/x/", "https://partner.example.com/", "https://gw.example.com/a2a/x/"},
		{"https://gw.example.com/a2a/x", "https://partner.example.com/", "https://gw.example.com/a2a/x/"},
		{"https://gw.example.com", "https://partner.example.com:8443/v1/rpc?tenant=a", "https://gw.example.com/v1/rpc?tenant=a"},
		{"https://gw.example.com/x", "https://partner.example.com/a%20b", "https://gw.example.com/x/a%20b"},
	} {
		got, err := RebaseURL(c.gateway, c.from)
		if err != nil || got != c.want {
			t.Errorf("RebaseURL(%q, %q) = %q, %v; want %q", c.gateway, c.from, got, err, c.want)
		}
	}
	if _, err := RebaseURL("https://gw.example.com", "/relative"); err == nil {
		t.Error("a relative interface URL was rebased")
	}
}

// TestRebaseURLDotSegments: an owner's interface URL whose path has "."
// or ".." segments, in any spelling a client's URL parser resolves, is
// refused: appended to the gateway's path, it would lead out of it (to
// any path of the gateway's host, another agent's route among them).
func TestRebaseURLDotSegments(t *testing.T) {
	for _, from := range []string{
		"https://partner.example.com/a2a/../../../admin",
		"https://partner.example.com/..",
		"https://partner.example.com/a2a/./rpc",
		"https://partner.example.com/x/%2e%2e/%2e%2e/a2a/other",
		"https://partner.example.com/x/%2E./.%2e/a2a/other",
		"https://partner.example.com/x/%2e",
	} {
		if got, err := RebaseURL("https://gw.example.com/a2a/x", from); err == nil {
			t.Errorf("RebaseURL(%q) = %q, want an error", from, got)
		}
	}
	for _, from := range []string{
		"https://partner.example.com/a2a/..rpc",
		"https://partner.example.com/a2a/v1.0/rpc",
		"https://partner.example.com/a2a/.well-known/x",
	} {
		if _, err := RebaseURL("https://gw.example.com/a2a/x", from); err != nil {
			t.Errorf("RebaseURL(%q): %v", from, err)
		}
	}
}

// TestCaseVariantMembers: a card member spelt with other letter case than
// A2A's (which encoding/json would read as the member, and clients do not)
// is refused with where it is; the exact spelling passes.
func TestCaseVariantMembers(t *testing.T) {
	for _, c := range []struct{ card, want string }{
		{`{"name":"P","Skills":[{"id":"s","name":"s","description":"d","tags":["t"]}]}`, `the card has a member "Skills", which A2A spells "skills"`},
		{`{"name":"P","skills":[{"id":"s","name":"s","description":"d","Tags":["t"]}]}`, `skills[0] has a member "Tags", which A2A spells "tags"`},
		{`{"name":"P","securitySchemes":{"k":{"apiKeySecurityScheme":{"Location":"header","name":"X"}}}}`, `securitySchemes.k.apiKeySecurityScheme has a member "Location"`},
		{`{"name":"P","skills":[{"id":"s","name":"s","description":"d","tags":["t"]}],"unknownMember":1}`, ``},
	} {
		var tree map[string]any
		if err := json.Unmarshal([]byte(c.card), &tree); err != nil {
			t.Fatal(err)
		}
		_, err := agentFromCard(tree)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.card, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want %q", c.card, err, c.want)
		}
	}
}
