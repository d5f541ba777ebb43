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
