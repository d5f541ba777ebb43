package verify

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/aicatalog"
)

// Entry is the outcome for one entry of a catalog that Catalog walked.
type Entry struct {
	// Catalog is the catalog that lists the entry; Index its place there.
	Catalog    string `json:"catalog"`
	Index      int    `json:"index"`
	Identifier string `json:"identifier"`
	Type       string `json:"type"`
	URL        string `json:"url,omitempty"`
	// OtherOrigin is set when URL is on another origin than the root
	// catalog (the one the walk began with):
	// its card was verified against that origin's JWKS.
	OtherOrigin bool `json:"otherOrigin,omitempty"`
	// Outcome is a card's outcome (OutcomeVerified ...), or one of the
	// entry outcomes below.
	Outcome string `json:"outcome"`
	// Card is the index of the entry's card in Report.Cards, or -1.
	Card    int    `json:"card"`
	Problem string `json:"problem,omitempty"`
}

// Outcomes of an entry that is not a card that was checked.
const (
	EntryNested     = aicatalog.Nested     // a catalog, walked in turn
	EntryServerCard = "server-card"        // an MCP Server Card, well-formed (unsigned)
	EntryNotChecked = aicatalog.NotChecked // not an A2A card, or inline
	EntryFailed     = aicatalog.Failed     // not fetched, or refused
	EntrySkipped    = aicatalog.Skipped    // past a bound
)

// CatalogOptions bound a walk of a catalog.
type CatalogOptions struct {
	// MaxEntries is the most entries checked in all (nested catalogs'
	// included), taken breadth-first in catalog order (aicatalog.Walk);
	// the rest are reported as skipped (Report.EntriesSkipped).
	MaxEntries int
}

// DefaultMaxEntries is CatalogOptions.MaxEntries by default.
const DefaultMaxEntries = aicatalog.DefaultMaxEntries

// Catalog verifies an AI Catalog (a URL, an origin meaning its
// /.well-known/ai-catalog.json, or a file): checks it against the spec,
// then every A2A Agent Card entry it points to, with keys from each card's
// own origin (or opts.JWKS), following nested catalogs (aicatalog.Walk).
// Entries on other origins are verified against their own origin's JWKS
// and marked so.
func Catalog(ctx context.Context, target string, opts Options, copts CatalogOptions, rep *Report) error {
	root, err := ReadCatalog(ctx, target, opts)
	if err != nil {
		return err
	}
	catOpts := fetchedCatalogOptions(opts)
	var mu sync.Mutex // guards the fatal problems of JWKS
	// A Server Card carries no signature: it is read strictly and
	// checked, and said to be well-formed, never verified.
	checkServerCard := func(v *aicatalog.Visit) {
		if _, problems := serverCard(v.Body); len(problems) > 0 {
			v.Outcome, v.Problem = EntryFailed, strings.Join(problems, "; ")
			return
		}
		v.Outcome = EntryServerCard
	}
	walked := aicatalog.Walk(ctx, root, aicatalog.WalkOptions{Cards: opts.Fetch, Catalogs: catOpts.Fetch, MaxEntries: copts.MaxEntries, ServerCard: checkServerCard}, func(v *aicatalog.Visit) {
		// The JWKS is held to the network of the catalog that named the
		// entry, as the card was.
		ks, err := trustedKeys(ctx, opts, aicatalog.Origin(v.URL)+"/.well-known/jwks.json", "", v.From)
		if err != nil {
			v.Outcome, v.Problem = EntryFailed, err.Error()
			return
		}
		source := v.URL.String()
		if v.Final.String() != source {
			source += " (redirected to " + v.Final.String() + ")"
		}
		c := checkCard(source, v.Body, ks, opts)
		v.Outcome, v.Value = c.Outcome, &c
		mu.Lock()
		for _, p := range ks.Leaked {
			if !slices.Contains(rep.Problems, p) {
				rep.Problems = append(rep.Problems, p)
			}
		}
		mu.Unlock()
	})
	rep.Problems = append(rep.Problems, walked.Problems...)
	rep.EntriesSkipped += walked.OverMax
	for _, v := range walked.Visits {
		e := Entry{Catalog: v.Catalog, Index: v.Index, Identifier: v.Entry.Identifier, Type: v.Entry.Type, URL: v.Entry.URL, OtherOrigin: v.OtherOrigin, Outcome: v.Outcome, Card: -1, Problem: v.Problem}
		if c, ok := v.Value.(*Card); ok {
			rep.Cards = append(rep.Cards, *c)
			e.Card = len(rep.Cards) - 1
		}
		rep.Entries = append(rep.Entries, e)
	}
	return nil
}

// fetchedCatalogMaxBytes is the size limit of a catalog fetched over the
// network (a walk reads at most 32 MiB of nested catalogs in all): more
// than a few thousand entries are not checked anyway (-max-entries).
const fetchedCatalogMaxBytes = 4 << 20

// fetchedCatalogOptions are the options of a catalog fetch: the caller's
// client with the fetched catalog's size limit.
func fetchedCatalogOptions(opts Options) Options {
	copts := catalogOptions(opts)
	copts.Fetch.MaxBytes = max(maxBytes(opts), fetchedCatalogMaxBytes)
	return copts
}

// ReadCatalog reads the catalog target names: a URL (an origin means its
// /.well-known/ai-catalog.json) or a file, within the catalog size limit.
func ReadCatalog(ctx context.Context, target string, opts Options) (aicatalog.Doc, error) {
	if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") {
		return aicatalog.Fetch(ctx, target, fetchedCatalogOptions(opts).Fetch)
	}
	catOpts := catalogOptions(opts)
	body, err := readLocal(target, catOpts)
	if err != nil {
		return aicatalog.Doc{}, usagef("%v", err)
	}
	return aicatalog.Doc{Source: target, Body: body}, nil
}
