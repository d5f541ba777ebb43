package site

import (
	"encoding/json"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

// hostile uses every field a page shows for an attack.
const hostile = `[site]
baseUrl = "https://agents.example.com"
title = "</title><script>alert('title')</script>"

[[agents]]
id = "evil"
name = "<script>alert('name')</script>\" onmouseover=\"alert(1)"
description = """
Hello <img src=x onerror=alert('img')> and <script>alert('desc')</script>.
[click](javascript:alert('js')) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)
<a href="javascript:alert('raw')">raw link</a>
<iframe src="https://evil.example"></iframe>
</script><script>alert('break out of JSON-LD')</script>"""
version = "1\"><script>alert('v')</script>"
[[agents.supportedInterfaces]]
url = "https://evil.example.com/a2a?x=%22%3E%3Cscript%3E"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"
tenant = "\"><svg onload=alert('tenant')>"
[agents.securitySchemes.k]
type = "apiKey"
location = "header"
name = "X-Key\"><script>alert('scheme')</script>"
description = "<b onclick=alert(1)>bold</b>"
[[agents.securityRequirements]]
k = []
[[agents.skills]]
id = "s"
name = "<img src=x onerror=alert('skill')>"
description = "javascript:alert('skill-desc')"
tags = ["\"><script>alert('tag')</script>", "' onfocus='alert(1)"]
examples = ["</script><script>alert('example')</script>", "<style>body{display:none}</style>"]
`

// TestHostileTextIsInert builds a site whose every field is an attack and
// parses each page as a browser would: the only scripts are ours (search.js,
// copy.js, signature.js) and the JSON-LD (which must stay valid JSON), no element has an event
// handler attribute, no link or source uses javascript:, data: or vbscript:,
// and no iframe, object, embed or style element appears.
func TestHostileTextIsInert(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agents.toml"), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "site"), 0o755)
	os.WriteFile(filepath.Join(dir, "site", "index.md"), []byte("Intro <script>alert('intro')</script> [x](javascript:alert(1))"), 0o644)
	os.WriteFile(filepath.Join(dir, "site", "about.md"), []byte("# About <img src=x onerror=alert(1)>\n\n<object data=x></object>"), 0o644)
	m, err := manifest.Load(filepath.Join(dir, "agents.toml"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(testKeysDir + "/public")
	m.Site.Keys = abs
	ks, _ := sign.LoadKeySet(m.KeysDir())
	out := filepath.Join(dir, "public")
	if _, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: testSigners(t, m, ks, "ed25519")}); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for name, b := range readTree(t, out) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		pages++
		checkInert(t, name, b)
	}
	if pages < 4 {
		t.Fatalf("only %d pages", pages)
	}
}

func checkInert(t *testing.T, name string, page []byte) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script":
				src, typ := attr(n, "src"), attr(n, "type")
				switch {
				case (strings.HasSuffix(src, "search.js") || strings.HasSuffix(src, "copy.js") || strings.HasSuffix(src, "signature.js")) && n.FirstChild == nil:
				case typ == "application/ld+json" && n.FirstChild != nil:
					var v any
					if err := json.Unmarshal([]byte(n.FirstChild.Data), &v); err != nil {
						t.Errorf("%s: JSON-LD is not JSON (%v): %s", name, err, n.FirstChild.Data)
					}
				default:
					t.Errorf("%s: unexpected script element (src %q type %q)", name, src, typ)
				}
			case "iframe", "object", "embed", "style", "svg", "img", "form":
				if n.Data == "form" && attr(n, "class") == "search" {
					break
				}
				if n.Data == "img" && attr(n, "class") == "icon" && strings.HasPrefix(attr(n, "src"), "https://") && onlyAttrs(n, "class", "src", "alt", "width", "height", "loading") {
					break // the agent's icon
				}
				t.Errorf("%s: <%s> element from user text", name, n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") {
					t.Errorf("%s: <%s %s=%q>: event handler attribute", name, n.Data, a.Key, a.Val)
				}
				if a.Key == "href" || a.Key == "src" || a.Key == "action" {
					v := strings.ToLower(strings.TrimSpace(a.Val))
					for _, bad := range []string{"javascript:", "data:", "vbscript:"} {
						if strings.HasPrefix(v, bad) {
							t.Errorf("%s: <%s %s=%q>", name, n.Data, a.Key, a.Val)
						}
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestLinksResolve checks every link and asset in the example site: each
// internal href or src (relative, or absolute under baseUrl) names a file
// of the output, and each #fragment an id on its page.
func TestLinksResolve(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m, _ := buildExample(t, out, "ed25519")
	tree := readTree(t, out)
	base, _ := url.Parse(m.Site.BaseURL + "/")
	ids := map[string]map[string]bool{}
	links := map[string][]string{}
	for name, b := range tree {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		doc, err := html.Parse(strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = map[string]bool{}
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				if id := attr(n, "id"); id != "" {
					ids[name][id] = true
				}
				for _, k := range []string{"href", "src"} {
					if v := attr(n, k); v != "" {
						links[name] = append(links[name], v)
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
	}
	checked := 0
	for page, ls := range links {
		// 404.html is served at any path; its links are absolute.
		pageURL := base.ResolveReference(&url.URL{Path: page})
		for _, l := range ls {
			u, err := url.Parse(l)
			if err != nil {
				t.Errorf("%s: bad link %q", page, l)
				continue
			}
			abs := pageURL.ResolveReference(u)
			if abs.Host != base.Host || !strings.HasPrefix(abs.Path, base.Path) {
				continue // external
			}
			rel := strings.TrimPrefix(abs.Path, base.Path)
			target := rel
			if target == "" || strings.HasSuffix(target, "/") {
				target = path.Join(target, "index.html")
			}
			if _, ok := tree[target]; !ok {
				t.Errorf("%s: link %q -> %s: no such file", page, l, target)
				continue
			}
			if abs.Fragment != "" && strings.HasSuffix(target, ".html") && !ids[target][abs.Fragment] {
				t.Errorf("%s: link %q: no id %q in %s", page, l, abs.Fragment, target)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d internal links checked", checked)
	}
	t.Logf("%d internal links resolve", checked)
}

// onlyAttrs reports whether n has no attribute but those named.
func onlyAttrs(n *html.Node, names ...string) bool {
	for _, a := range n.Attr {
		if !slices.Contains(names, a.Key) {
			return false
		}
	}
	return true
}

// TestPageFolders: site/<folder>/*.md are pages under /<folder>/, the
// folder's index.md in the navigation and the others not, and a link from
// one Markdown file to another (as it works on a forge) leads to the page
// made of it, with its fragment; other links are left as written.
func TestPageFolders(t *testing.T) {
	dir := t.TempDir()
	toml, err := os.ReadFile(exampleToml)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agents.toml"), toml, 0o644); err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{
		"site/index.md":          "Intro: [docs](docs/index.md), [guide](docs/guide.md#setup).",
		"site/about.md":          "# About\n\n[Guide](docs/guide.md) [Away](https://example.com/x.md) [Repo](../README.md)",
		"site/docs/index.md":     "# Documentation\n\n[Guide](guide.md) [About](../about.md#about) [Home](../index.md) [Agent](../agents/travel-planner.md)",
		"site/docs/guide.md":     "# The guide\n\n## Setup\n\n[Index](index.md) [Self](#setup) [Other](other.md#x)",
		"site/docs/other.md":     "# Other",
		"site/docs/notes.txt":    "not a page",
		"site/images/readme.txt": "no Markdown here",
	}
	for name, text := range pages {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "public")
	buildWithTestKeys(t, loadWithTestKeys(t, filepath.Join(dir, "agents.toml")), out, "ed25519")
	tree := readTree(t, out)
	for _, want := range []struct{ file, has string }{
		{"index.html", `href="docs/"`},
		{"index.html", `href="docs/guide/#setup"`},
		{"about/index.html", `href="../docs/guide/"`},
		{"about/index.html", `href="https://example.com/x.md"`},
		{"about/index.html", `href="../README.md"`},
		{"docs/index.html", `href="../docs/guide/"`},
		{"docs/index.html", `href="../about/#about"`},
		{"docs/index.html", `href="../"`},
		{"docs/index.html", `href="../agents/travel-planner/"`},
		{"docs/guide/index.html", `href="../../docs/"`},
		{"docs/guide/index.html", `href="#setup"`},
		{"docs/guide/index.html", `href="../../docs/other/#x"`},
		{"docs/guide/index.html", `href="../../style.css"`},
		{"docs/other/index.html", "<h1"},
	} {
		if !strings.Contains(string(tree[want.file]), want.has) {
			t.Errorf("%s lacks %s", want.file, want.has)
		}
	}
	// The navigation lists the folder's index, not its other pages.
	if nav := string(tree["about/index.html"]); !strings.Contains(nav, `<a href="../docs/">Documentation</a>`) || strings.Contains(nav, `>The guide</a>`) {
		t.Errorf("navigation of about/index.html:\n%s", nav)
	}
	if !strings.Contains(string(tree["sitemap.xml"]), "/docs/guide/</loc>") || !strings.Contains(string(tree[layout.HeadersFile]), "/docs/guide/") {
		t.Error("the sitemap or _headers lacks /docs/guide/")
	}
	if _, ok := tree["docs/notes.txt"]; ok {
		t.Error("published a file of site/docs that is not Markdown")
	}

	// A folder that is a name the build writes, and a folder's index beside
	// a page of the same name, are refused.
	for _, bad := range []string{"site/search/x.md", "site/about/index.md"} {
		p := filepath.Join(dir, bad)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("# X"), 0o644)
		m := loadWithTestKeys(t, filepath.Join(dir, "agents.toml"))
		ks, _ := sign.LoadKeySet(m.KeysDir())
		if _, err := Build(Options{Manifest: m, OutDir: out, Keys: ks, Signers: testSigners(t, m, ks, "ed25519")}); err == nil {
			t.Errorf("%s: built", bad)
		}
		os.Remove(p)
	}
}
