package site

import (
	"bytes"
	"encoding/xml"

	"github.com/agentcards/agentcards/internal/layout"
)

// sitemap is sitemap.xml: every page's URL, or, past SitemapMaxURLs, an
// index of the per-group pieces.
func (b *builder) sitemap(ids []string) []byte {
	m := b.m
	if b.plan.indexed {
		var locs []string
		for g := range b.plan.groups {
			locs = append(locs, m.Site.BaseURL+"/"+sitemapPiece(g))
		}
		return sitemapIndex(append(locs, m.Site.BaseURL+"/"+layout.SitemapsFolder+"/site.xml"))
	}
	urls := []string{m.Site.BaseURL + "/"}
	for _, id := range ids {
		urls = append(urls, AgentURL(m, id))
	}
	return urlset(append(urls, b.pageURLs()...))
}

// pageURLs are the URLs of the pages that are neither an agent's nor the
// front list's: the keys' and the catalog's pages, the extra pages and
// the MCP servers' pages.
func (b *builder) pageURLs() []string {
	m := b.m
	urls := []string{layout.URL(m.Site.BaseURL, layout.KeysPage), layout.URL(m.Site.BaseURL, layout.CatalogPage)}
	for _, p := range b.pages.info.all() {
		urls = append(urls, m.Site.BaseURL+"/"+p.Slug+"/")
	}
	for _, s := range m.MCPServers {
		urls = append(urls, m.MCPPageURL(s.ID))
	}
	return urls
}

// sitemapIndex is a sitemaps.org sitemap index of locs.
func sitemapIndex(locs []string) []byte {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		buf.WriteString("  <sitemap>\n    <loc>")
		xmlEscape(&buf, l)
		buf.WriteString("</loc>\n  </sitemap>\n")
	}
	buf.WriteString("</sitemapindex>\n")
	return buf.Bytes()
}

// xmlEscape writes s escaped as XML text.
func xmlEscape(buf *bytes.Buffer, s string) { xml.EscapeText(buf, []byte(s)) }

// urlset is a sitemaps.org urlset of urls.
func urlset(urls []string) []byte {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, u := range urls {
		buf.WriteString("  <url>\n    <loc>")
		xmlEscape(&buf, u)
		buf.WriteString("</loc>\n  </url>\n")
	}
	buf.WriteString("</urlset>\n")
	return buf.Bytes()
}
