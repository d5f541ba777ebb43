package site

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/layout"
)

// URLPaths maps each file of a built tree to the URL paths it is served at.
func URLPaths(tree map[string][]byte) map[string][]string {
	out := map[string][]string{}
	for name := range tree {
		p := "/" + name
		out[name] = []string{p}
		if dir, ok := strings.CutSuffix(p, "index.html"); ok {
			out[name] = append(out[name], dir)
		}
	}
	return out
}

// TestHeadersFile parses the emitted _headers back and checks what every
// file of the example site gets.
func TestHeadersFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildExample(t, out, "ed25519")
	tree := readTree(t, out)
	rules, err := ParseHeaders(string(tree[layout.HeadersFile]))
	if err != nil {
		t.Fatal(err)
	}
	machine := 0
	for name, paths := range URLPaths(tree) {
		if name == layout.HeadersFile || name == ".nojekyll" {
			continue
		}
		for _, p := range paths {
			h := HeadersFor(rules, p)
			for k, v := range h {
				if strings.Contains(v, ", ") && k != "Cache-Control" {
					t.Errorf("%s: %s joined from several rules: %q", p, k, v)
				}
			}
			if strings.Count(h["Cache-Control"], "max-age") != 1 || !strings.Contains(h["Cache-Control"], "stale-while-revalidate=") {
				t.Errorf("%s: Cache-Control %q", p, h["Cache-Control"])
			}
			if h["X-Content-Type-Options"] != "nosniff" {
				t.Errorf("%s: no nosniff", p)
			}
			if h["Content-Type"] == "" {
				t.Errorf("%s: no Content-Type", p)
			}
			if IsMachineReadable(p) {
				machine++
				if h["Access-Control-Allow-Origin"] != "*" || h["Content-Type"] != "application/json" || h["Cache-Control"] != "public, max-age=300, stale-while-revalidate=60" {
					t.Errorf("%s: %v", p, h)
				}
			} else if h["Access-Control-Allow-Origin"] != "" {
				t.Errorf("%s: CORS on a non-card file", p)
			}
			if strings.HasSuffix(p, ".html") || strings.HasSuffix(p, "/") {
				if h["Content-Type"] != "text/html; charset=utf-8" || h["Cache-Control"] != "public, max-age=600, stale-while-revalidate=60" {
					t.Errorf("%s: %v", p, h)
				}
			}
			// What serve sends, but for caching, is what production sends.
			want := Headers(p)
			for k, v := range want {
				if h[k] != v {
					t.Errorf("%s: %s: _headers gives %q, serve sends %q", p, k, h[k], v)
				}
			}
		}
	}
	if machine != 10 {
		t.Errorf("%d card/JWKS/catalog files checked, want 10", machine)
	}
}

func TestMatchPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"/*", "/", true},
		{"/*", "/a/b.json", true},
		{"/.well-known/*", "/.well-known/jwks.json", true},
		{"/.well-known/*", "/agents/x/.well-known/agent.json", false},
		{"/agents/:id/.well-known/*", "/agents/x/.well-known/agent.json", true},
		{"/agents/:id/", "/agents/x/", true},
		{"/agents/:id/", "/agents/x/index.html", false},
		{"/agents/:id/", "/agents//", false},
		{"/", "/", true},
		{"/", "/index.html", false},
	} {
		if got := matchPattern(tc.pattern, tc.path); got != tc.want {
			t.Errorf("matchPattern(%q, %q) = %v", tc.pattern, tc.path, got)
		}
	}
}

// TestHeadersFileMCP: Server Cards get JSON, CORS (with the methods and
// headers MCP's discovery document asks for) and the cards' caching, in
// _headers as from serve; MCP pages are pages.
func TestHeadersFileMCP(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildMCPExample(t, out, "ed25519")
	tree := readTree(t, out)
	rules, err := ParseHeaders(string(tree[layout.HeadersFile]))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/mcp/weather/server-card.json", "/mcp/notes/server-card.json"} {
		h := HeadersFor(rules, p)
		want := map[string]string{
			"Content-Type": "application/json", "Access-Control-Allow-Origin": "*",
			"Access-Control-Allow-Methods": "GET", "Access-Control-Allow-Headers": "Content-Type, If-None-Match",
			"Access-Control-Expose-Headers": "ETag", "Cache-Control": CacheControl("/.well-known/x.json"),
			"X-Content-Type-Options": "nosniff",
		}
		for k, v := range want {
			if h[k] != v {
				t.Errorf("%s: _headers gives %s %q, want %q", p, k, h[k], v)
			}
		}
		for k, v := range Headers(p) {
			if h[k] != v {
				t.Errorf("%s: %s: _headers gives %q, serve sends %q", p, k, h[k], v)
			}
		}
	}
	for _, p := range []string{"/mcp/weather/", "/mcp/weather/index.html"} {
		if h := HeadersFor(rules, p); h["Content-Type"] != "text/html; charset=utf-8" || h["Access-Control-Allow-Origin"] != "" {
			t.Errorf("%s: %v", p, h)
		}
	}
	if IsServerCard("/mcp/../server-card.json") || IsServerCard("/mcp//server-card.json") || IsServerCard("/mcp/a/b/server-card.json") || !IsServerCard("/mcp/a/server-card.json") {
		t.Error("IsServerCard takes paths that are not a server's")
	}
}
