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
	type piece struct {
		name string
		make func() ([]byte, error)
	}
	var todo []piece
	pages := b.plan.pages()
	for k := 0; k < len(agents); k += pageSize {
		p := (g*b.plan.size+k)/pageSize + 1
		list := agents[k:min(len(agents), k+pageSize)]
		todo = append(todo, piece{frontPage(p), func() ([]byte, error) { return b.pages.frontPage(p, pages, list) }})
	}
	if len(agents) == 0 {
		todo = append(todo, piece{frontPage(1), func() ([]byte, error) { return b.pages.frontPage(1, 1, nil) }})
	}
	todo = append(todo,
		piece{b.plan.catalogPiece(g), func() ([]byte, error) { return catalogDocument(b.m, agents, b.plan.flat()) }},
		piece{catalogPageFile, func() ([]byte, error) { return b.pages.catalogPage(agents) }},
		piece{searchShard(g), func() ([]byte, error) {
			if g == 0 {
				return searchShardData(agents, b.m.MCPServers, b.plan.isDefault)
			}
			return searchShardData(agents, nil, b.plan.isDefault)
		}})
	if b.plan.indexed {
		todo = append(todo, piece{sitemapPiece(g), func() ([]byte, error) {
			var urls []string
			for _, a := range agents {
				urls = append(urls, AgentURL(b.m, a.ID))
			}
			return urlset(urls), nil
		}})
	}
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
