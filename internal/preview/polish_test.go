package preview

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// guidePage is a Markdown page long enough for a table of contents.
const guidePage = "# Guide\n\n## Install\n\nGet it.\n\n## Build\n\nBuild it.\n\n## Publish\n\nPublish it.\n"

// TestBrowserPolish drives headless Chromium over the example and the MCP
// example as a visitor would: the favicon is linked and served; the
// navigation's Keys and Catalog open pages listing what the JWKS and the
// AI Catalog hold, with links to them; a search result shows what the
// list shows (icon, badges, facts, tags); long pages open with a table
// of contents whose links lead to their sections; no page scrolls
// sideways at 375 px; no tags contradict each other. It saves screenshots
// of the home page, an agent page, an MCP page and a search, on a desktop
// and a phone, to the artifacts.
func TestBrowserPolish(t *testing.T) {
	exe := chromium(t)
	out := artifacts(t)
	dir, privs := exampleProject(t)
	copyText(t, filepath.Join(dir, "site", "guide.md"), guidePage)
	srv := start(t, filepath.Join(dir, "agents.toml"), privs)
	mcpSrv := startMCPExample(t)
	bctx, dialogs := browser(t, exe)
	ctx, cancel := context.WithTimeout(bctx, 120*time.Second)
	defer cancel()
	p := &polish{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 900))

	p.open(srv.URL + "/")
	p.check("the favicon is linked and served as SVG", `fetch(document.querySelector('link[rel=icon]').href).then(r => r.ok && r.headers.get('content-type').startsWith('image/svg+xml') && new URL(document.querySelector('link[rel=icon]').href).pathname === '/favicon.svg')`)

	// Keys: every key of the JWKS, each named and typed.
	p.click(`nav[aria-label=Site] a[href$="keys/"]`, "article.info-page")
	p.check("the keys' page is /keys/", `location.pathname === '/keys/'`)
	p.check("the keys' page lists every key of the JWKS and links to it", `fetch('/.well-known/jwks.json').then(r => r.json()).then(j => {
		const rows = [...document.querySelectorAll('tr.key')].map(r => r.dataset.kid);
		return j.keys.length > 0 && rows.length === j.keys.length && j.keys.every(k => rows.includes(k.kid)) &&
			!!document.querySelector('a[href$=".well-known/jwks.json"]') &&
			j.keys.every(k => document.querySelector('tr.key[data-kid="' + k.kid + '"]').textContent.includes(k.alg));
	})`)
	// Catalog: every entry of the AI Catalog, each linking its page and card.
	p.click(`nav[aria-label=Site] a[href$="ai-catalog/"]`, "article.info-page")
	p.check("the catalog's page lists every entry of the AI Catalog", `fetch('/.well-known/ai-catalog.json').then(r => r.json()).then(c => {
		const links = [...document.querySelectorAll('article a')].map(a => a.href);
		return c.entries.length === document.querySelectorAll('li[data-id], li[data-mcp]').length &&
			c.entries.every(e => links.includes(e.url)) && links.some(h => h.endsWith('/.well-known/ai-catalog.json'));
	})`)

	// A search result looks like the list's entry of the same agent.
	p.open(srv.URL + "/")
	listed := p.text(`li.agent[data-id="travel-planner"]`)
	p.shot(out, "home-desktop.png")
	p.do(chromedp.SendKeys(chromedp.ID("q"), "trip"))
	p.wait(`document.querySelectorAll('#agents li.agent').length === 1 && document.getElementById('count').textContent !== ''`)
	if got := p.text(`#agents li.agent[data-id="travel-planner"]`); got != listed {
		t.Errorf("the search result differs from the list's entry:\n got  %q\n want %q", got, listed)
	}
	p.check("the search result has the badges and tags", `(() => { const li = document.querySelector('#agents li.agent');
		return li.querySelectorAll('.badge').length === 3 && li.querySelectorAll('ul.tags li').length > 3 && !!li.querySelector('img.icon') && li.querySelector('.facts').textContent.startsWith('Auth: OAuth 2.0'); })()`)
	p.shot(out, "search-desktop.png")

	// Contents of long pages: every link leads to a section of the page.
	for _, u := range []string{srv.URL + "/agents/travel-planner/", srv.URL + "/guide/"} {
		p.open(u)
		p.check("a table of contents on "+u, `(() => { const links = [...document.querySelectorAll('nav.page-toc[aria-label] a')];
			return links.length >= 3 && links.every(a => a.hash && document.getElementById(decodeURIComponent(a.hash.slice(1)))); })()`)
		p.do(chromedp.Click(chromedp.CSS(`nav.page-toc li:nth-child(3) a`)))
		p.wait(`(() => { const a = document.querySelector('nav.page-toc li:nth-child(3) a');
			const el = document.getElementById(decodeURIComponent(a.hash.slice(1)));
			const top = el.getBoundingClientRect().top;
			return location.hash === a.hash && top >= -1 && top < window.innerHeight; })()`)
	}
	p.open(srv.URL + "/agents/travel-planner/")
	p.shot(out, "agent-desktop.png")
	p.open(mcpSrv.URL + "/mcp/weather/")
	p.shot(out, "mcp-desktop.png")

	// No tags that contradict each other: on the list, in a search, on the
	// synthesized agent's page and on the MCP page.
	const consistent = `[...document.querySelectorAll('ul.tags')].every(u => { const t = [...u.children].map(l => l.textContent);
		return !(t.includes('destructive') && t.includes('non-destructive')) && !(t.includes('read-only') && t.includes('destructive')) && !(t.includes('open-world') && t.includes('closed-world')); })`
	for _, u := range []string{mcpSrv.URL + "/", mcpSrv.URL + "/agents/weather/", mcpSrv.URL + "/mcp/weather/"} {
		p.open(u)
		p.check("no contradictory tags on "+u, consistent)
	}
	p.open(mcpSrv.URL + "/")
	p.do(chromedp.SendKeys(chromedp.ID("q"), "forecast"))
	p.wait(`document.querySelectorAll('#agents li.agent').length === 3`)
	p.check("no contradictory tags in a search", consistent+` && document.querySelectorAll('#agents ul.tags li').length > 0`)

	// A phone, 375 px wide: nothing wider than the screen.
	p.do(chromedp.EmulateViewport(375, 812))
	const fits = `document.documentElement.scrollWidth <= window.innerWidth`
	for _, pg := range []struct{ url, shot string }{
		{srv.URL + "/", "home-phone.png"},
		{srv.URL + "/agents/travel-planner/", "agent-phone.png"},
		{mcpSrv.URL + "/mcp/weather/", "mcp-phone.png"},
		{srv.URL + "/keys/", ""},
		{mcpSrv.URL + "/ai-catalog/", ""},
		{srv.URL + "/guide/", ""},
	} {
		p.open(pg.url)
		p.check(pg.url+" fits 375 px", fits)
		if pg.shot != "" {
			p.shot(out, pg.shot)
		}
	}
	// The tables show every cell: none is cut off behind a scroll.
	p.open(mcpSrv.URL + "/mcp/weather/")
	wide, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelectorAll('table.stack td').length + ' cells; ' + [...document.querySelectorAll('.table-wrap')].filter(w => w.scrollWidth > w.clientWidth).map(w => w.getAttribute('aria-label') + ' ' + w.scrollWidth + '>' + w.clientWidth).join(', ')`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(wide, "0 cells") || !strings.HasSuffix(wide, "; ") {
		t.Errorf("tables of the MCP page cut off at 375 px: %s", wide)
	}
	p.open(srv.URL + "/")
	p.do(chromedp.SendKeys(chromedp.ID("q"), "trip"))
	p.wait(`document.querySelectorAll('#agents li.agent').length === 1`)
	p.check("a search fits 375 px", fits)
	p.shot(out, "search-phone.png")

	if *dialogs > 0 {
		t.Errorf("%d JavaScript dialogs opened", *dialogs)
	}
}

// polish is one browser tab of TestBrowserPolish.
type polish struct {
	t   *testing.T
	ctx context.Context
}

func (p *polish) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

// open loads a page.
func (p *polish) open(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(url), chromedp.WaitReady("body"))
}

// click follows a link and waits for what the next page shows.
func (p *polish) click(sel, next string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel)), chromedp.WaitVisible(chromedp.CSS(next)))
}

// check fails the test unless the JavaScript expression (or the promise
// it makes) is true.
func (p *polish) check(what, js string) {
	p.t.Helper()
	ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
	if !ok {
		p.t.Errorf("not so: %s", what)
	}
}

// wait waits until the JavaScript expression is true.
func (p *polish) wait(js string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		p.t.Fatalf("waiting for %s: %v", js, err)
	}
}

// text is the text of an element's headings, paragraphs and list items,
// each with its white space made single spaces.
func (p *polish) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(`[...document.querySelector(%q).querySelectorAll('h2, p, li')].map(n => n.textContent.replace(/\s+/g, ' ').trim()).join(' | ')`, sel)))
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

// shot saves a screenshot of the whole page as name in dir.
func (p *polish) shot(dir, name string) {
	p.t.Helper()
	b, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	if len(b) < 10_000 {
		p.t.Errorf("%s is only %d bytes: a blank page?", name, len(b))
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// copyText writes text to path, making its folder.
func copyText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.TrimLeft(text, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
