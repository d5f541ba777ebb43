package site

import (
	"bytes"
	"fmt"
	"html/template"
	"sync"

	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
)

// pages renders the site's HTML pages from the templates and what site/
// holds: the front list, each agent's and MCP server's page, the extra
// pages and 404.html.
type pages struct {
	m       *manifest.Manifest
	plan    plan
	tpl     *templates.Set
	info    siteInfo      // what every page knows of the site
	intro   template.HTML // the front page's intro
	docs    map[string]string
	signers []*sign.Signer // listed on each agent's page
}

// newPages is the renderer of a site planned as p, whose site/ folder
// holds d.
func newPages(m *manifest.Manifest, p plan, tpl *templates.Set, d *siteDir, signers []*sign.Signer) *pages {
	info := siteInfo{Title: m.Site.Title, BaseURL: m.Site.BaseURL, Pages: d.pages, Nested: d.nested}
	return &pages{m: m, plan: p, tpl: tpl, info: info, intro: d.intro, docs: d.docs, signers: signers}
}

func (pg *pages) base(title, desc, root string) *pageData {
	return &pageData{Site: pg.info, Lang: "en", Title: title, Description: desc, Root: root}
}

// render executes a page template.
func (pg *pages) render(page string, data *pageData) ([]byte, error) {
	// The page is written into a pooled buffer, which has grown to the
	// size of a page already, and copied out once: growing a new buffer
	// from nothing for every page costs more than the copy.
	buf := renderBuffers.Get().(*bytes.Buffer)
	defer releaseRenderBuffer(buf)
	if err := pg.tpl.Execute(buf, page, data); err != nil {
		return nil, fmt.Errorf("%s: %w", page, err)
	}
	return bytes.Clone(buf.Bytes()), nil
}

// renderBuffers are render's buffers.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxRenderBuffer is the largest buffer kept for the next page: one
// outsized page (a front page, an agent with long docs) does not hold its
// memory for the rest of the build.
const maxRenderBuffer = 256 << 10

func releaseRenderBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxRenderBuffer {
		return
	}
	buf.Reset()
	renderBuffers.Put(buf)
}

// extraPages adds each extra page (site/*.md, site/<folder>/*.md) to
// files.
func (pg *pages) extraPages(files map[string][]byte) error {
	for _, p := range pg.info.all() {
		data := pg.base(p.Title, "", pageRoot(p.Slug))
		data.Body = p.Body
		data.TOC, data.Lead, data.Rest = pageTOC(p.Body)
		data.Canonical = pg.m.Site.BaseURL + "/" + p.Slug + "/"
		page, err := pg.render("page.html", data)
		if err != nil {
			return err
		}
		files[p.Slug+"/index.html"] = page
	}
	return nil
}

// notFound is 404.html, which is served at any path, so its links are
// absolute.
func (pg *pages) notFound() ([]byte, error) {
	return pg.render("404.html", pg.base("Not found", "", pg.m.Site.BaseURL+"/"))
}
