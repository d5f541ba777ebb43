package site

import (
	"strconv"

	"github.com/agentcards/agentcards/internal/layout"
)

// Sizes of the pieces listings are cut into, so that no file grows with
// the number of agents.
const (
	// GroupSize is how many agents share one catalog piece, search shard
	// and sitemap piece; it is also the unit an incremental build redoes
	// listings in, so it is small: a one-agent change decodes the whole
	// group. It must be a multiple of PageSize, or two groups would share
	// (and each rewrite) a page.
	GroupSize = 200
	// FlatMax is how many agents a site may have and still be one group:
	// one flat AI Catalog, which clients that do not follow nested
	// catalogs read whole, and one search shard. A larger site is cut into
	// groups of GroupSize.
	FlatMax = 1000
	// PageSize is how many agents one page of the front list shows.
	PageSize = 100
	// SitemapMaxURLs is how many URLs one sitemap file may hold
	// (sitemaps.org); past it, sitemap.xml becomes a sitemap index.
	SitemapMaxURLs = 50000
)

// groupSize, flatMax, pageSize and sitemapMaxURLs are GroupSize, FlatMax,
// PageSize and SitemapMaxURLs; tests make them small. A group is always a
// whole number of pages.
var groupSize, flatMax, pageSize, sitemapMaxURLs = GroupSize, FlatMax, PageSize, SitemapMaxURLs

// plan is how a build cuts the site's agents into groups, and which
// listing files each group writes.
type plan struct {
	n       int  // agents
	size    int  // agents per group: groupSize, or all of a site of up to flatMax
	groups  int  // groups of agents; a site of MCP servers only is one group of none
	indexed bool // sitemap.xml is a sitemap index
	// defaultAgent is site.defaultAgent, "" when the manifest names none.
	defaultAgent string
}

// newPlan plans a site of n agents.
func newPlan(n int, defaultAgent string) plan {
	p := plan{n: n, size: groupSize, defaultAgent: defaultAgent}
	if n <= flatMax {
		p.size = max(flatMax, groupSize) // one group
	}
	p.groups = max(1, (n+p.size-1)/p.size)
	p.indexed = n+1 > sitemapMaxURLs
	return p
}

// bounds are the agents of group g: [lo, hi).
func (p plan) bounds(g int) (lo, hi int) { return g * p.size, min(p.n, (g+1)*p.size) }

// pages is how many pages the front list has.
func (p plan) pages() int { return (p.n + pageSize - 1) / pageSize }

// flat reports whether the site is one group: one AI Catalog, with no
// nested ones.
func (p plan) flat() bool { return p.groups <= 1 }

// isDefault reports whether id is served at the origin's /.well-known/:
// the one site.defaultAgent names, or the only agent.
func (p plan) isDefault(id string) bool {
	if p.defaultAgent != "" {
		return id == p.defaultAgent
	}
	return p.n == 1
}

// pieces are the listing files group g writes.
func (p plan) pieces(g int) []string {
	var out []string
	first, last := g*p.size/pageSize+1, (min(p.n, (g+1)*p.size)+pageSize-1)/pageSize
	for n := first; n <= max(last, first); n++ {
		out = append(out, frontPage(n))
	}
	out = append(out, p.catalogPiece(g), searchShard(g))
	if p.flat() {
		// The catalog's page lists what the one catalog does.
		out = append(out, catalogPageFile)
	}
	if p.indexed {
		out = append(out, sitemapPiece(g))
	}
	return out
}

// catalogPiece is where group g's catalog entries go: the catalog itself
// for a site of one group, else a nested catalog.
func (p plan) catalogPiece(g int) string {
	if p.flat() {
		return layout.WellKnown + "/" + layout.CatalogFile
	}
	return layout.CatalogFolder + "/" + strconv.Itoa(g+1) + ".json"
}

// catalogPageFile is the catalog's page: a listing piece of a site of one
// group, else a file of the whole site.
const catalogPageFile = layout.CatalogPage + layout.IndexFile

// frontPage is the file of page p of the front list.
func frontPage(p int) string {
	if p == 1 {
		return "index.html"
	}
	return layout.PagesFolder + "/" + strconv.Itoa(p) + "/index.html"
}

// searchShard is the file of search shard g.
func searchShard(g int) string { return layout.SearchFolder + "/" + strconv.Itoa(g+1) + ".json" }

// sitemapPiece is the file of sitemap piece g, past SitemapMaxURLs.
func sitemapPiece(g int) string { return layout.SitemapsFolder + "/" + strconv.Itoa(g+1) + ".xml" }
