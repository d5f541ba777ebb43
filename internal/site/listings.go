package site

import (
	"runtime"

	"github.com/agentcards/agentcards/internal/manifest"
)

// writeListings writes group g's pages of the front list, catalog piece,
// search shard and sitemap piece.
func (b *builder) writeListings(g int, ms []member, pieces []string, gk key) error {
	agents := make([]*manifest.Agent, len(ms))
	for j := range ms {
		agents[j] = ms[j].agent
	}
	// The pieces are made on every core: a site of up to flatMax agents is
	// one group, whose listings would otherwise be its last, serial step.
	todo := b.listingPieces(g, agents)
	made := make([][]byte, len(todo))
	var res groupResult
	parallel(len(todo), runtime.GOMAXPROCS(0), func(i int) error {
		var err error
		made[i], err = todo[i].make()
		return err
	}, &res)
	if res.err != nil {
		return res.err
	}
	out := make(map[string][]byte, len(todo))
	for i, p := range todo {
		out[p.name] = made[i]
	}
	for _, rel := range pieces {
		if err := b.tree.replace(rel, gk, out[rel]); err != nil {
			return err
		}
	}
	return nil
}

// listingPiece is one listing file of a group, and how to make it.
type listingPiece struct {
	name string
	make func() ([]byte, error)
}

// listingPieces are the listing files of group g, whose agents are
// agents: the ones plan.pieces names, each made only when called.
func (b *builder) listingPieces(g int, agents []*manifest.Agent) []listingPiece {
	var todo []listingPiece
	pages := b.plan.pages()
	for k := 0; k < len(agents); k += pageSize {
		p := (g*b.plan.size+k)/pageSize + 1
		list := agents[k:min(len(agents), k+pageSize)]
		todo = append(todo, listingPiece{frontPage(p), func() ([]byte, error) { return b.pages.frontPage(p, pages, list) }})
	}
	if len(agents) == 0 {
		todo = append(todo, listingPiece{frontPage(1), func() ([]byte, error) { return b.pages.frontPage(1, 1, nil) }})
	}
	todo = append(todo,
		listingPiece{b.plan.catalogPiece(g), func() ([]byte, error) { return catalogDocument(b.m, agents, b.plan.flat()) }},
		listingPiece{searchShard(g), func() ([]byte, error) {
			if g == 0 {
				return searchShardData(agents, b.m.MCPServers, b.plan.isDefault)
			}
			return searchShardData(agents, nil, b.plan.isDefault)
		}})
	if b.plan.flat() {
		// A larger site's catalog page lists its nested catalogs, not
		// agents, and siteFiles writes it once: made here, every group
		// would render a list of every group, and throw it away.
		todo = append(todo, listingPiece{catalogPageFile, func() ([]byte, error) { return b.pages.catalogPage(agents) }})
	}
	if b.plan.indexed {
		todo = append(todo, listingPiece{sitemapPiece(g), func() ([]byte, error) {
			var urls []string
			for _, a := range agents {
				urls = append(urls, AgentURL(b.m, a.ID))
			}
			return urlset(urls), nil
		}})
	}
	return todo
}
