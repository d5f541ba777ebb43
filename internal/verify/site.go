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
	cards := siteCards{root: rootPath, used: map[string]bool{}, jkus: map[string]bool{}, read: newCardsRead()}
	err = checkCards(dir, ks, opts, rootCard, rootErr == nil, func(c checked) {
		cards.add(c)
		rep.Add(c.card)
	})
	if err != nil {
		go func() { (<-cats).nested.stop() }()
		return usagef("%v", err)
	}
	if cards.n == 0 {
		// A site of MCP servers only has no agent card; its catalog and
		// Server Cards are still checked.
		checkCatalog(dir, map[string]bool{}, newCardsRead(), <-cats, opts, rep)
		if len(rep.ServerCards) == 0 {
			rep.Problems = append(rep.Problems, dir+": no agent cards found")
		} else {
			rep.Warnings = append(rep.Warnings, dir+": no agent cards: only MCP Server Cards, which carry no signature, so nothing signed was verified")
		}
		return nil
	}
	rep.Problems = append(rep.Problems, ks.Leaked...)
	// Every kid used is in the JWKS; unused keys are only a warning (a
	// key published ahead of a rotation, or kept after one).
	for kid := range cards.used {
		if ks.Set.Find(kid) == nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: kid %s signs cards but is not in the JWKS", dir, kid))
		}
	}
	for _, k := range ks.Set.Keys {
		if !cards.used[k.KeyID] {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: JWKS key %s (%s) signs no card (fine ahead of or after a rotation)", dir, k.KeyID, k.Algorithm))
		}
	}
	if len(cards.jkus) > 1 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: cards name %d different jku values", dir, len(cards.jkus)))
	}
	switch {
	case rootErr != nil:
		rep.Problems = append(rep.Problems, dir+": no /.well-known/agent-card.json")
	case cards.defaultCard != "":
		checkRootLegacy(dir, filepath.Dir(cards.defaultCard), opts, rep)
	case cards.n > 2 || !cards.hasRoot:
		// A site of agents whose root card is none of theirs (a single-card
		// site has only the root's cards).
		if agents, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(layout.AgentCard("*")))); len(agents) > 0 {
			rep.Problems = append(rep.Problems, dir+": /.well-known/agent-card.json is not the card of any agent under agents/")
		}
	}
	checkCatalog(dir, cards.jkus, cards.read, <-cats, opts, rep)
	return nil
}

// siteCards is what the checks of a whole site need of its cards, taken
// from each as it goes to the report.
type siteCards struct {
	root string // the root card's path
	// n counts the cards; hasRoot says one was the root card.
	n       int
	hasRoot bool
	// used holds the kids that sign cards; jkus each jku named, and
	// whether a verified signature names it.
	used, jkus map[string]bool
	// read holds what the catalog check needs of the card files known
	// to exist (they were read), by path.
	read *cardsRead
	// defaultCard is the first agent's agent-card.json that the root
	// card copies.
	defaultCard string
}

// cardFacts is what a site's catalog check needs of a card.
type cardFacts struct {
	name        string
	description descDigest
}

// add takes what the site's checks need of c.
func (s *siteCards) add(c checked) {
	s.n++
	s.hasRoot = s.hasRoot || c.path == s.root
	if c.read {
		s.read.add(c.path, cardFacts{name: c.card.Name, description: c.card.description})
	}
	if c.isRoot && s.defaultCard == "" {
		s.defaultCard = c.path
	}
	for _, sig := range c.card.Signatures {
		if sig.KID != "" {
			s.used[sig.KID] = true
		}
		if sig.JKU != "" {
			s.jkus[sig.JKU] = s.jkus[sig.JKU] || sig.Verified
		}
	}
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

// chunkFolders is how many folders' cards the workers check between two
// hand-overs to the report: the most cards held at once is about four
// times as many (two chunks of two cards a folder).
const chunkFolders = 256

// cardChecker checks the card files of one site (checkCards).
type cardChecker struct {
	dir, rootDir string
	files        []builtsite.File
	ks           *trust.Keys
	opts         Options
	rootCard     []byte
	hasRoot      bool
	// bufs are the workers' buffers for the card being read, one each.
	bufs [][]byte
}

// checkCards finds every agent-card.json and agent.json under dir (wherever
// it lies: builtsite lists them) and checks each against ks, on every
// core, giving each outcome to emit in the order of the paths. The files
// are checked a chunk of folders at a time, the report taking one chunk
// while the workers check the next: memory holds two chunks' cards, however
// large the site. rootCard is the site's root card (when hasRoot):
// agent-card.json files elsewhere equal to it are marked.
func checkCards(dir string, ks *trust.Keys, opts Options, rootCard []byte, hasRoot bool, emit func(checked)) error {
	files, err := builtsite.List(dir)
	if err != nil {
		return err
	}
	// Cards, and what must not be in a published site at all: links
	// (a build writes none) and extended cards (for authenticated
	// callers only), each reported as a card that did not verify.
	files = slices.DeleteFunc(files, func(f builtsite.File) bool {
		return !isCardFile(f.Entry) && f.Kind != builtsite.Link && f.Kind != builtsite.ExtendedCard
	})
	// The walk's order is by name, folder by folder, which is usually
	// the order of the paths too.
	byPath := func(a, b builtsite.File) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(files, byPath) {
		slices.SortFunc(files, byPath)
	}
	o := opts
	o.linter = &lint.Linter{}
	o.names = &interner{}
	cc := &cardChecker{dir: dir, rootDir: filepath.Join(dir, layout.WellKnown), files: files, ks: ks, opts: o, rootCard: rootCard, hasRoot: hasRoot}
	workers := runtime.GOMAXPROCS(0)
	cc.bufs = make([][]byte, workers)
	// The root card first, on its own: an agent.json beside a copy of it
	// is linted against it (twinLint), wherever the copy lies.
	tw := twins{rootPath: filepath.Join(cc.rootDir, layout.CardFile)}
	root := -1
	if i, ok := slices.BinarySearchFunc(files, tw.rootPath, func(f builtsite.File, p string) int { return strings.Compare(f.Path, p) }); ok {
		root = i
		c := cc.check(i, &cc.bufs[0])
		tw.root = c.card.Lint
		tw.rootDone = &c
	}
	// A worker takes the files of one folder at a time, in order: an
	// agent's agent-card.json, then its agent.json, whose strings the
	// linter then remembers from the first (two workers taking one each
	// would both judge them).
	units := folderUnits(files)
	var done []checked
	for first := 0; first < len(units)-1; first += chunkFolders {
		last := min(first+chunkFolders, len(units)-1)
		from, to := units[first], units[last]
		out := make([]checked, to-from)
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := range min(workers, last-first) {
			wg.Go(func() {
				for u := first + int(next.Add(1)) - 1; u < last; u = first + int(next.Add(1)) - 1 {
					for i := units[u]; i < units[u+1]; i++ {
						if i == root {
							out[i-from] = *tw.rootDone
						} else {
							out[i-from] = cc.check(i, &cc.bufs[w])
						}
					}
				}
			})
		}
		// The previous chunk goes to the report while this one is checked.
		tw.emit(done, emit)
		wg.Wait()
		done = out
	}
	tw.emit(done, emit)
	return nil
}

// check checks the card file files[i] with the worker's buffer buf, and
// drops the file's entry: each is checked once.
func (cc *cardChecker) check(i int, buf *[]byte) checked {
	f := cc.files[i]
	cc.files[i] = builtsite.File{}
	p, d := f.Path, f.Entry
	var body []byte
	var err error
	if f.Kind == builtsite.ExtendedCard && d.Type()&fs.ModeSymlink == 0 {
		err = fmt.Errorf("%s is an extended card in a public site: extended cards are for authenticated callers only; remove it and publish only the build's public output", p)
	} else {
		body, *buf, err = readCard(p, d, cc.opts, *buf)
	}
	if err != nil {
		return checked{path: p, card: Card{Source: p, JWKS: cc.ks.From, Outcome: OutcomeNotVerified, Signatures: []Signature{}, Problems: []string{err.Error()}}}
	}
	isRoot := cc.hasRoot && filepath.Dir(p) != cc.rootDir && d.Name() == layout.CardFile && bytes.Equal(body, cc.rootCard)
	o := cc.opts
	// The root card is a copy: linted once. Both shapes of a
	// card are linted (a hostile site may change either);
	// what the agent.json repeats is dropped (twins).
	o.skipLint = isRoot
	c := checkCard(p, body, cc.ks, o)
	if filepath.Dir(p) != cc.rootDir {
		// The root card is an agent's copy: checked there.
		checkGatewayLocal(p, o, &c)
	}
	return checked{path: p, card: c, read: d.Type().IsRegular(), isRoot: isRoot}
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

// twins drops from each agent.json's lint findings what the
// agent-card.json beside it says already (or, for an agent whose
// agent-card.json is the root card's copy, what the root card says):
// both are made from one entry, and a finding is reported once. The
// cards come sorted by path, so agent-card.json comes just before
// agent.json.
type twins struct {
	rootPath string
	// root is the root card's findings; rootDone its outcome, checked
	// before the others.
	root     []lint.Finding
	rootDone *checked
	// prev is the card given out last.
	prev  checked
	given bool
}

// emit gives out the cards of a chunk, each agent.json's lint findings
// without those its twin has.
func (t *twins) emit(out []checked, emit func(checked)) {
	for i := range out {
		c := &out[i]
		if t.given && filepath.Base(c.path) == layout.LegacyFile && t.prev.path == filepath.Join(filepath.Dir(c.path), layout.CardFile) {
			first := t.prev.card.Lint
			if t.prev.isRoot {
				first = t.root
			}
			c.card.Lint = lint.Twin(first, c.card.Lint)
		}
		t.prev, t.given = *c, true
		emit(*c)
		out[i] = checked{} // the report has it now
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
