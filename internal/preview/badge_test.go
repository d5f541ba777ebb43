package preview

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentcards/agentcards/internal/keyring"
)

// startWithAllTestKeys serves the example signed with every test key
// (Ed25519, ES256, RS256, PS256): each card carries four signatures. It
// returns the kid and alg of each key.
func startWithAllTestKeys(t *testing.T) (*Server, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, "../../agents.toml", filepath.Join(dir, "agents.toml"))
	for _, f := range []string{"index.md", "verify.md", "agents/travel-planner.md"} {
		copyFile(t, filepath.Join("../../site", f), filepath.Join(dir, "site", f))
	}
	pubs, _ := filepath.Glob("../../testdata/keys/public/*.json")
	algs := map[string]string{}
	for _, p := range pubs {
		copyFile(t, p, filepath.Join(dir, "keys", filepath.Base(p)))
		var k struct{ KID, Alg string }
		b, err := os.ReadFile(p)
		if err != nil || json.Unmarshal(b, &k) != nil {
			t.Fatalf("%s: %v", p, err)
		}
		algs[k.KID] = k.Alg
	}
	var pems []string
	for _, a := range []string{"ed25519", "es256", "rs256", "ps256"} {
		pems = append(pems, "../../testdata/keys/test-"+a+".pem")
	}
	privs, err := keyring.Read(pems, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(algs) != 4 || len(privs) != 4 {
		t.Fatalf("%d public and %d private test keys, want 4 of each", len(algs), len(privs))
	}
	return start(t, filepath.Join(dir, "agents.toml"), privs), algs
}

// serveCopies serves copies of the site s last built, on loopback below
// /good/ (as it is), /bad/ (with one character of the travel planner's
// description changed in its agent-card.json, every other byte kept),
// /less/ (as /bad/, and its JWKS without the Ed25519 key) and /rootonly/
// (the same change in the root's copy of that card only), with a
// Content-Security-Policy that allows only the site's own scripts and
// connections.
func serveCopies(t *testing.T, s *Server) string {
	t.Helper()
	s.mu.RLock()
	built := s.current
	s.mu.RUnlock()
	root := t.TempDir()
	for _, name := range []string{"good", "bad", "less", "rootonly"} {
		if err := os.CopyFS(filepath.Join(root, name), os.DirFS(built)); err != nil {
			t.Fatal(err)
		}
	}
	cardPath := filepath.Join(root, "bad", "agents", "travel-planner", ".well-known", "agent-card.json")
	b, err := os.ReadFile(cardPath)
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Description string }
	if err := json.Unmarshal(b, &c); err != nil || len(c.Description) < 20 {
		t.Fatalf("the travel planner's card: %v", err)
	}
	i := strings.Index(string(b), c.Description[:20])
	if i < 0 {
		t.Fatal("the card's description is not in its text as it is")
	}
	b[i] ^= 0x20 // a letter's case
	for _, name := range []string{"bad", "less"} {
		if err := os.WriteFile(filepath.Join(root, name, "agents", "travel-planner", ".well-known", "agent-card.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// rootonly: the same change in the default agent's copy at the root.
	if err := os.WriteFile(filepath.Join(root, "rootonly", ".well-known", "agent-card.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	jwksPath := filepath.Join(root, "less", ".well-known", "jwks.json")
	var jwks struct {
		Keys []map[string]any `json:"keys"`
	}
	if b, err = os.ReadFile(jwksPath); err != nil || json.Unmarshal(b, &jwks) != nil {
		t.Fatalf("%s: %v", jwksPath, err)
	}
	jwks.Keys = slices.DeleteFunc(jwks.Keys, func(k map[string]any) bool { return k["kty"] == "OKP" })
	if b, err = json.Marshal(jwks); err != nil || os.WriteFile(jwksPath, b, 0o644) != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(root))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "script-src 'self'; connect-src 'self'")
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// badgeState opens url and waits for #card-signature to leave "checking":
// its data-state and text.
func badgeState(t *testing.T, ctx context.Context, url string) (state, text string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID("card-signature"))); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	state, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => { const s = document.getElementById('card-signature').getAttribute('data-state'); return s && s !== 'checking' ? s : false })()`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("%s: #card-signature did not leave \"checking\": %v", url, err)
	}
	text, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('card-signature').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s: %s", url, state, text)
	return state, text
}

// newTab opens a tab of the browser bctx that runs script in every page
// before the page's own scripts.
func newTab(t *testing.T, bctx context.Context, script string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestBrowserSignatureBadge drives headless Chromium over built sites on
// loopback: an agent page says, from signature.js's check in the browser,
// that its card verifies and which keys signed it (Ed25519 alone, then
// Ed25519, ES256, RS256 and PS256 together, on a copy served below a path
// with a Content-Security-Policy of script-src 'self'; connect-src 'self');
// that a card with one character changed fails; that a browser without
// Ed25519 reports "unsupported"; and, without JavaScript, that the check
// needs it. Screenshots go to the artifacts.
func TestBrowserSignatureBadge(t *testing.T) {
	exe := chromium(t)
	out := artifacts(t)
	ed := startExample(t)
	all, algs := startWithAllTestKeys(t)
	copies := serveCopies(t, all)
	bctx, dialogs := browser(t, exe)
	const edKID = "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM"
	// shot saves the page's top (the badge sits under the title).
	shot := func(ctx context.Context, name string) {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := newTab(t, bctx, `window.cspViolations = []; document.addEventListener('securitypolicyviolation', e => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI))`)

	// Ed25519, as serve builds the example.
	state, text := badgeState(t, ctx, ed.URL+"/agents/invoice-reader/")
	if want := "Signature verified: signed by key " + edKID + " (EdDSA) from this site's /.well-known/jwks.json."; state != "verified" || text != want {
		t.Errorf("Ed25519 site: %s %q, want verified %q", state, text, want)
	}
	shot(ctx, "badge-verified.png")

	// Four algorithms, below a path, under a CSP.
	state, text = badgeState(t, ctx, copies+"/good/agents/travel-planner/")
	if state != "verified" || !strings.Contains(text, "from this site's /good/.well-known/jwks.json") {
		t.Errorf("four-key site: %s %q", state, text)
	}
	for kid, alg := range algs {
		if !strings.Contains(text, "key "+kid+" ("+alg+")") {
			t.Errorf("four-key site: the badge does not name key %s (%s): %q", kid, alg, text)
		}
	}
	csp, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.cspViolations`))
	if err != nil || len(csp) > 0 {
		t.Errorf("Content-Security-Policy violations (%v): %v", err, csp)
	}

	// One character of the card changed.
	state, text = badgeState(t, ctx, copies+"/bad/agents/travel-planner/")
	if state != "failed" || !strings.HasPrefix(text, "Signature check failed: the card does not match the signatures of") {
		t.Errorf("altered card: %s %q, want failed", state, text)
	}
	for kid, alg := range algs {
		if !strings.Contains(text, "key "+kid+" ("+alg+")") {
			t.Errorf("altered card: the badge does not name key %s (%s): %q", kid, alg, text)
		}
	}
	shot(ctx, "badge-failed.png")
	// The default agent's page checks its copy at the root too.
	state, text = badgeState(t, ctx, copies+"/rootonly/agents/travel-planner/")
	if state != "failed" || !strings.HasPrefix(text, "Signature check failed (the copy at /rootonly/.well-known/agent-card.json): the card does not match") {
		t.Errorf("root copy altered: %s %q, want failed", state, text)
	}
	// An unaltered agent of the same copy still verifies.
	if state, text = badgeState(t, ctx, copies+"/bad/agents/invoice-reader/"); state != "verified" {
		t.Errorf("unaltered card beside the altered one: %s %q", state, text)
	}
	// A key gone from the JWKS: the others still vouch for the card, and
	// for an altered card that key's signature is refused by kid.
	if state, text = badgeState(t, ctx, copies+"/less/agents/invoice-reader/"); state != "verified" || strings.Contains(text, edKID) {
		t.Errorf("JWKS without the Ed25519 key: %s %q, want verified by the three others", state, text)
	}
	if state, text = badgeState(t, ctx, copies+"/less/agents/travel-planner/"); state != "failed" || !strings.Contains(text, "key "+edKID+" (EdDSA): the key is not in this site's JWKS") {
		t.Errorf("JWKS without the Ed25519 key, altered card: %s %q", state, text)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	badgeState(t, ctx, copies+"/good/agents/travel-planner/")
	if overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)); err != nil || overflow {
		t.Errorf("the agent page with its badge scrolls sideways on a phone (%v)", err)
	}
	shot(ctx, "badge-phone.png")

	// A browser without Ed25519 in WebCrypto.
	noEd := newTab(t, bctx, `(() => { const s = crypto.subtle, imp = s.importKey.bind(s);
		s.importKey = (f, k, a, ...r) => (a === 'Ed25519' || a && a.name === 'Ed25519') ? Promise.reject(new DOMException('no Ed25519', 'NotSupportedError')) : imp(f, k, a, ...r); })()`)
	state, text = badgeState(t, noEd, ed.URL+"/agents/invoice-reader/")
	if state != "unsupported" || !strings.Contains(text, "cannot check EdDSA signatures") {
		t.Errorf("no Ed25519: %s %q, want unsupported", state, text)
	}
	shot(noEd, "badge-unsupported.png")
	// The other keys still verify the card there.
	if state, text = badgeState(t, noEd, copies+"/good/agents/travel-planner/"); state != "verified" || strings.Contains(text, edKID) {
		t.Errorf("no Ed25519, four keys: %s %q, want verified by the three others", state, text)
	}

	// Without JavaScript.
	noJS, cancel := chromedp.NewContext(bctx)
	defer cancel()
	noScript := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})
	if err := chromedp.Do(noJS, noScript, chromedp.Navigate(ed.URL+"/agents/invoice-reader/"), chromedp.WaitVisible(chromedp.ID("card-signature"))); err != nil {
		t.Fatal(err)
	}
	text, err = chromedp.Run(noJS, chromedp.Text(chromedp.ID("card-signature")))
	if err != nil || !strings.Contains(text, "needs JavaScript") || !strings.Contains(text, "agentcards verify") {
		t.Errorf("without JavaScript (%v): %q", err, text)
	}
	if *dialogs > 0 {
		t.Errorf("%d JavaScript dialogs opened", *dialogs)
	}
}
