package preview

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/site"
)

// copyFile copies src to dst, making dst's folder.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// startExample serves a copy of the repository's example (agents.toml and
// site/) signed with the Ed25519 test key, until the test ends.
func startExample(t *testing.T) *Server {
	t.Helper()
	dir, privs := exampleProject(t)
	return start(t, filepath.Join(dir, "agents.toml"), privs)
}

// exampleProject is a copy of the repository's example (agents.toml and
// site/) that publishes the Ed25519 test key, and that key.
func exampleProject(t *testing.T) (string, []keyring.Private) {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, "../../agents.toml", filepath.Join(dir, "agents.toml"))
	for _, f := range []string{"index.md", "verify.md", "agents/travel-planner.md"} {
		copyFile(t, filepath.Join("../../site", f), filepath.Join(dir, "site", f))
	}
	return dir, testKey(t, dir)
}

// startMCPExample serves testdata/mcp (an agent and two MCP servers).
func startMCPExample(t *testing.T) *Server {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, "../../testdata/mcp/agents.toml", filepath.Join(dir, "agents.toml"))
	copyFile(t, "../../testdata/mcp/weather.json", filepath.Join(dir, "weather.json"))
	return startWithTestKey(t, dir)
}

// startWithTestKey serves the agents.toml in dir, signed with the
// published Ed25519 test key.
func startWithTestKey(t *testing.T, dir string) *Server {
	t.Helper()
	return start(t, filepath.Join(dir, "agents.toml"), testKey(t, dir))
}

// testKey puts the Ed25519 test key's public half in dir's keys folder and
// returns the key.
func testKey(t *testing.T, dir string) []keyring.Private {
	t.Helper()
	const kid = "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM"
	copyFile(t, "../../testdata/keys/public/"+kid+".json", filepath.Join(dir, "keys", kid+".json"))
	privs, err := keyring.Read([]string{"../../testdata/keys/test-ed25519.pem"}, "")
	if err != nil {
		t.Fatal(err)
	}
	return privs
}

func start(t *testing.T, manifestPath string, privs []keyring.Private) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Start(ctx, Config{Manifest: manifestPath, Addr: "127.0.0.1:0", Keys: privs, Poll: 50 * time.Millisecond, Log: io.Discard})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-srv.Done():
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	if n, e := srv.Status(); n != 1 || e != "" {
		t.Fatalf("first build: %d builds, error %q", n, e)
	}
	return srv
}

func get(t *testing.T, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestHeaders(t *testing.T) {
	srv := startExample(t)
	for _, p := range []string{"/.well-known/agent-card.json", "/.well-known/jwks.json", "/.well-known/ai-catalog.json", "/agents/invoice-reader/.well-known/agent.json"} {
		resp, body := get(t, srv.URL+p)
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Content-Type") != "application/json" || h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Cache-Control") != "no-cache" || h.Get("ETag") == "" {
			t.Errorf("%s: %d %v", p, resp.StatusCode, h)
		}
		// jku and links point at the preview, not at the real baseUrl.
		if strings.Contains(p, "ai-catalog") && !strings.Contains(body, srv.URL+"/agents/") {
			t.Errorf("catalog does not use the local address: %s", body)
		}
		resp2, _ := get(t, srv.URL+p, "If-None-Match", h.Get("ETag"))
		if resp2.StatusCode != http.StatusNotModified {
			t.Errorf("%s: If-None-Match gave %d", p, resp2.StatusCode)
		}
	}
	// serve sends what the _headers file gives production, caching aside.
	_, hf := get(t, srv.URL+"/_headers")
	rules, err := site.ParseHeaders(hf)
	if err != nil || len(rules) < 5 {
		t.Fatalf("_headers: %v (%d rules)", err, len(rules))
	}
	for _, p := range []string{"/", "/index.html", "/agents/travel-planner/", "/.well-known/jwks.json", "/agents/travel-planner/.well-known/agent-card.json", "/style.css", "/search.js", "/search-index.json", "/sitemap.xml", "/robots.txt", "/verify/"} {
		resp, _ := get(t, srv.URL+p)
		for k, v := range site.HeadersFor(rules, p) {
			if k == "Cache-Control" {
				continue
			}
			if got := resp.Header.Get(k); got != v {
				t.Errorf("%s: %s: serve sends %q, _headers says %q", p, k, got, v)
			}
		}
	}
	resp, _ := get(t, srv.URL+"/agents/invoice-reader/")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("page: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = get(t, srv.URL+"/agents/invoice-reader")
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/agents/invoice-reader/" {
		t.Errorf("folder without slash: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body := get(t, srv.URL+"/no/such/page")
	if resp.StatusCode != 404 || !strings.Contains(body, "Not found") {
		t.Errorf("missing page: %d", resp.StatusCode)
	}
	resp, _ = get(t, srv.URL+"/.well-known/missing.json")
	if resp.StatusCode != 404 {
		t.Errorf("missing card: %d (a missing card must not look like a 200)", resp.StatusCode)
	}
}

// TestServerCardServed: serve answers a Server Card as JSON with CORS, an
// ETag and a 304 for it.
func TestServerCardServed(t *testing.T) {
	srv := startMCPExample(t)
	resp, body := get(t, srv.URL+"/mcp/weather/server-card.json")
	h := resp.Header
	if resp.StatusCode != 200 || h.Get("Content-Type") != "application/json" || h.Get("Access-Control-Allow-Origin") != "*" ||
		h.Get("Access-Control-Expose-Headers") != "ETag" || h.Get("ETag") == "" || !strings.Contains(body, `"name": "com.example/weather"`) {
		t.Fatalf("%d %v\n%s", resp.StatusCode, h, body)
	}
	if resp2, _ := get(t, srv.URL+"/mcp/weather/server-card.json", "If-None-Match", h.Get("ETag")); resp2.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match gave %d", resp2.StatusCode)
	}
	// A browser's preflight for a conditional request.
	req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/mcp/weather/server-card.json", nil)
	req.Header.Set("Origin", "https://elsewhere.example")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "if-none-match")
	pre, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	pre.Body.Close()
	if pre.StatusCode != http.StatusNoContent || pre.Header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(pre.Header.Get("Access-Control-Allow-Headers"), "If-None-Match") {
		t.Errorf("preflight: %d %v", pre.StatusCode, pre.Header)
	}
	_, cat := get(t, srv.URL+"/.well-known/ai-catalog.json")
	if !strings.Contains(cat, srv.URL+"/mcp/weather/server-card.json") {
		t.Errorf("the catalog does not point at the preview's Server Card: %s", cat)
	}
}

// waitUntil polls ok until it holds, failing the test after 60 seconds
// (a generous bound: CI runs the packages side by side).
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRebuild: a change rebuilds; a broken manifest keeps the last good
// site with the error on every page; fixing it recovers.
func TestRebuild(t *testing.T) {
	srv := startExample(t)
	manifestPath := srv.cfg.Manifest
	good, _ := os.ReadFile(manifestPath)
	waitFor := func(what string, ok func() bool) { t.Helper(); waitUntil(t, what, ok) }
	// A change: the title.
	os.WriteFile(manifestPath, []byte(strings.Replace(string(good), `title = "Example Co. agents"`, `title = "Renamed agents"`, 1)), 0o644)
	waitFor("the rebuild", func() bool { n, _ := srv.Status(); return n == 2 })
	if _, body := get(t, srv.URL+"/"); !strings.Contains(body, "Renamed agents") {
		t.Error("rebuilt site not served")
	}
	// Broken: last good site, error shown.
	os.WriteFile(manifestPath, []byte(strings.Replace(string(good), `version = "2.4.1"`, `version = ""`, 1)), 0o644)
	// os.WriteFile truncates before it writes: a rebuild may read the
	// file half written, fail otherwise, and the watcher then rebuilds
	// once more. Wait for this change's error.
	waitFor("the failure", func() bool { _, e := srv.Status(); return strings.Contains(e, "version: must not be empty") })
	resp, body := get(t, srv.URL+"/")
	if resp.StatusCode != 200 || !strings.Contains(body, "Renamed agents") || !strings.Contains(body, `role="alert"`) || !strings.Contains(body, `agents[&#34;travel-planner&#34;].version: must not be empty`) {
		t.Errorf("failed rebuild: %d\n%s", resp.StatusCode, body[:min(len(body), 600)])
	}
	if _, card := get(t, srv.URL+"/.well-known/agent-card.json"); strings.Contains(card, "alert") {
		t.Error("banner injected into a card")
	}
	// The page says which generation it is: a page loaded just before a
	// rebuild that asks after it still reloads.
	if _, g := get(t, srv.URL+GenerationPath); !strings.Contains(body, ` data-generation="`+g+`" `) {
		t.Errorf("the page does not carry the generation %s it was served at", g)
	}
	// Fixed: recovers, banner gone.
	os.WriteFile(manifestPath, good, 0o644)
	waitFor("the recovery", func() bool { n, e := srv.Status(); return n == 3 && e == "" })
	if _, body := get(t, srv.URL+"/"); strings.Contains(body, `role="alert"`) {
		t.Error("banner still shown")
	}
}

// TestRebuildOnSnapshot: serve watches the MCP snapshots the manifest
// names, shows a broken one as an error, and recovers when it is fixed;
// the synthesized card points at the preview, like every other card.
func TestRebuildOnSnapshot(t *testing.T) {
	srv := startMCPExample(t)
	snapshot := filepath.Join(filepath.Dir(srv.cfg.Manifest), "weather.json")
	good, _ := os.ReadFile(snapshot)
	waitFor := func(what string, ok func() bool) { t.Helper(); waitUntil(t, what, ok) }
	if _, card := get(t, srv.URL+"/agents/weather/.well-known/agent-card.json"); !strings.Contains(card, `"serverCard": "`+srv.URL+`/mcp/weather/server-card.json"`) {
		t.Errorf("the synthesized card does not point at the preview:\n%s", card)
	}
	os.WriteFile(snapshot, []byte(strings.Replace(string(good), "Check that the server answers.", "Check that the weather answers.", 1)), 0o644)
	waitFor("the rebuild", func() bool { n, _ := srv.Status(); return n == 2 })
	if _, page := get(t, srv.URL+"/mcp/weather/"); !strings.Contains(page, "Check that the weather answers.") {
		t.Error("the changed snapshot is not served")
	}
	os.WriteFile(snapshot, []byte("{"), 0o644)
	waitFor("the failure", func() bool { _, e := srv.Status(); return e != "" })
	if _, e := srv.Status(); !strings.Contains(e, "weather.json") {
		t.Errorf("error %q does not name the snapshot", e)
	}
	os.WriteFile(snapshot, good, 0o644)
	waitFor("the recovery", func() bool { n, e := srv.Status(); return n == 3 && e == "" })
}

func TestForeignHostRefused(t *testing.T) {
	srv := startExample(t)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	req.Host = "attacker.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host attacker.example: %d", resp.StatusCode)
	}
}

func TestLoopbackOnly(t *testing.T) {
	_, err := Start(context.Background(), Config{Manifest: "x", Addr: "0.0.0.0:0"})
	if err == nil || !strings.Contains(err.Error(), "loopback only") {
		t.Errorf("got %v", err)
	}
}

// TestReloadScript: preview pages load the reload script, cards do not,
// and the generation moves on every rebuild, failed ones too.
func TestReloadScript(t *testing.T) {
	srv := startExample(t)
	_, g := get(t, srv.URL+GenerationPath)
	tag := `<script src="` + ReloadScriptPath + `" data-generation="` + g + `" defer></script>`
	if _, body := get(t, srv.URL+"/"); !strings.Contains(body, tag) {
		t.Error("the index does not load the reload script")
	}
	if _, card := get(t, srv.URL+"/.well-known/agent-card.json"); strings.Contains(card, "reload") {
		t.Error("the script was put in a card")
	}
	if resp, js := get(t, srv.URL+ReloadScriptPath); resp.StatusCode != 200 || !strings.Contains(js, GenerationPath) || !strings.Contains(js, "location.reload()") {
		t.Errorf("script: %d %s", resp.StatusCode, js)
	}
	_, g1 := get(t, srv.URL+GenerationPath)
	good, _ := os.ReadFile(srv.cfg.Manifest)
	os.WriteFile(srv.cfg.Manifest, []byte(strings.Replace(string(good), `version = "2.4.1"`, `version = ""`, 1)), 0o644)
	waitUntil(t, "the failure", func() bool { _, e := srv.Status(); return e != "" })
	if _, g2 := get(t, srv.URL+GenerationPath); g2 == g1 {
		t.Errorf("generation %s did not move on a failed rebuild", g1)
	}
}
