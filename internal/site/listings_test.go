package site

import (
	"slices"
	"testing"

	"github.com/agentcards/agentcards/internal/manifest"
)

// TestListingPiecesArePlanned checks that a group makes exactly the
// listing files the plan gives it, in a site of one group and in one of
// many (whose catalog page is the whole site's, written once).
func TestListingPiecesArePlanned(t *testing.T) {
	g, f, p, s := groupSize, flatMax, pageSize, sitemapMaxURLs
	t.Cleanup(func() { groupSize, flatMax, pageSize, sitemapMaxURLs = g, f, p, s })
	groupSize, flatMax, pageSize, sitemapMaxURLs = 4, 4, 2, 6
	for _, n := range []int{0, 1, 3, 4, 5, 10} {
		b := &builder{plan: newPlan(n, "")}
		for g := range b.plan.groups {
			lo, hi := b.plan.bounds(g)
			agents := make([]*manifest.Agent, max(hi-lo, 0))
			var names []string
			for _, piece := range b.listingPieces(g, agents) {
				names = append(names, piece.name)
			}
			if want := b.plan.pieces(g); !slices.Equal(names, want) {
				t.Errorf("%d agents, group %d: makes %q, want %q", n, g, names, want)
			}
		}
	}
}
