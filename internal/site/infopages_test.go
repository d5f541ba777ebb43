package site

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
	jose "github.com/go-jose/go-jose/v4"
)

// TestKeysPage: the keys' page lists every key of the JWKS with its
// algorithm and type, says which sign the cards, and links to the JWKS;
// the navigation of every page leads to it and to the catalog's page.
func TestKeysPage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m, _ := buildExample(t, out, "ed25519", "es256")
	tree := readTree(t, out)
	page := string(tree["keys/index.html"])
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil || len(ks.Keys) < 3 {
		t.Fatalf("%d keys in the example, %v", len(ks.Keys), err)
	}
	signing := 0
	for _, k := range ks.Keys {
		if !strings.Contains(page, `data-kid="`+k.KeyID+`"`) {
			t.Errorf("the keys' page lacks %s", k.KeyID)
		}
		if strings.Contains(page, `data-kid="`+k.KeyID+`"><td data-label="Key id"><code>`+k.KeyID+`</code></td><td data-label="Algorithm"><code>`+k.Algorithm+`</code>`) {
			signing++
		}
	}
	for _, want := range []string{
		`href="../.well-known/jwks.json"`, "Ed25519 (OKP)", "EC P-256",
		"every card of this site (3 agents)", "no card: published for a key rotation",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the keys' page lacks %s", want)
		}
	}
	if signing != len(ks.Keys) {
		t.Errorf("%d of %d keys shown with their algorithm", signing, len(ks.Keys))
	}
	if strings.Contains(page, "development key") {
		t.Error("the keys' page calls a test key a development key")
	}
	for _, name := range []string{"index.html", "verify/index.html", "agents/travel-planner/index.html", "404.html"} {
		root := map[string]string{"index.html": "", "verify/index.html": "../", "agents/travel-planner/index.html": "../../", "404.html": m.Site.BaseURL + "/"}[name]
		for _, want := range []string{`<a href="` + root + `keys/">Keys</a>`, `<a href="` + root + `ai-catalog/">Catalog</a>`, `<link rel="icon" href="` + root + `favicon.svg" type="image/svg+xml">`} {
			if !strings.Contains(string(tree[name]), want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
	}
	if !strings.HasPrefix(string(tree["favicon.svg"]), "<svg") {
		t.Error("favicon.svg is not an SVG")
	}
	if h := HeadersFor(mustRules(t, tree), "/keys/"); h["Content-Type"] != "text/html; charset=utf-8" {
		t.Errorf("/keys/ is served as %q", h["Content-Type"])
	}
	if h := HeadersFor(mustRules(t, tree), "/ai-catalog/"); h["Content-Type"] != "text/html; charset=utf-8" {
		t.Errorf("/ai-catalog/ is served as %q", h["Content-Type"])
	}
}

func mustRules(t *testing.T, tree map[string][]byte) []headerRule {
	t.Helper()
	rules, err := ParseHeaders(string(tree["_headers"]))
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// TestDevKeyOnKeysPage: a development key is marked as one.
func TestDevKeyOnKeysPage(t *testing.T) {
	m := loadExample(t)
	tpl, err := templates.Load("")
	if err != nil {
		t.Fatal(err)
	}
	pg := &pages{m: m, tpl: tpl}
	key, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	pub := jose.JSONWebKey{Key: key, KeyID: sign.DevKIDPrefix + "x", Algorithm: "EdDSA"}
	page, err := pg.keysPage(&sign.KeySet{Keys: []jose.JSONWebKey{pub}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<span class="badge warn">development key</span>`, `<p class="alert" role="note">The key <code>` + pub.KeyID + `</code> is a development key`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the keys' page lacks %s", want)
		}
	}
}

// TestCatalogPage: the catalog's page lists what the root AI Catalog does,
// agents and MCP servers, linking each page and card; a site cut into
// groups lists its nested catalogs.
func TestCatalogPage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildMCPExample(t, out, "ed25519")
	page := string(readTree(t, out)["ai-catalog/index.html"])
	for _, want := range []string{
		`href="../.well-known/ai-catalog.json"`,
		`<a href="../agents/helper/">Helper</a>`, `href="../agents/helper/.well-known/agent-card.json"`,
		`<a href="../agents/weather/">Weather</a>`,
		`<a href="../mcp/notes/">com.example/notes</a>`, `href="../mcp/notes/server-card.json"`,
		"Agents (2)", "MCP servers (2)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the catalog's page lacks %s", want)
		}
	}

	g, f, p := groupSize, flatMax, pageSize
	groupSize, flatMax, pageSize = 2, 0, 2
	t.Cleanup(func() { groupSize, flatMax, pageSize = g, f, p })
	out = filepath.Join(t.TempDir(), "public")
	buildExample(t, out, "ed25519")
	page = string(readTree(t, out)["ai-catalog/index.html"])
	if !strings.Contains(page, `Agents 1 to 2: <a href="../catalog/1.json">nested catalog</a>`) || !strings.Contains(page, `Agents 3 to 3: <a href="../catalog/2.json">nested catalog</a>`) {
		t.Errorf("the catalog's page of a site in groups:\n%s", page)
	}
}

// TestListedTagsAgree: an agent synthesized from an MCP server shows no
// tool's behaviour hint as the agent's, so never "destructive" beside
// "non-destructive"; an agent's own tags are all shown.
func TestListedTagsAgree(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildMCPExample(t, out, "ed25519")
	tree := readTree(t, out)
	index := string(tree["index.html"])
	if !strings.Contains(index, `<ul class="tags" aria-label="Tags"><li>mcp</li><li>weather</li><li>forecast</li></ul>`) {
		t.Errorf("the weather agent's tags on the front page:\n%s", index)
	}
	for _, hint := range []string{"destructive", "read-only", "open-world", "closed-world", "idempotent"} {
		if strings.Contains(index, "<li>"+hint+"</li>") || strings.Contains(string(tree["search/1.json"]), `"`+hint+`"`) {
			t.Errorf("the front page or search shows the tool hint %s as the agent's", hint)
		}
	}
	// Each tool's own hints stay on its skill.
	if agent := string(tree["agents/weather/index.html"]); !strings.Contains(agent, "<li>destructive</li>") || !strings.Contains(agent, "<li>non-destructive</li>") {
		t.Error("the agent page lost the tools' hints")
	}
	m := loadExample(t)
	if got := listedTags(&m.Agents[0]); strings.Join(got, ",") != strings.Join(skillTags(&m.Agents[0]), ",") || len(got) == 0 {
		t.Errorf("listedTags of an agent = %v", got)
	}
}

// TestSearchShardShowsTheList: a search result carries what the list
// shows: icon, tags, authentication, default, streaming and push.
func TestSearchShardShowsTheList(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildExample(t, out, "ed25519")
	shard := string(readTree(t, out)["search/1.json"])
	for _, want := range []string{
		`"c":"https://example.com/static/voyager.png","g":["travel","itinerary"`,
		`"a":["OAuth 2.0"],"f":"dsp"`,
		`"a":["OpenID Connect","bearer token"],"f":"s"`,
	} {
		if !strings.Contains(shard, want) {
			t.Errorf("the search shard lacks %s", want)
		}
	}
}

// TestTableOfContents: a Markdown page with three second-level headings
// opens with a list of them after its title; one with two does not.
func TestTableOfContents(t *testing.T) {
	long, err := renderPage("# Guide\n\n## One\n\ntext\n\n## Two `code`\n\n## Three *x*\n", "guide.md")
	if err != nil {
		t.Fatal(err)
	}
	toc, lead, rest := pageTOC(long)
	if len(toc) != 3 || toc[1].ID != "two-code" || toc[1].Text != "Two code" || toc[2].Text != "Three x" {
		t.Errorf("contents = %+v", toc)
	}
	if !strings.HasSuffix(string(lead), "</h1>") || !strings.HasPrefix(strings.TrimSpace(string(rest)), `<h2 id="one">`) {
		t.Errorf("cut at %q | %q", lead, rest)
	}
	short, _ := renderPage("# Guide\n\n## One\n\n## Two\n", "guide.md")
	if toc, _, _ := pageTOC(short); toc != nil {
		t.Errorf("a short page has contents %v", toc)
	}
}

// TestReservedPageNames: site/keys.md and site/ai-catalog.md would take
// the keys' and the catalog's pages: refused, naming the file.
func TestReservedPageNames(t *testing.T) {
	for _, name := range []string{"keys.md", "ai-catalog.md", "keys/index.md"} {
		dir := t.TempDir()
		p := filepath.Join(dir, "site", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("# Mine\n"), 0o644)
		_, err := readSiteDir(dir)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "keys, ai-catalog") {
			t.Errorf("site/%s: %v", name, err)
		}
	}
}
