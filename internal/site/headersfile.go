package site

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/templates"
)

// headerRule is one block of a _headers file: a path pattern and headers.
type headerRule struct {
	Pattern string
	Headers [][2]string
}

// headerRules are the rules the build emits. Patterns never overlap on a
// header name (both hosts join repeated headers with a comma), so each
// file gets exactly one Content-Type and one Cache-Control.
func headerRules(pages []string, mcp bool) []headerRule {
	cards := func(pattern string) headerRule {
		return headerRule{pattern, [][2]string{
			{"Access-Control-Allow-Origin", "*"},
			{"Content-Type", ContentType("/x.json")},
			{"Cache-Control", CacheControl("/" + layout.WellKnown + "/x.json")},
		}}
	}
	page := func(pattern string) headerRule {
		return headerRule{pattern, [][2]string{
			{"Content-Type", ContentType("/")},
			{"Cache-Control", CacheControl("/")},
		}}
	}
	file := func(pattern string) headerRule {
		return headerRule{pattern, [][2]string{{"Content-Type", ContentType(pattern)}, {"Cache-Control", CacheControl(pattern)}}}
	}
	// folder is the rule for every file of a folder, typed like sample.
	folder := func(pattern, sample string) headerRule {
		return headerRule{pattern, [][2]string{{"Content-Type", ContentType(sample)}, {"Cache-Control", CacheControl(sample)}}}
	}
	rules := []headerRule{
		{"/*", [][2]string{{"X-Content-Type-Options", "nosniff"}}},
		cards("/" + layout.WellKnown + "/*"),
		cards("/agents/:id/" + layout.WellKnown + "/*"),
		cards("/" + layout.CatalogFolder + "/*"),
		page("/"),
		page("/index.html"),
		page("/" + layout.NotFoundFile),
		page("/agents/:id/"),
		page("/agents/:id/index.html"),
		page("/" + layout.PagesFolder + "/:n/"),
		page("/" + layout.PagesFolder + "/:n/index.html"),
		page("/" + layout.KeysPage),
		page("/" + layout.KeysPage + layout.IndexFile),
		page("/" + layout.CatalogPage),
		page("/" + layout.CatalogPage + layout.IndexFile),
	}
	for _, a := range templates.Assets {
		rules = append(rules, file("/"+a))
	}
	rules = append(rules,
		folder("/"+layout.SearchFolder+"/*", "/"+layout.SearchFolder+"/1.json"),
		file("/"+layout.SitemapFile),
		folder("/"+layout.SitemapsFolder+"/*", "/"+layout.SitemapsFolder+"/1.xml"),
		file("/"+layout.RobotsFile),
		file("/"+layout.SumsFile),
	)
	if mcp {
		sc := cards("/" + layout.MCPFolder + "/:id/" + layout.ServerCardFile)
		sc.Headers = append(sc.Headers, ServerCardCORS...)
		rules = append(rules, sc, page("/"+layout.MCPFolder+"/:id/"), page("/"+layout.MCPFolder+"/:id/"+layout.IndexFile))
	}
	for _, p := range pages {
		rules = append(rules, page("/"+p+"/"), page("/"+p+"/index.html"))
	}
	return rules
}

// renderHeaders writes the _headers file.
func renderHeaders(pages []string, mcp bool) []byte {
	var b strings.Builder
	b.WriteString("# Response headers for Netlify and Cloudflare Pages (written by agentcards build).\n")
	b.WriteString("# Cards, the JWKS and the catalog are JSON that browsers on any origin may fetch.\n")
	for _, r := range headerRules(pages, mcp) {
		b.WriteString("\n" + r.Pattern + "\n")
		for _, h := range r.Headers {
			fmt.Fprintf(&b, "  %s: %s\n", h[0], h[1])
		}
	}
	return []byte(b.String())
}

// ParseHeaders reads a _headers file into its rules.
func ParseHeaders(data string) ([]headerRule, error) {
	var rules []headerRule
	sc := bufio.NewScanner(strings.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t"):
			rules = append(rules, headerRule{Pattern: trimmed})
		default:
			name, value, ok := strings.Cut(trimmed, ":")
			if !ok || len(rules) == 0 {
				return nil, fmt.Errorf("_headers:%d: want \"Name: value\" under a path", n)
			}
			r := &rules[len(rules)-1]
			r.Headers = append(r.Headers, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
		}
	}
	return rules, sc.Err()
}

// HeadersFor applies rules to a URL path as Netlify and Cloudflare Pages
// do: every matching rule contributes; a repeated header is joined with
// ", ".
func HeadersFor(rules []headerRule, urlPath string) map[string]string {
	out := map[string]string{}
	for _, r := range rules {
		if !matchPattern(r.Pattern, urlPath) {
			continue
		}
		for _, h := range r.Headers {
			if v, ok := out[h[0]]; ok {
				out[h[0]] = v + ", " + h[1]
			} else {
				out[h[0]] = h[1]
			}
		}
	}
	return out
}

// matchPattern matches "/a/:x/b/*" style patterns: ":name" is one path
// segment, a final "*" anything (including nothing).
func matchPattern(pattern, p string) bool {
	if rest, ok := strings.CutSuffix(pattern, "*"); ok {
		pp := strings.Split(strings.TrimSuffix(rest, "/"), "/")
		sp := strings.Split(p, "/")
		if len(sp) < len(pp) {
			return false
		}
		for i := range pp {
			if !strings.HasPrefix(pp[i], ":") && pp[i] != sp[i] {
				return false
			}
		}
		return true
	}
	pp, sp := strings.Split(pattern, "/"), strings.Split(p, "/")
	if len(pp) != len(sp) {
		return false
	}
	for i := range pp {
		if strings.HasPrefix(pp[i], ":") {
			if sp[i] == "" {
				return false
			}
			continue
		}
		if pp[i] != sp[i] {
			return false
		}
	}
	return true
}
