package verify

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/fetch"
)

// Entry is the outcome for one entry of a catalog that Catalog walked.
type Entry struct {
	// Catalog is the catalog that lists the entry; Index its place there.
	Catalog    string `json:"catalog"`
	Index      int    `json:"index"`
	Identifier string `json:"identifier"`
	Type       string `json:"type"`
	URL        string `json:"url,omitempty"`
	// OtherOrigin is set when URL is on another origin than the catalog:
	// its card was verified against that origin's JWKS.
	OtherOrigin bool `json:"otherOrigin,omitempty"`
	// Outcome is a card's outcome (OutcomeVerified ...), or one of the
	// Entry outcomes below.
	Outcome string `json:"outcome"`
	// Card is the index of the entry's card in Report.Cards, or -1.
	Card    int    `json:"card"`
	Problem string `json:"problem,omitempty"`

	seq  int   // the order its catalog was found in
	card *Card // checked, until Catalog files it in Report.Cards
}

// Outcomes of an entry that is not a card that was checked.
const (
	EntryNested     = "nested-catalog" // a catalog, walked in turn
	EntryNotChecked = "not-checked"    // a type verify does not check
	EntryFailed     = "failed"         // not fetched, or refused
	EntrySkipped    = "skipped"        // past -max-entries or MaxDepth
)

// CatalogOptions bound a walk of a catalog.
type CatalogOptions struct {
	// MaxEntries is the most entries checked in all (nested catalogs'
	// included); the rest are reported as skipped.
	MaxEntries int
	// Parallel is how many fetches run at once.
	Parallel int
}

// Defaults for CatalogOptions.
const (
	DefaultMaxEntries = 1000
	DefaultParallel   = 4
	// maxCatalogs is the most nested catalogs one walk reads.
	maxCatalogs = 100
)

// Catalog verifies an AI Catalog (a URL, an origin meaning its
// /.well-known/ai-catalog.json, or a file): checks it against the spec,
// then every A2A Agent Card entry it points to, with keys from each card's
// own origin (or opts.JWKS), following nested catalogs up to
// aicatalog.MaxDepth. Entries on other origins are verified against their
// own origin's JWKS and marked so.
func Catalog(ctx context.Context, target string, opts Options, copts CatalogOptions, rep *Report) error {
	if copts.MaxEntries <= 0 {
		copts.MaxEntries = DefaultMaxEntries
	}
	if copts.Parallel <= 0 {
		copts.Parallel = DefaultParallel
	}
	w := &catalogWalk{opts: opts, copts: copts, rep: rep, catOpts: catalogOptions(opts), sem: make(chan struct{}, copts.Parallel)}
	var root *catalogDoc
	if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") {
		u, err := url.Parse(target)
		if err != nil || u.Host == "" {
			return usagef("not a URL: %v", urlError(err))
		}
		if u.Path == "" || u.Path == "/" {
			u.Path = "/.well-known/ai-catalog.json"
		}
		body, _, network, err := w.catOpts.Fetch.GetWithin(ctx, u.String(), nil)
		if err != nil {
			return err
		}
		root = &catalogDoc{source: u.String(), body: body, base: u, network: network}
	} else {
		body, err := readLocal(target, w.catOpts)
		if err != nil {
			return usagef("%v", err)
		}
		root = &catalogDoc{source: target, body: body}
	}
	w.walk(ctx, root, 1)
	w.wg.Wait()
	// The report's order is the catalogs' (each in the order it was
	// found, its entries in its order), however the fetches finished.
	slices.SortStableFunc(w.found, func(a, b Entry) int { return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.Index, b.Index)) })
	for _, e := range w.found {
		if e.card != nil {
			rep.Cards = append(rep.Cards, *e.card)
			e.Card = len(rep.Cards) - 1
		}
		rep.Entries = append(rep.Entries, e)
	}
	return nil
}

// catalogDoc is a catalog read, and where from.
type catalogDoc struct {
	source  string
	body    []byte
	seq     int            // the order it was found in (the root: 0)
	base    *url.URL       // its URL, nil for a file
	network *fetch.Network // what its fetch reached, nil for a file
}

// catalogWalk is the state of one Catalog.
type catalogWalk struct {
	opts    Options
	copts   CatalogOptions
	catOpts Options // opts with the catalog size limit
	rep     *Report
	sem     chan struct{}
	wg      sync.WaitGroup

	mu       sync.Mutex // guards rep, found, entries, catalogs, seen
	found    []Entry
	entries  int
	catalogs int
	seen     map[string]bool // catalog URLs read
}

// walk checks one catalog and its entries; nested catalogs are walked in
// turn, at depth+1.
func (w *catalogWalk) walk(ctx context.Context, doc *catalogDoc, depth int) {
	cat, problems, err := aicatalog.Parse(doc.body)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.rep.Problems = append(w.rep.Problems, fmt.Sprintf("%s: not a catalog: %v", doc.source, err))
		return
	}
	for _, p := range problems {
		w.rep.Problems = append(w.rep.Problems, fmt.Sprintf("%s does not follow the AI Catalog spec: %s", doc.source, p))
	}
	for i, e := range cat.Entries {
		ent := Entry{Catalog: doc.source, Index: i, Identifier: e.Identifier, Type: e.Type, URL: e.URL, Card: -1, seq: doc.seq}
		if w.entries >= w.copts.MaxEntries {
			ent.Outcome, ent.Problem = EntrySkipped, fmt.Sprintf("past the first %d entries (-max-entries)", w.copts.MaxEntries)
			w.add(ent)
			continue
		}
		w.entries++
		if e.Inline {
			ent.Outcome, ent.Problem = EntryNotChecked, "carries its document inline (data): verify checks documents by URL"
			w.add(ent)
			continue
		}
		target, err := w.entryURL(e.URL)
		if err != nil {
			ent.Outcome, ent.Problem = EntryFailed, err.Error()
			w.add(ent)
			continue
		}
		ent.OtherOrigin = doc.base != nil && origin(target) != origin(doc.base)
		switch e.TypeLower {
		case aicatalog.AgentCardType:
			n := w.add(ent)
			w.spawn(func() { w.checkEntryCard(ctx, n, doc, target) })
		case aicatalog.MediaType:
			ent.Outcome = EntryNested
			switch {
			case depth >= aicatalog.MaxDepth:
				ent.Outcome, ent.Problem = EntrySkipped, fmt.Sprintf("nested deeper than %d catalogs (the spec's recommended limit)", aicatalog.MaxDepth)
			case w.seen[target.String()]:
				ent.Problem = "read already"
			case w.catalogs >= maxCatalogs:
				ent.Outcome, ent.Problem = EntrySkipped, fmt.Sprintf("more than %d nested catalogs", maxCatalogs)
			default:
				if w.seen == nil {
					w.seen = map[string]bool{}
				}
				w.seen[target.String()] = true
				w.catalogs++
				n, seq := w.add(ent), w.catalogs
				w.spawn(func() { w.readNested(ctx, n, doc, target, seq, depth+1) })
				continue
			}
			w.add(ent)
		default:
			ent.Outcome, ent.Problem = EntryNotChecked, "verify checks A2A Agent Cards and nested catalogs only"
			w.add(ent)
		}
	}
}

// add records an entry's outcome; w.mu is held.
func (w *catalogWalk) add(e Entry) int {
	w.found = append(w.found, e)
	return len(w.found) - 1
}

// spawn runs f with at most copts.Parallel fetches at once.
func (w *catalogWalk) spawn(f func()) {
	w.wg.Go(func() {
		w.sem <- struct{}{}
		defer func() { <-w.sem }()
		f()
	})
}

// entryURL is an entry's url, which must be absolute and fetchable (a
// catalog file's entries too: they name documents on the web).
func (w *catalogWalk) entryURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, fmt.Errorf("url %q is not an absolute URL", raw)
	}
	if err := fetch.CheckURL(u); err != nil {
		return nil, fmt.Errorf("url %s: %v", u.Redacted(), err)
	}
	return u, nil
}

// origin is a URL's scheme and host, in lower case.
func origin(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// fail records that entry n could not be checked.
func (w *catalogWalk) fail(n int, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.found[n].Outcome, w.found[n].Problem = EntryFailed, err.Error()
}

// checkEntryCard fetches the card of entry n and verifies it with keys
// from its own origin (keys are read once per origin).
func (w *catalogWalk) checkEntryCard(ctx context.Context, n int, doc *catalogDoc, u *url.URL) {
	body, final, _, err := w.opts.Fetch.GetWithin(ctx, u.String(), doc.network)
	if err != nil {
		w.fail(n, err)
		return
	}
	ks, err := trustedKeys(ctx, w.opts, origin(u)+"/.well-known/jwks.json", "")
	if err != nil {
		w.fail(n, err)
		return
	}
	source := u.String()
	if final.String() != source {
		source += " (redirected to " + final.String() + ")"
	}
	c := checkCard(source, body, ks, w.opts)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.found[n].card, w.found[n].Outcome = &c, c.Outcome
	for _, p := range ks.fatal {
		if !slices.Contains(w.rep.Problems, p) {
			w.rep.Problems = append(w.rep.Problems, p)
		}
	}
}

// readNested fetches the nested catalog of entry n and walks it.
func (w *catalogWalk) readNested(ctx context.Context, n int, doc *catalogDoc, u *url.URL, seq, depth int) {
	body, _, network, err := w.catOpts.Fetch.GetWithin(ctx, u.String(), doc.network)
	if err != nil {
		w.fail(n, err)
		return
	}
	// The walk goes on in this goroutine; it holds no fetch slot while
	// its entries wait for theirs.
	<-w.sem
	defer func() { w.sem <- struct{}{} }()
	w.walk(ctx, &catalogDoc{source: u.String(), body: body, seq: seq, base: u, network: network}, depth)
}
