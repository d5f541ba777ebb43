package site

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/templates"
)

// siteFiles writes the files of the whole site that are not per agent or
// per group: the JWKS, the default agent's cards at the root, the catalog
// index, extra pages, the 404 page, assets, the MCP servers' files,
// _headers, robots.txt and the sitemap. Each is written only when its
// bytes differ from what the tree holds. It returns the names of all
// these files and layout.SumsFile, which prune keeps.
func (b *builder) siteFiles(ids []string) (map[string]bool, error) {
	files := map[string][]byte{}
	if err := b.machineFiles(files); err != nil {
		return nil, err
	}
	if err := b.pages.siteFiles(files); err != nil {
		return nil, err
	}
	keys, err := b.pages.keysPage(b.opts.Keys, len(ids))
	if err != nil {
		return nil, err
	}
	files[layout.KeysPage+layout.IndexFile] = keys
	if !b.plan.flat() {
		// A site of one group has it among its listings.
		if files[catalogPageFile], err = b.pages.catalogPage(nil); err != nil {
			return nil, err
		}
	}
	agents := make(map[string]bool, len(ids))
	for _, id := range ids {
		agents[id] = true
	}
	if err := b.mcpFiles(files, agents); err != nil {
		return nil, err
	}
	b.hostFiles(files, ids)
	names := map[string]bool{}
	if len(ids) > 0 {
		names[layout.WellKnown+"/"+layout.CardFile] = true
		names[layout.WellKnown+"/"+layout.LegacyFile] = true
	}
	for name := range files {
		names[name] = true
	}
	names[layout.SumsFile] = true // written last, by checksums

	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := b.tree.put(name, hashParts(files[name]), files[name]); err != nil {
			return nil, err
		}
	}
	return names, b.rootCards(ids)
}

// machineFiles adds the JWKS, .nojekyll and, for a site of several
// groups, the root AI Catalog to files.
func (b *builder) machineFiles(files map[string][]byte) error {
	jwks, err := b.opts.Keys.JSON()
	if err != nil {
		return err
	}
	files[layout.WellKnown+"/"+layout.JWKSFile] = jwks
	// GitHub Pages deployed from a branch runs Jekyll, which drops
	// dot-folders such as .well-known unless this file exists.
	files[".nojekyll"] = []byte{}
	if !b.plan.flat() {
		idx, err := catalogIndex(b.m, b.plan.size, b.plan.groups, b.plan.n)
		if err != nil {
			return err
		}
		files[layout.WellKnown+"/"+layout.CatalogFile] = idx
	}
	return nil
}

// siteFiles adds the extra pages, 404.html and the templates' assets to
// files.
func (pg *pages) siteFiles(files map[string][]byte) error {
	if err := pg.extraPages(files); err != nil {
		return err
	}
	nf, err := pg.notFound()
	if err != nil {
		return err
	}
	files[layout.NotFoundFile] = nf
	for _, a := range templates.Assets {
		files[a] = pg.tpl.Asset(a)
	}
	return nil
}

// hostFiles adds what hosts and crawlers read to files: _headers,
// robots.txt and the sitemap.
func (b *builder) hostFiles(files map[string][]byte, ids []string) {
	m := b.m
	var slugs []string
	for _, p := range b.pages.info.all() {
		slugs = append(slugs, p.Slug)
	}
	files[layout.HeadersFile] = renderHeaders(slugs, len(m.MCPServers) > 0)
	if n := len(headerRules(slugs, len(m.MCPServers) > 0)); n > CloudflareMaxRules {
		b.notes.add(fmt.Sprintf("_headers has %d rules; Cloudflare Pages reads only the first %d (fewer extra pages in site/ keep it under)", n, CloudflareMaxRules))
	}
	files[layout.RobotsFile] = []byte("User-agent: *\nAllow: /\nSitemap: " + m.Site.BaseURL + "/" + layout.SitemapFile + "\n")
	files[layout.SitemapFile] = b.sitemap(ids)
	if b.plan.indexed {
		// The pages that are not an agent's, for the sitemap index.
		files[layout.SitemapsFolder+"/site.xml"] = urlset(append([]string{m.Site.BaseURL + "/"}, b.pageURLs()...))
	}
}
