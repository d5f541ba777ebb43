package importer

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/fetch"
)

// Imported is one agent taken from a catalog.
type Imported struct {
	*Result
	// Entry is the catalog entry it came from; Source its card's URL.
	Entry  aicatalog.Entry
	Source string
}

// CatalogResult is what a catalog gave.
type CatalogResult struct {
	Agents []Imported
	// Warnings name what was left behind: entries not taken, and what each
	// card could not carry (prefixed with the entry's identifier).
	Warnings []string
	// Failed counts the A2A entries that could not be imported.
	Failed int
	// Skipped counts the entries past MaxEntries, never fetched (a
	// warning names a few and the bound).
	Skipped int
}

// CatalogOptions steer Catalog.
type CatalogOptions struct {
	Cards, Catalogs *fetch.Client
	// MaxEntries bounds the entries taken, breadth-first in catalog
	// order (aicatalog.Walk).
	MaxEntries int
	// Taken are agent ids already in use (in the manifest appended to).
	Taken map[string]bool
}

// Catalog imports every A2A Agent Card entry of a catalog (nested
// catalogs too, aicatalog.Walk). Each agent's id comes from the entry's
// name (the last segment of a urn:air identifier, else its displayName),
// else from the card, made unique with -2, -3 ...
func Catalog(ctx context.Context, root aicatalog.Doc, opts CatalogOptions) *CatalogResult {
	out := &CatalogResult{}
	walked := aicatalog.Walk(ctx, root, aicatalog.WalkOptions{Cards: opts.Cards, Catalogs: opts.Catalogs, MaxEntries: opts.MaxEntries}, func(v *aicatalog.Visit) {
		res, err := Card(v.Body, "")
		if err != nil {
			v.Outcome, v.Problem = aicatalog.Failed, err.Error()
			return
		}
		v.Outcome, v.Value = "imported", res
	})
	out.Warnings = append(out.Warnings, walked.Problems...)
	out.Skipped = walked.OverMax
	taken := map[string]bool{}
	for id := range opts.Taken {
		taken[id] = true
	}
	for _, v := range walked.Visits {
		name := v.Entry.Identifier
		if name == "" {
			name = fmt.Sprintf("%s entry %d", v.Catalog, v.Index)
		}
		res, ok := v.Value.(*Result)
		if !ok {
			a2a := v.Entry.TypeLower == aicatalog.AgentCardType
			switch {
			case a2a && v.Outcome == aicatalog.Skipped:
				// Past MaxEntries, not failed: Skipped counts them.
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s: not imported: %s", name, v.Problem))
			case a2a && v.Outcome != aicatalog.NotChecked:
				out.Failed++
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s: not imported: %s", name, v.Problem))
			case v.Outcome != aicatalog.Nested:
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s: not imported (%s): %s", name, v.Entry.Type, v.Problem))
			}
			continue
		}
		id := entryID(v.Entry)
		if id == "" {
			id = res.Agent.ID
		}
		res.Agent.ID = unique(id, taken)
		for _, w := range res.Warnings {
			out.Warnings = append(out.Warnings, name+": "+w)
		}
		out.Agents = append(out.Agents, Imported{Result: res, Entry: v.Entry, Source: v.URL.Redacted()})
	}
	return out
}

// entryID is the agent id an entry's name suggests: the last segment of
// a urn:air identifier, else its displayName; "" when neither makes one.
func entryID(e aicatalog.Entry) string {
	if strings.HasPrefix(e.Identifier, "urn:air:") {
		if s := slug(lastSegment(e.Identifier)); s != "" {
			return s
		}
	}
	return slug(e.DisplayName)
}

// unique is id, or id-2, id-3 ... when taken, and marks it taken.
func unique(id string, taken map[string]bool) string {
	out := id
	for n := 2; taken[out]; n++ {
		suffix := "-" + strconv.Itoa(n)
		out = strings.TrimRight(id[:min(len(id), 64-len(suffix))], "-") + suffix
	}
	taken[out] = true
	return out
}
