package verify

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcards/agentcards/internal/builtsite"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/trust"
)

// A built site folder: its cards found and checked on every core, the keys
// they use, its root card and legacy agent.json.

// verifySite checks every card under dir, its JWKS and its catalog.
func verifySite(ctx context.Context, dir string, opts Options, rep *Report) error {
	jwksPath := filepath.Join(dir, filepath.FromSlash(layout.JWKS))
	if _, err := os.Stat(jwksPath); err != nil && opts.JWKS == "" {
		return usagef("%s is not a built site: no .well-known/jwks.json", dir)
	}
	if err := noLinkBelow(dir, jwksPath); err != nil && opts.JWKS == "" {
		return usagef("%v", err)
	}
	ks, err := trustedKeys(ctx, opts, "", jwksPath, nil)
	if err != nil {
		return err
	}
	// The catalogs are read while the cards are checked.
	cats := make(chan *siteCatalogs, 1)
	go func() { cats <- preloadCatalogs(dir, catalogOptions(opts)) }()
	rootPath := filepath.Join(dir, filepath.FromSlash(layout.RootCard))
	rootCard, rootErr := readInSite(dir, rootPath, opts)
	checked, err := checkCards(dir, ks, opts, rootCard, rootErr == nil)
	if err != nil {
		return usagef("%v", err)
	}
	if len(checked) == 0 {
		// A site of MCP servers only has no agent card; its catalog and
		// Server Cards are still checked.
		checkCatalog(dir, map[string]bool{}, map[string]*Card{}, <-cats, opts, rep)
		if len(rep.ServerCards) == 0 {
			rep.Problems = append(rep.Problems, dir+": no agent cards found")
		} else {
			rep.Warnings = append(rep.Warnings, dir+": no agent cards: only MCP Server Cards, which carry no signature, so nothing signed was verified")
		}
		return nil
	}
	rep.Problems = append(rep.Problems, ks.Leaked...)
	used := map[string]bool{}
	jkus := map[string]bool{} // each jku named: whether a verified signature names it
	rep.Cards = slices.Grow(rep.Cards, len(checked))
	files := make([]string, len(checked))
	read := make(map[string]*Card, len(checked))
	defaultCard := ""
	for i, c := range checked {
		files[i] = c.path
		// rep.Cards has room for them all (slices.Grow): no card moves.
		rep.Cards = append(rep.Cards, c.card)
		if c.read {
			// The report's copy: checked is dead by the catalog check.
			read[c.path] = &rep.Cards[len(rep.Cards)-1]
		}
		if c.isRoot && defaultCard == "" {
			defaultCard = c.path
		}
		for _, s := range c.card.Signatures {
			if s.KID != "" {
				used[s.KID] = true
			}
			if s.JKU != "" {
				jkus[s.JKU] = jkus[s.JKU] || s.Verified
			}
		}
	}
	// Every kid used is in the JWKS; unused keys are only a warning (a
	// key published ahead of a rotation, or kept after one).
	for kid := range used {
		if ks.Set.Find(kid) == nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: kid %s signs cards but is not in the JWKS", dir, kid))
		}
	}
	for _, k := range ks.Set.Keys {
		if !used[k.KeyID] {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: JWKS key %s (%s) signs no card (fine ahead of or after a rotation)", dir, k.KeyID, k.Algorithm))
		}
	}
	if len(jkus) > 1 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: cards name %d different jku values", dir, len(jkus)))
	}
	switch {
	case rootErr != nil:
		rep.Problems = append(rep.Problems, dir+": no /.well-known/agent-card.json")
	case defaultCard != "":
		checkRootLegacy(dir, filepath.Dir(defaultCard), opts, rep)
	case len(files) > 2 || !slices.Contains(files, rootPath):
		// A site of agents whose root card is none of theirs (a single-card
		// site has only the root's cards).
		if agents, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(layout.AgentCard("*")))); len(agents) > 0 {
			rep.Problems = append(rep.Problems, dir+": /.well-known/agent-card.json is not the card of any agent under agents/")
		}
	}
	checkCatalog(dir, jkus, read, <-cats, opts, rep)
	return nil
}

// checked is the outcome for one card file of a site.
type checked struct {
	path string
	card Card
	// read reports that the file was read, as a regular file the walk of
	// the site reached (which never follows a link), so it exists inside
	// the site; isRoot that it is an agent's agent-card.json equal to the
	// site's root card.
	read, isRoot bool
}

// checkCards finds every agent-card.json and agent.json under dir (wherever
// it lies: builtsite lists them) and checks each against ks, on every
// core. Each worker holds one card at a time. The outcomes come sorted by
// path. rootCard is the site's root card (when hasRoot): agent-card.json
// files elsewhere equal to it are marked.
func checkCards(dir string, ks *trust.Keys, opts Options, rootCard []byte, hasRoot bool) ([]checked, error) {
	rootDir := filepath.Join(dir, layout.WellKnown)
	files, err := builtsite.List(dir)
	if err != nil {
		return nil, err
	}
	// Cards, and what must not be in a published site at all: links
	// (a build writes none) and extended cards (for authenticated
	// callers only), each reported as a card that did not verify.
	files = slices.DeleteFunc(files, func(f builtsite.File) bool {
		return !isCardFile(f.Entry) && f.Kind != builtsite.Link && f.Kind != builtsite.ExtendedCard
	})
	out := make([]checked, len(files))
	linter := &lint.Linter{}
	names := &interner{}
	// A worker takes the files of one folder at a time, in order: an
	// agent's agent-card.json, then its agent.json, whose strings the
	// linter then remembers from the first (two workers taking one each
	// would both judge them).
	units := folderUnits(files)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(units)-1, 1)) {
		wg.Go(func() {
			var buf []byte // the card being checked: one per worker
			for u := int(next.Add(1)) - 1; u < len(units)-1; u = int(next.Add(1)) - 1 {
				for i := units[u]; i < units[u+1]; i++ {
					p, d := files[i].Path, files[i].Entry
					var body []byte
					var err error
					if files[i].Kind == builtsite.ExtendedCard && d.Type()&fs.ModeSymlink == 0 {
						err = fmt.Errorf("%s is an extended card in a public site: extended cards are for authenticated callers only; remove it and publish only the build's public output", p)
					} else {
						body, buf, err = readCard(p, d, opts, buf)
					}
					if err != nil {
						out[i] = checked{path: p, card: Card{Source: p, JWKS: ks.From, Outcome: OutcomeNotVerified, Signatures: []Signature{}, Problems: []string{err.Error()}}}
						continue
					}
					isRoot := hasRoot && filepath.Dir(p) != rootDir && d.Name() == layout.CardFile && bytes.Equal(body, rootCard)
					o := opts
					// The root card is a copy: linted once. Both shapes of a
					// card are linted (a hostile site may change either);
					// what the agent.json repeats is dropped below.
					o.skipLint = isRoot
					o.linter = linter
					o.names = names
					c := checkCard(p, body, ks, o)
					if filepath.Dir(p) != rootDir {
						// The root card is an agent's copy: checked there.
						checkGatewayLocal(p, o, &c)
					}
					out[i] = checked{path: p, card: c, read: d.Type().IsRegular(), isRoot: isRoot}
				}
			}
		})
	}
	wg.Wait()
	// The walk's order is by name, folder by folder, which is usually
	// the order of the paths too.
	byPath := func(a, b checked) int { return strings.Compare(a.path, b.path) }
	if !slices.IsSortedFunc(out, byPath) {
		slices.SortFunc(out, byPath)
	}
	twinLint(out, filepath.Join(rootDir, layout.CardFile))
	return out, nil
}

// folderUnits splits files into runs of files in one folder: run k is
// files[units[k]:units[k+1]].
func folderUnits(files []builtsite.File) []int {
	units := make([]int, 0, len(files)/2+2)
	prev := ""
	for i, f := range files {
		if d := filepath.Dir(f.Path); i == 0 || d != prev {
			units = append(units, i)
			prev = d
		}
	}
	return append(units, len(files))
}

// twinLint drops from each agent.json's lint findings what the
// agent-card.json beside it says already (or, for an agent whose
// agent-card.json is the root card's copy, what the root card says):
// both are made from one entry, and a finding is reported once. out is
// sorted by path, so agent-card.json comes just before agent.json.
func twinLint(out []checked, rootCardPath string) {
	var root []lint.Finding
	for _, c := range out {
		if c.path == rootCardPath {
			root = c.card.Lint
		}
	}
	for i := 1; i < len(out); i++ {
		c, prev := &out[i], out[i-1]
		if filepath.Base(c.path) != layout.LegacyFile || prev.path != filepath.Join(filepath.Dir(c.path), layout.CardFile) {
			continue
		}
		first := prev.card.Lint
		if prev.isRoot {
			first = root
		}
		c.card.Lint = lint.Twin(first, c.card.Lint)
	}
}

// isCardFile reports an agent-card.json or agent.json (not a folder).
func isCardFile(d fs.DirEntry) bool {
	return !d.IsDir() && (d.Name() == layout.CardFile || d.Name() == layout.LegacyFile)
}

// checkRootLegacy: the root agent.json must be the default agent's, whose
// agent-card.json the root's equals (in cardDir).
func checkRootLegacy(dir, cardDir string, opts Options, rep *Report) {
	legacyRoot, _ := readInSite(dir, filepath.Join(dir, filepath.FromSlash(layout.RootLegacy)), opts)
	legacy, _ := readInSite(dir, filepath.Join(cardDir, layout.LegacyFile), opts)
	if string(legacyRoot) != string(legacy) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: root agent.json is not the default agent's (%s)", dir, filepath.Dir(cardDir)))
	}
}
