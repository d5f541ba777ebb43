package preview

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/prereq"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// chromium finds Debian's headless browser; without it the test is
// skipped, except under CI, where .ci/run installs it.
func chromium(t *testing.T) string {
	t.Helper()
	return prereq.Chromium(t)
}

// artifacts is where screenshots go: $AGENTCARDS_ARTIFACTS, else a folder
// in the system's temp dir (its path is logged).
func artifacts(t *testing.T) string {
	dir := os.Getenv("AGENTCARDS_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "agentcards-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// TestBrowser drives headless Chromium against `serve` on loopback: the
// index lists the agents, typing in the search box narrows the list, an
// agent page opens; screenshots are saved, and a page that shows an error
// or renders blank fails the test.
func TestBrowser(t *testing.T) {
	exe := chromium(t)
	out := artifacts(t)
	srv := startExample(t)

	bctx, dialogs := browser(t, exe)
	ctx, cancelT := context.WithTimeout(bctx, 90*time.Second)
	defer cancelT()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	visible := `document.querySelectorAll('li.agent:not([hidden])').length`
	shot := func() []byte {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		must(err)
		return b
	}

	// The index: search.js ran, loaded the index, and showed the search box.
	must(chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`form.search`))))
	all, err := chromedp.Run(ctx, chromedp.Evaluate[int](visible))
	must(err)
	shot1 := shot()

	// Typing narrows the list.
	must(chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("q"), "invoice")))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](visible+` === 1`, chromedp.WithPollingTimeout(10*time.Second)))
	must(err)
	narrowed, err := chromedp.Run(ctx, chromedp.Evaluate[int](visible))
	must(err)
	count, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("count")))
	must(err)
	shot2 := shot()

	// The agent page opens.
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li.agent:not([hidden]) h2 a`)), chromedp.WaitVisible(chromedp.CSS(`article.agent-page`))))
	h1, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1")))
	must(err)
	bodyText, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	must(err)
	banner, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[role=alert]') || {textContent: ''}).textContent`))
	must(err)
	shot3 := shot()

	// A phone.
	must(chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`form.search`))))
	overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`))
	must(err)
	if overflow {
		t.Error("the index scrolls sideways on a phone")
	}
	shot4 := shot()

	for name, b := range map[string][]byte{"index.png": shot1, "search.png": shot2, "agent.png": shot3, "index-phone.png": shot4} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if len(b) < 10_000 {
			t.Errorf("%s is only %d bytes: a blank page?", name, len(b))
		}
	}
	if all != 3 {
		t.Errorf("index lists %d agents, want 3", all)
	}
	if narrowed != 1 || !strings.Contains(count, "1 of 3") {
		t.Errorf("search for \"invoice\": %d shown, count %q", narrowed, count)
	}
	if h1 != "Ledger Lens" {
		t.Errorf("agent page h1 = %q", h1)
	}
	for _, want := range []string{"Interfaces", "Security", "Skills", "Extract invoice", "agentcards verify"} {
		if !strings.Contains(bodyText, want) {
			t.Errorf("agent page lacks %q", want)
		}
	}
	if banner != "" {
		t.Errorf("page shows an error: %s", banner)
	}
	if *dialogs > 0 {
		t.Errorf("%d JavaScript dialogs opened", *dialogs)
	}
}

// browser starts headless Chromium for one test; the count of JavaScript
// dialogs opened is kept in *dialogs.
func browser(t *testing.T, exe string) (context.Context, *int) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// Listen starts the browser.
	dialogs := new(int)
	if err := chromedp.Listen(bctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			*dialogs++
		}
	}); err != nil {
		t.Fatal(err)
	}
	return bctx, dialogs
}

// TestBrowserMCP drives headless Chromium over a site with MCP servers:
// the front page lists them, the search finds a server by a tool's name
// and opens its page, which shows the tools' parameter tables and fits a
// phone's width.
func TestBrowserMCP(t *testing.T) {
	exe := chromium(t)
	out := artifacts(t)
	srv := startMCPExample(t)
	bctx, dialogs := browser(t, exe)
	ctx, cancelT := context.WithTimeout(bctx, 90*time.Second)
	defer cancelT()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	shot := func(name string) {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		must(err)
		must(os.WriteFile(filepath.Join(out, name), b, 0o644))
		if len(b) < 10_000 {
			t.Errorf("%s is only %d bytes: a blank page?", name, len(b))
		}
	}
	must(chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`form.search`))))
	servers, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('section.mcp-list li.agent').length`))
	must(err)
	shot("mcp-index.png")

	// A tool's name finds its server; the result opens the server's page.
	must(chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("q"), "get_forecast")))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#agents a[href$="mcp/weather/"]').length === 1`, chromedp.WithPollingTimeout(10*time.Second)))
	must(err)
	count, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("count")))
	must(err)
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#agents a[href$="mcp/weather/"]`)), chromedp.WaitVisible(chromedp.CSS(`article.mcp-page`))))
	h1, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1")))
	must(err)
	// The first table is the input's: city, days, units.
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelector('#tool-get_forecast table').tBodies[0].rows.length`))
	must(err)
	shot("mcp.png")
	must(chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`article.mcp-page`))))
	overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`))
	must(err)
	shot("mcp-390.png")

	if servers != 2 {
		t.Errorf("the front page lists %d MCP servers, want 2", servers)
	}
	if !strings.Contains(count, "agents and MCP servers") {
		t.Errorf("search count %q", count)
	}
	if h1 != "Weather" {
		t.Errorf("MCP page h1 = %q", h1)
	}
	if rows != 3 {
		t.Errorf("get_forecast's parameter table has %d rows, want 3", rows)
	}
	if overflow {
		t.Error("the MCP page scrolls sideways on a phone")
	}
	if *dialogs > 0 {
		t.Errorf("%d JavaScript dialogs opened", *dialogs)
	}
}

// TestBrowserReloads: a page open in the browser reloads by itself after
// a rebuild, showing the new site, and the error of a failed one.
func TestBrowserReloads(t *testing.T) {
	exe := chromium(t)
	srv := startExample(t)
	bctx, _ := browser(t, exe)
	// Generous bounds: under a loaded machine (CI runs the packages side
	// by side) a rebuild and a reload can take many seconds.
	ctx, cancel := context.WithTimeout(bctx, 150*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`form.search`))); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(srv.cfg.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	// The page reloads itself: its document changes under the test, so
	// each look may fail while it does.
	eventually := func(what, js string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("the open page did not reload to show %s", what)
	}
	os.WriteFile(srv.cfg.Manifest, []byte(strings.Replace(string(good), `title = "Example Co. agents"`, `title = "Renamed agents"`, 1)), 0o644)
	eventually("the new site", `document.title.includes("Renamed agents")`)
	os.WriteFile(srv.cfg.Manifest, []byte(strings.Replace(string(good), `version = "2.4.1"`, `version = ""`, 1)), 0o644)
	eventually("the failed rebuild", `!!document.querySelector('[role=alert]')`)
}

// axeSource is axe-core (npm, pinned in testdata/interop), the
// accessibility checker the browser test runs in each page.
func axeSource(t *testing.T) string {
	t.Helper()
	prereq.NPM(t, "axe-core")
	b, err := os.ReadFile("../../testdata/interop/node_modules/axe-core/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAccessibility runs axe-core in headless Chromium on the index, an
// agent page, an MCP server's page, the keys' and the catalog's pages and
// the 404 page, on a desktop and a
// phone: no violation of any rule, WCAG 2.1 AA and axe's best practices.
// Screenshots go to the artifacts.
func TestAccessibility(t *testing.T) {
	exe := chromium(t)
	axe := axeSource(t)
	out := artifacts(t)
	srv := startExample(t)
	mcpSrv := startMCPExample(t)
	bctx, _ := browser(t, exe)
	ctx, cancel := context.WithTimeout(bctx, 120*time.Second)
	defer cancel()
	pages := []struct{ name, url string }{
		{"index", srv.URL + "/"},
		{"agent", srv.URL + "/agents/travel-planner/"},
		{"agent-ledger", srv.URL + "/agents/invoice-reader/"},
		{"page", srv.URL + "/verify/"},
		{"404", srv.URL + "/no/such/page"},
		{"mcp-index", mcpSrv.URL + "/"},
		{"mcp", mcpSrv.URL + "/mcp/weather/"},
		{"keys", srv.URL + "/keys/"},
		{"catalog", mcpSrv.URL + "/ai-catalog/"},
	}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1200, 900}, {"phone", 390, 844}} {
		for _, p := range pages {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(p.url), chromedp.WaitReady("body")); err != nil {
				t.Fatalf("%s: %v", p.url, err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](axe+";true")); err != nil {
				t.Fatalf("loading axe-core: %v", err)
			}
			report, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(0, 3).join(' '))}))))`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("axe.run on %s: %v", p.url, err)
			}
			if report != "[]" {
				t.Errorf("%s (%s): accessibility violations:\n%s", p.name, size.name, report)
			}
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, "a11y-"+p.name+"-"+size.name+".png"), shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
