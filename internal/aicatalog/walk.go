package aicatalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/fetch"
)

// Doc is a catalog document read, and where from.
type Doc struct {
	Source string // its URL or file name, for reports
	Body   []byte
	// URL and Network are the catalog's URL and the network its fetch
	// reached; nil for a file.
	URL     *url.URL
	Network *fetch.Network
}

// Visit is what a walk made of one entry.
type Visit struct {
	// Catalog is the catalog listing the entry, Index its place there.
	Catalog string
	Index   int
	Entry   Entry
	// URL is the entry's url, parsed; OtherOrigin says it is on another
	// origin than the root catalog (the one the caller named).
	URL         *url.URL
	OtherOrigin bool
	// Outcome is one of the Visit outcomes below, or what the caller's
	// card function set.
	Outcome string
	Problem string
	// Body and Final are the card fetched for an A2A entry, and the URL
	// it came from after redirects.
	Body  []byte
	Final *url.URL
	// From is the network of the catalog that lists the entry, which
	// bounds every fetch the entry leads to (nil for a catalog file).
	From *fetch.Network
	// Value is the caller's, set by its card function.
	Value any

	seq int // the order its catalog was found in
}

// Outcomes of a Visit that the walk sets.
const (
	Nested     = "nested-catalog" // a catalog, walked in turn
	NotChecked = "not-checked"    // not an A2A Agent Card, or carried inline
	Failed     = "failed"         // not fetched, or refused
	Skipped    = "skipped"        // past MaxEntries, MaxDepth or maxCatalogs
)

// WalkOptions bound a walk.
type WalkOptions struct {
	// Cards fetches the cards, Catalogs the nested catalogs (which may be
	// larger).
	Cards, Catalogs *fetch.Client
	// MaxEntries is the most entries taken in all, nested catalogs'
	// included (default DefaultMaxEntries); the rest are Skipped.
	MaxEntries int
	// Parallel is how many fetches run at once (default DefaultParallel).
	Parallel int
	// ServerCard, when set, is handed each MCP Server Card entry's
	// document as card is an A2A card's (else such entries are
	// NotChecked).
	ServerCard func(*Visit)
}

// Defaults for WalkOptions.
const (
	DefaultMaxEntries = 1000
	DefaultParallel   = 4
	// maxCatalogs is the most nested catalogs one walk reads.
	maxCatalogs = 100
	// maxWalkBytes is the most bytes of nested catalogs one walk reads.
	maxWalkBytes = 32 << 20
	// maxSkippedListed is how many entries past MaxEntries are listed.
	maxSkippedListed = 100
)

// Walk checks the catalog root against the spec and walks its entries:
// it fetches the card of every A2A Agent Card entry and hands it to card
// (called concurrently, at most opts.Parallel at once), and follows nested
// catalogs up to MaxDepth levels and maxCatalogs catalogs. The URLs a
// fetched catalog names are fetched within its network (fetch.GetWithin).
// It returns every entry in the catalogs' order (each catalog in the order
// it was found, its entries in its order), and what departs from the spec.
func Walk(ctx context.Context, root Doc, opts WalkOptions, card func(*Visit)) (visits []Visit, problems []string) {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.Parallel <= 0 {
		opts.Parallel = DefaultParallel
	}
	w := &walk{opts: opts, card: card, sem: make(chan struct{}, opts.Parallel), seen: map[string]bool{}, root: root.URL}
	if root.URL != nil {
		w.seen[root.URL.String()] = true // a catalog that lists itself is read once
	}
	cat, specProblems, err := Parse(root.Body)
	w.catalog(ctx, &root, cat, specProblems, err, 0, 1)
	w.wg.Wait()
	if n := w.skipped - maxSkippedListed; n > 0 {
		w.problems = append(w.problems, fmt.Sprintf("%d more entries past the first %d were skipped, not listed", n, opts.MaxEntries))
	}
	slices.SortStableFunc(w.visits, func(a, b *Visit) int { return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.Index, b.Index)) })
	visits = make([]Visit, len(w.visits))
	for i, v := range w.visits {
		visits[i] = *v
	}
	return visits, w.problems
}

// walk is the state of one Walk.
type walk struct {
	opts WalkOptions
	root *url.URL // the root catalog's URL; nil for a file
	card func(*Visit)
	sem  chan struct{}
	wg   sync.WaitGroup

	mu       sync.Mutex // guards the rest
	visits   []*Visit
	problems []string
	entries  int
	skipped  int // entries past MaxEntries
	catalogs int
	bytes    int64           // of the nested catalogs fetched
	seen     map[string]bool // nested catalog URLs read
}

// catalog takes the entries of one catalog (parsed, with its problems or
// the error that stopped parsing); nested catalogs are read in turn, at
// depth+1.
func (w *walk) catalog(ctx context.Context, doc *Doc, cat *Catalog, problems []Problem, err error, seq, depth int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.problems = append(w.problems, fmt.Sprintf("%s: not a catalog: %v", doc.Source, err))
		return
	}
	for _, p := range problems {
		w.problems = append(w.problems, fmt.Sprintf("%s does not follow the AI Catalog spec: %s", doc.Source, p))
	}
	for i, e := range cat.Entries {
		v := &Visit{Catalog: doc.Source, Index: i, Entry: e, From: doc.Network, seq: seq}
		if w.entries >= w.opts.MaxEntries {
			// Past the bound, a few entries are listed as skipped and the
			// rest counted: a catalog of a million entries is not a
			// million visits held in memory.
			if w.skipped++; w.skipped <= maxSkippedListed {
				v.Outcome, v.Problem = Skipped, fmt.Sprintf("past the first %d entries", w.opts.MaxEntries)
				w.visits = append(w.visits, v)
			}
			continue
		}
		w.visits = append(w.visits, v)
		w.entries++
		if e.Inline {
			v.Outcome, v.Problem = NotChecked, "carries its document inline (data), not at a url"
			if e.TypeLower == AgentCardType {
				// An agent card nobody can fetch from its origin, so no
				// key of that origin can vouch for it.
				v.Outcome, v.Problem = Failed, "carries its A2A card inline (data): no origin's key can vouch for a card not served from it"
			}
			continue
		}
		u, err := url.Parse(e.URL)
		if err != nil || !u.IsAbs() || u.Host == "" {
			v.Outcome, v.Problem = Failed, fmt.Sprintf("url %q is not an absolute URL", e.URL)
			continue
		}
		if err := fetch.CheckURL(u); err != nil {
			v.Outcome, v.Problem = Failed, fmt.Sprintf("url %s: %v", u.Redacted(), err)
			continue
		}
		v.URL = u
		v.OtherOrigin = w.root != nil && Origin(u) != Origin(w.root)
		switch e.TypeLower {
		case AgentCardType:
			w.spawn(func() { w.fetchCard(ctx, v, doc.Network, w.card) })
		case ServerCardType:
			if w.opts.ServerCard == nil {
				v.Outcome, v.Problem = NotChecked, "not an A2A Agent Card or a nested catalog"
				break
			}
			w.spawn(func() { w.fetchCard(ctx, v, doc.Network, w.opts.ServerCard) })
		case MediaType:
			v.Outcome = Nested
			switch {
			case depth >= MaxDepth:
				v.Outcome, v.Problem = Skipped, fmt.Sprintf("nested deeper than %d catalogs (the spec's recommended limit)", MaxDepth)
			case w.seen[u.String()]:
				v.Problem = "read already"
			case w.catalogs >= maxCatalogs:
				v.Outcome, v.Problem = Skipped, fmt.Sprintf("more than %d nested catalogs", maxCatalogs)
			case w.bytes > maxWalkBytes:
				v.Outcome, v.Problem = Skipped, fmt.Sprintf("nested catalogs over %d bytes in all", maxWalkBytes)
			default:
				w.seen[u.String()] = true
				w.catalogs++
				nested := w.catalogs
				w.spawn(func() { w.fetchCatalog(ctx, v, doc.Network, nested, depth+1) })
			}
		default:
			v.Outcome, v.Problem = NotChecked, "not an A2A Agent Card or a nested catalog"
		}
	}
}

// spawn runs f with at most opts.Parallel fetches at once.
func (w *walk) spawn(f func()) {
	w.wg.Go(func() {
		w.sem <- struct{}{}
		defer func() { <-w.sem }()
		f()
	})
}

// fail records that v could not be taken.
func (w *walk) fail(v *Visit, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	v.Outcome, v.Problem = Failed, err.Error()
}

// fetchCard fetches the card of v and hands it to check.
func (w *walk) fetchCard(ctx context.Context, v *Visit, from *fetch.Network, check func(*Visit)) {
	body, final, _, err := w.opts.Cards.GetWithin(ctx, v.URL.String(), from)
	if err != nil {
		w.fail(v, err)
		return
	}
	// v is the caller's until it returns: nothing else touches a visit
	// whose fetch is under way.
	v.Body, v.Final = body, final
	check(v)
}

// fetchCatalog fetches the nested catalog of v and walks it.
func (w *walk) fetchCatalog(ctx context.Context, v *Visit, from *fetch.Network, seq, depth int) {
	body, _, network, err := w.opts.Catalogs.GetWithin(ctx, v.URL.String(), from)
	if err != nil {
		w.fail(v, err)
		return
	}
	w.mu.Lock()
	w.bytes += int64(len(body))
	over := w.bytes > maxWalkBytes
	if over {
		v.Outcome, v.Problem = Skipped, fmt.Sprintf("nested catalogs over %d bytes in all", maxWalkBytes)
	}
	w.mu.Unlock()
	if over {
		return
	}
	// Parsed while this holds a fetch slot, so that at most Parallel
	// catalogs are decoded at once.
	cat, problems, perr := Parse(body)
	body = nil
	// The walk goes on in this goroutine; it holds no fetch slot while
	// its entries wait for theirs.
	<-w.sem
	defer func() { w.sem <- struct{}{} }()
	w.catalog(ctx, &Doc{Source: v.URL.String(), URL: v.URL, Network: network}, cat, problems, perr, seq, depth)
}

// Origin is a URL's scheme and host, in lower case.
func Origin(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// Fetch fetches the catalog at rawURL (an origin means its
// /.well-known/ai-catalog.json) with client, noting the network it
// reached, which bounds where its entries may lead (Walk).
func Fetch(ctx context.Context, rawURL string, client *fetch.Client) (Doc, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return Doc{}, &fetch.Error{URL: "URL", Err: errors.New("not an absolute URL")}
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/.well-known/ai-catalog.json"
	}
	body, _, network, err := client.GetWithin(ctx, u.String(), nil)
	if err != nil {
		return Doc{}, err
	}
	return Doc{Source: u.String(), Body: body, URL: u, Network: network}, nil
}

// IsCatalogName reports whether a target names an AI Catalog by its file
// name (ai-catalog.json), as a URL or a file.
func IsCatalogName(target string) bool {
	if u, err := url.Parse(target); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		target = u.Path
	}
	return path.Base(filepath.ToSlash(target)) == "ai-catalog.json"
}
