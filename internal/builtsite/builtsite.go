// Package builtsite reads a built site back: given a folder, it lists the
// files that make it a site (root and per-agent cards in both shapes, the
// JWKS, the root and nested AI Catalogs, MCP Server Cards, extended cards
// of a private output), each classified by where it lies (package
// layout). Lint and verify both walk a site through it.
//
// The walk never follows a symbolic link: a file that is not a regular
// one (a link, a device, a pipe) is listed as the walk met it, for its
// reader to refuse, since a hostile site would hide a card behind one.
// Sizes are not checked here: the reader of each file holds it to the
// limit that applies.
package builtsite

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcards/agentcards/internal/layout"
)

// Kind is what a file of a built site is, by its path.
type Kind int

// The kinds of file a site holds.
const (
	// Other is any file not listed below.
	Other Kind = iota
	// RootCard is .well-known/agent-card.json, the default agent's card.
	RootCard
	// RootLegacy is .well-known/agent.json.
	RootLegacy
	// AgentCard is agents/<id>/.well-known/agent-card.json.
	AgentCard
	// AgentLegacy is agents/<id>/.well-known/agent.json.
	AgentLegacy
	// StrayCard is a file named agent-card.json or agent.json anywhere
	// else (but catalog/, whose .json files are NestedCatalog): no build
	// writes one, but a card is a card wherever it lies.
	StrayCard
	// JWKS is .well-known/jwks.json.
	JWKS
	// Catalog is the root AI Catalog, .well-known/ai-catalog.json.
	Catalog
	// NestedCatalog is catalog/<name>.json.
	NestedCatalog
	// ServerCard is mcp/<id>/server-card.json.
	ServerCard
	// ExtendedCard is agents/<id>/extended-agent[-card][.<tier>].json,
	// where a private output holds extended cards.
	ExtendedCard
	// Link is a symbolic link anywhere in the site, to a file or a
	// folder: a build writes none and a host serves none, so a site's
	// reader refuses it rather than follow it out of the site.
	Link
	// UpstreamCard is agents/<id>/.well-known/upstream-agent-card.json,
	// beside a remote agent's gateway card: its owner's card as fetched,
	// signed by the owner, not by the site (verify checks it with the
	// gateway card; lint leaves it to the gateway card, which says the
	// same).
	UpstreamCard
	// UpstreamJWKS is agents/<id>/.well-known/upstream-jwks.json: the
	// owner's JWKS that verified UpstreamCard when it was fetched.
	UpstreamJWKS
)

// Classify is the kind of the file at rel, a slash path inside a site.
func Classify(rel string) Kind {
	parts := strings.Split(rel, "/")
	last := parts[len(parts)-1]
	switch {
	case len(parts) == 2 && parts[0] == layout.WellKnown:
		return map[string]Kind{layout.CardFile: RootCard, layout.LegacyFile: RootLegacy, layout.JWKSFile: JWKS, layout.CatalogFile: Catalog}[last]
	case len(parts) == 4 && parts[0] == layout.AgentsFolder && parts[2] == layout.WellKnown && last == layout.CardFile:
		return AgentCard
	case len(parts) == 4 && parts[0] == layout.AgentsFolder && parts[2] == layout.WellKnown && last == layout.LegacyFile:
		return AgentLegacy
	case len(parts) == 4 && parts[0] == layout.AgentsFolder && parts[2] == layout.WellKnown && last == layout.UpstreamCardFile:
		return UpstreamCard
	case len(parts) == 4 && parts[0] == layout.AgentsFolder && parts[2] == layout.WellKnown && last == layout.UpstreamJWKSFile:
		return UpstreamJWKS
	case len(parts) == 2 && parts[0] == layout.CatalogFolder && strings.HasSuffix(last, ".json"):
		return NestedCatalog
	case last == layout.CardFile || last == layout.LegacyFile:
		return StrayCard
	case layout.IsServerCardPath(rel):
		return ServerCard
	case len(parts) == 3 && parts[0] == layout.AgentsFolder && layout.IsExtendedName(last) && strings.HasSuffix(last, ".json"):
		return ExtendedCard
	}
	return Other
}

// IsCard reports an Agent Card in either shape, wherever it lies.
func (k Kind) IsCard() bool { return k >= RootCard && k <= StrayCard }

// IsCatalog reports the root or a nested AI Catalog.
func (k Kind) IsCatalog() bool { return k == Catalog || k == NestedCatalog }

// A File is one file a site holds.
type File struct {
	// Path is the site's folder joined with the file's path inside it.
	Path string
	Kind Kind
	// Entry is the file as the walk met it: a link is not followed.
	Entry fs.DirEntry
}

// Regular reports a regular file, which is all a site's reader reads.
func (f File) Regular() bool { return f.Entry.Type().IsRegular() }

// List walks the site at dir and returns its files of every kind but
// Other, in the order filepath.WalkDir visits them (lexical, folder by
// folder). The folders of agents (agents/<id>) are walked on every core.
// A folder that cannot be read stops the walk with its error.
func List(dir string) ([]File, error) {
	agentsDir := filepath.Join(dir, layout.AgentsFolder)
	// Each piece is a file met at the top, or an agent's folder, walked
	// below.
	type piece struct {
		file    File
		subtree string
		found   []File
		err     error
	}
	var pieces []*piece
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if filepath.Dir(p) == agentsDir {
				pieces = append(pieces, &piece{subtree: p})
				return filepath.SkipDir
			}
			return nil
		}
		if f, ok := classify(dir, p, d); ok {
			pieces = append(pieces, &piece{file: f})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(pieces), 1)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(pieces); i = int(next.Add(1)) - 1 {
				if pc := pieces[i]; pc.subtree != "" {
					pc.err = walkFiles(pc.subtree, func(p string, d fs.DirEntry) {
						if f, ok := classify(dir, p, d); ok {
							pc.found = append(pc.found, f)
						}
					})
				}
			}
		})
	}
	wg.Wait()
	var out []File
	for _, pc := range pieces {
		if pc.err != nil {
			return nil, pc.err
		}
		if pc.subtree == "" {
			out = append(out, pc.file)
		}
		out = append(out, pc.found...)
	}
	return out, nil
}

// classify is the File at p (met as d) in the site dir, unless it is
// Other.
func classify(dir, p string, d fs.DirEntry) (File, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return File{}, false
	}
	k := Classify(filepath.ToSlash(rel))
	if d.Type()&fs.ModeSymlink != 0 {
		k = Link
	}
	return File{Path: p, Kind: k, Entry: d}, k != Other
}

// walkFiles calls visit on every entry under dir (a folder) that is not a
// folder, in lexical order, as filepath.WalkDir would, but without
// statting dir first: its caller met it as a folder's entry.
func walkFiles(dir string, visit func(p string, d fs.DirEntry)) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			if err := walkFiles(p, visit); err != nil {
				return err
			}
			continue
		}
		visit(p, e)
	}
	return nil
}

// A Pair is the two shapes of the card in one folder: the root's
// .well-known or an agent's.
type Pair struct {
	// Dir is the folder; Root reports the site's root one.
	Dir  string
	Root bool
	// Card and Legacy are the agent-card.json and agent.json there, nil
	// when absent.
	Card, Legacy *File
}

// Pairs groups the root and agent cards among files (stray ones are
// left out) by folder, sorted by folder, the root's last: an agent's
// cards are read before the root's, which copy one agent's.
func Pairs(files []File) []Pair {
	byDir := map[string]*Pair{}
	var order []string
	for i := range files {
		f := &files[i]
		if f.Kind == StrayCard || !f.Kind.IsCard() {
			continue
		}
		d := filepath.Dir(f.Path)
		pr := byDir[d]
		if pr == nil {
			pr = &Pair{Dir: d, Root: f.Kind == RootCard || f.Kind == RootLegacy}
			byDir[d] = pr
			order = append(order, d)
		}
		if f.Kind == RootCard || f.Kind == AgentCard {
			pr.Card = f
		} else {
			pr.Legacy = f
		}
	}
	slices.Sort(order)
	out := make([]Pair, 0, len(order))
	var root []Pair
	for _, d := range order {
		if byDir[d].Root {
			root = append(root, *byDir[d])
		} else {
			out = append(out, *byDir[d])
		}
	}
	return append(out, root...)
}
