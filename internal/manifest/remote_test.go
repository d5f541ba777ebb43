package manifest

import "testing"

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
