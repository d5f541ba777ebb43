package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/regular"
)

// A built site's catalogs: the root ai-catalog.json and the catalogs nested
// in it, read ahead while the cards are checked, and every entry held to a
// file of the site and to the site's publisher.

// catalogMaxBytes is the size limit of a local site's ai-catalog.json.
const catalogMaxBytes = 64 << 20

// catalogOptions are opts for reading catalogs, which grow with the number
// of agents: one may be larger than a card.
func catalogOptions(opts Options) Options {
	copts := opts
	// The caller's client (-cacert, -timeout, redirects) with the
	// catalog's size limit.
	var c fetch.Client
	if opts.Fetch != nil {
		c = *opts.Fetch
	}
	c.MaxBytes = max(maxBytes(opts), catalogMaxBytes)
	copts.Fetch = &c
	return copts
}

// loadedCatalog is a catalog file read and parsed, or the error that
// stopped either.
type loadedCatalog struct {
	cat               *aicatalog.Catalog
	problems          []aicatalog.Problem // where it departs from the spec
	readErr, parseErr error
	size              int64 // bytes read
}

// loadCatalog reads and parses the catalog at p.
func loadCatalog(p string, copts Options) loadedCatalog {
	// p is .well-known/ai-catalog.json or catalog/<name>.json: two levels
	// below the site, neither of them a link.
	data, err := readInSite(filepath.Dir(filepath.Dir(p)), p, copts)
	if err != nil {
		return loadedCatalog{readErr: err}
	}
	l := loadedCatalog{size: int64(len(data))}
	l.cat, l.problems, l.parseErr = aicatalog.Parse(data)
	return l
}

// siteCatalogs holds a site's root catalog, read ahead
// (preloadCatalogs), and reads its nested catalogs ahead of the check.
type siteCatalogs struct {
	root   loadedCatalog
	nested *prefetch // nil: none read ahead
}

// preloadCatalogs reads and parses a site's root catalog while its cards
// are checked, and starts reading the nested catalogs its entries name
// under the base URL of its host, in their order, a few ahead of the
// check (prefetch): a site of 100,000 agents has 500 of them, too many to
// hold at once. checkCatalog reads any other it needs.
func preloadCatalogs(dir string, copts Options) *siteCatalogs {
	c := &siteCatalogs{root: loadCatalog(filepath.Join(dir, filepath.FromSlash(layout.Catalog)), copts)}
	if c.root.readErr != nil || c.root.parseErr != nil {
		return c
	}
	base := strings.TrimSuffix(c.root.cat.HostDocumentationURL, "/")
	if base == "" {
		return c
	}
	var paths []string
	seen := map[string]bool{}
	for _, e := range c.root.cat.Entries {
		rel, ok := strings.CutPrefix(e.URL, base+"/")
		if e.TypeLower != aicatalog.MediaType || !ok {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if seen[p] || !regular.Within(p, dir) || !withinReal(p, dir) {
			continue
		}
		if len(paths) >= maxNestedCatalogs {
			break // checkCatalog reports the bound
		}
		seen[p] = true
		paths = append(paths, p)
	}
	c.nested = newPrefetch(paths, copts)
	return c
}

// prefetch reads catalogs ahead of their use, in a given order, at most
// prefetchAhead of them at once.
type prefetch struct {
	paths []string
	index map[string]int // paths' indices
	// loaded[i] receives paths[i]'s catalog once read.
	loaded []chan loadedCatalog
	next   int           // the next path to hand out
	room   chan struct{} // one token a catalog read ahead and not yet taken
	done   chan struct{} // closed: read no more
}

// prefetchAhead is the most catalogs prefetch holds at once, beyond the
// one in use.
var prefetchAhead = runtime.GOMAXPROCS(0) + 1

// newPrefetch starts reading the catalogs at paths, in order.
func newPrefetch(paths []string, copts Options) *prefetch {
	f := &prefetch{paths: paths, loaded: make([]chan loadedCatalog, len(paths)), room: make(chan struct{}, prefetchAhead), done: make(chan struct{})}
	f.index = make(map[string]int, len(paths))
	for i, p := range paths {
		f.loaded[i] = make(chan loadedCatalog, 1)
		f.index[p] = i
	}
	go func() {
		for i, p := range paths {
			select {
			case f.room <- struct{}{}:
			case <-f.done:
				return
			}
			go func() { f.loaded[i] <- loadCatalog(p, copts) }()
		}
	}()
	return f
}

// get returns the catalog at p when it is one still to come: those
// before it, which the check passed by, are dropped.
func (f *prefetch) get(p string) (loadedCatalog, bool) {
	if f == nil {
		return loadedCatalog{}, false
	}
	k, ok := f.index[p]
	if !ok || k < f.next {
		return loadedCatalog{}, false
	}
	for f.next < k {
		f.take()
	}
	return f.take(), true
}

// take waits for the catalog at paths[next], the next to come, and
// takes it.
func (f *prefetch) take() loadedCatalog {
	l := <-f.loaded[f.next]
	f.loaded[f.next] = nil
	f.next++
	<-f.room
	return l
}

// stop ends the reading ahead.
func (f *prefetch) stop() {
	if f != nil {
		close(f.done)
	}
}

// checkCatalog: every catalog entry's url names a file in the site, an
// A2A entry says what its card says, and every identifier claims the
// site's own publisher (sitePublisher); jkus holds the jku values the
// cards name, each true when a verified signature names it, read the
// card files known to exist (they were read), and cats the catalogs read
// ahead.
func checkCatalog(dir string, jkus map[string]bool, read *cardsRead, cats *siteCatalogs, opts Options, rep *Report) {
	copts := catalogOptions(opts)
	defer cats.nested.stop()
	if cats.root.readErr != nil {
		rep.Warnings = append(rep.Warnings, dir+": no /.well-known/ai-catalog.json")
		return
	}
	if err := cats.root.parseErr; err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: ai-catalog.json: %v", dir, err))
		return
	}
	cat := cats.root.cat
	rep.Notes = append(rep.Notes, unsignedCatalogNote(dir))
	specProblems(dir, layout.CatalogFile, cats.root.problems, rep)
	base := siteBase(dir, cat, jkus, rep)
	c := &catalogCheck{
		dir: dir, base: base, read: read, cats: cats, opts: opts, copts: copts, rep: rep,
		claims:  sitePublisher(dir, base, jkus, opts.Strict, rep),
		realDir: sync.OnceValues(func() (string, error) { return filepath.EvalSymlinks(dir) }),
		seen:    map[string]bool{},
	}
	c.claims("catalog host", hostPublisher(cat.HostIdentifier))
	c.entries("catalog", cat.Entries, false)
}

// siteBase is the site's base URL: from the catalog host, else from a jku.
// It reports the cards' jku values that are not the site's JWKS.
func siteBase(dir string, cat *aicatalog.Catalog, jkus map[string]bool, rep *Report) string {
	base := strings.TrimSuffix(cat.HostDocumentationURL, "/")
	if base == "" {
		for j := range jkus {
			base = strings.TrimSuffix(j, "/"+layout.JWKS)
		}
	}
	if base != "" {
		want := layout.URL(base, layout.JWKS)
		for j := range jkus {
			if j != want {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%s: cards name jku %s, but the site's JWKS is %s", dir, j, want))
			}
		}
	}
	return base
}

// catalogCheck is one check of a site's catalogs (checkCatalog).
type catalogCheck struct {
	dir, base   string
	read        *cardsRead
	cats        *siteCatalogs
	opts, copts Options
	rep         *Report
	claims      func(what, pub string)
	realDir     func() (string, error)
	// Each nested catalog is read once, and the nested catalogs of a site
	// are bounded in number and in bytes read.
	seen        map[string]bool
	nestedBytes int64
}

// local is the file of the site a URL of the site names.
func (c *catalogCheck) local(what string, i int, e aicatalog.Entry) (string, bool) {
	dir, rep := c.dir, c.rep
	rel, ok := strings.CutPrefix(e.URL, c.base+"/")
	if c.base == "" || !ok {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): url %s is not on this site (%s)", dir, what, i, e.Identifier, e.URL, c.base))
		return "", false
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if !regular.Within(p, dir) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): url %s leaves the site", dir, what, i, e.Identifier, e.URL))
		return "", false
	}
	if _, ok := c.read.get(p); ok {
		return p, true // reached by the walk: inside the site
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		// A link inside the site must not lead the check outside it.
		if realDir, err := c.realDir(); err == nil && !regular.Within(real, realDir) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): url %s leads outside the site", dir, what, i, e.Identifier, e.URL))
			return "", false
		}
	}
	if _, err := os.Stat(p); err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): %s does not exist in the site", dir, what, i, e.Identifier, rel))
		return "", false
	}
	return p, true
}

// entries checks the entries of the catalog what, and the catalogs they
// nest unless nested; false means a bound on the nested catalogs ended
// the check.
func (c *catalogCheck) entries(what string, entries []aicatalog.Entry, nested bool) bool {
	dir, rep := c.dir, c.rep
	for i, e := range entries {
		c.claims(fmt.Sprintf("%s entry %d (%s)", what, i, e.Identifier), publisherOf(e.Identifier))
		if e.Inline {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): carries its document inline (data), which agentcards does not publish: nothing vouches for it", dir, what, i, e.Identifier))
			continue
		}
		switch e.TypeLower {
		case aicatalog.AgentCardType:
			if p, ok := c.local(what, i, e); ok {
				facts, ok := c.read.get(p)
				checkSiteCardEntry(dir, what, i, e, c.base, p, facts, ok, rep)
			}
		case aicatalog.MediaType:
			if nested {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): a catalog nested two levels deep; agentcards nests one", dir, what, i, e.Identifier))
				continue
			}
			if !c.nestedCatalog(what, i, e) {
				return false
			}
		case aicatalog.ServerCardType:
			c.serverCardEntry(what, i, e)
		default:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): type %q is not one agentcards publishes, so nothing here vouches for it", dir, what, i, e.Identifier, e.Type))
		}
	}
	return true
}

// nestedCatalog checks the catalog entry i of what names, and its
// entries; false means a bound on the nested catalogs ended the check.
func (c *catalogCheck) nestedCatalog(what string, i int, e aicatalog.Entry) bool {
	dir, rep := c.dir, c.rep
	p, ok := c.local(what, i, e)
	if !ok || c.seen[p] {
		return true
	}
	c.seen[p] = true
	if len(c.seen) > maxNestedCatalogs {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: more than %d nested catalogs: the rest are not checked", dir, maxNestedCatalogs))
		return false
	}
	sub, ok := c.cats.nested.get(p)
	if !ok {
		sub = loadCatalog(p, c.copts)
	}
	if c.nestedBytes += sub.size; c.nestedBytes > maxNestedBytes {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: nested catalogs over %d bytes in all: the rest are not checked", dir, maxNestedBytes))
		return false
	}
	if sub.readErr != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d: %v", dir, what, i, sub.readErr))
		return true
	}
	if sub.parseErr != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s: %v", dir, e.URL, sub.parseErr))
		return true
	}
	rel := strings.TrimPrefix(e.URL, c.base+"/")
	specProblems(dir, rel, sub.problems, rep)
	c.claims(rel+" host", hostPublisher(sub.cat.HostIdentifier))
	c.entries(rel, sub.cat.Entries, true)
	return true
}

// serverCardEntry checks the Server Card entry i of what names.
func (c *catalogCheck) serverCardEntry(what string, i int, e aicatalog.Entry) {
	dir, rep := c.dir, c.rep
	p, ok := c.local(what, i, e)
	if !ok {
		return
	}
	rel := strings.TrimPrefix(e.URL, c.base+"/")
	if !layout.IsServerCardPath(rel) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): url %s is not a Server Card of this site (mcp/<id>/server-card.json)", dir, what, i, e.Identifier, e.URL))
		return
	}
	name, problems := checkServerCard(p, c.opts)
	for _, pr := range problems {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): %s: %s", dir, what, i, e.Identifier, rel, pr))
	}
	if len(problems) == 0 {
		rep.ServerCards = append(rep.ServerCards, ServerCard{Path: p, Identifier: e.Identifier, Name: name})
	}
}

// specProblems reports where the catalog file rel of the site dir departs
// from the AI Catalog spec.
func specProblems(dir, rel string, problems []aicatalog.Problem, rep *Report) {
	for _, p := range problems {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s does not follow the AI Catalog spec: %s", dir, rel, p))
	}
}

// Bounds on the nested catalogs verify reads from one site: agentcards
// writes one per 200 agents (site.GroupSize) past 1,000 (site.FlatMax).
const (
	maxNestedCatalogs = 10000
	maxNestedBytes    = 1 << 30
)
