package aicatalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
)

// Doc is a catalog document read, and where from.
type Doc struct {
	Source string // its URL or file name, for reports
	Body   []byte
	// URL and Network are the catalog's URL and the network its fetch
	// reached; nil for a file. A file may come from anyone (a pull
	// request to a registry, say): Walk holds the URLs it names to the
	// public rule (fetch.PublicNetwork), as those of a catalog served from
	// a public address, unless AllowPrivate.
	URL     *url.URL
	Network *fetch.Network
	// AllowPrivate, for a file (Network nil), fetches the URLs it names
	// as if the user had named each one: loopback (over http too),
	// private and link-local addresses included (the -allow-private flag
	// of verify and import, for a catalog of local or intranet agents
	// the user vouches for).
	AllowPrivate bool
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
	// bounds every fetch the entry leads to: for a catalog file, the
	// public rule (fetch.PublicNetwork), or nil with Doc.AllowPrivate
	// (the caller's own choice).
	From *fetch.Network
	// Value is the caller's, set by its card function.
	Value any
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
	// included, in the order Walk takes them (default DefaultMaxEntries:
	// the -max-entries flag of verify and import); the rest are Skipped.
	MaxEntries int
	// Parallel is how many cards, and how many nested catalogs, are
	// fetched at once (default DefaultParallel).
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
	// maxSkippedNamed is how many of them the walk's problem names.
	maxSkippedNamed = 5
)

// Walked is what a walk found.
type Walked struct {
	// Visits are the entries, in the order they were taken (Walk).
	Visits   []Visit
	Problems []string
	// OverMax counts the entries past MaxEntries, never fetched: the
	// first maxSkippedListed are among Visits (Skipped), the rest only
	// counted.
	OverMax int
}

// Walk checks the catalog root against the spec and walks its entries:
// it fetches the card of every A2A Agent Card entry and hands it to card
// (called concurrently, at most opts.Parallel at once), and follows nested
// catalogs up to MaxDepth levels and maxCatalogs catalogs. The URLs a
// fetched catalog names are fetched within its network (fetch.GetWithin).
//
// Entries are taken breadth-first, in catalog order: the root catalog's
// entries in its order, then those of the catalogs it lists, in the order
// it lists them, then those of the catalogs they list, and so on. The
// bounds (MaxEntries, MaxDepth, maxCatalogs, maxWalkBytes) are applied in
// that order, so the entries taken and those skipped depend on the
// catalogs alone, never on which fetch answered first: nested catalogs
// are fetched up to opts.Parallel ahead, concurrently, but taken one
// after the other. The visits come back in the same order (each catalog
// in the order it was found, its entries in its order).
func Walk(ctx context.Context, root Doc, opts WalkOptions, card func(*Visit)) Walked {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.Parallel <= 0 {
		opts.Parallel = DefaultParallel
	}
	w := &walk{opts: opts, card: card, sem: make(chan struct{}, opts.Parallel), seen: map[string]bool{}, root: root.URL}
	if root.Network == nil && !root.AllowPrivate {
		// A file: nothing vouches for the URLs it names, which are held
		// to the public rule.
		root.Network = fetch.PublicNetwork()
		w.file = root.Network
	}
	if root.URL != nil {
		w.seen[root.URL.String()] = true // a catalog that lists itself is read once
	}
	cat, specProblems, err := Parse(root.Body)
	w.catalog(ctx, &root, cat, specProblems, err, 1)
	// The nested catalogs are taken in the order they were found; the
	// fetches of the next ones run meanwhile, opts.Parallel at most, so
	// that no more than that many parsed catalogs wait in memory.
	started := 0
	for i := 0; i < len(w.queue); i++ {
		for ; started < len(w.queue) && started < i+opts.Parallel; started++ {
			go w.queue[started].fetch(ctx, w.opts.Catalogs)
		}
		w.take(ctx, w.queue[i])
		w.queue[i] = nil
	}
	w.wg.Wait()
	if w.overMax > 0 {
		w.problems = append(w.problems, w.overMaxProblem())
	}
	out := Walked{Visits: make([]Visit, len(w.visits)), Problems: w.problems, OverMax: w.overMax}
	for i, v := range w.visits {
		out.Visits[i] = *v
	}
	return out
}

// walk is the state of one Walk. Only Walk's goroutine touches it; the
// fetches each touch their own Visit or nested catalog alone.
type walk struct {
	opts WalkOptions
	root *url.URL // the root catalog's URL; nil for a file
	// file is the public rule a root catalog file is held to (nil for a
	// fetched catalog, or a file with AllowPrivate), for the hint of a
	// refusal (refused).
	file *fetch.Network
	card func(*Visit)
	sem  chan struct{} // a slot per card fetch under way
	wg   sync.WaitGroup

	visits   []*Visit
	problems []string
	queue    []*nested // the nested catalogs to take, in order
	entries  int
	overMax  int      // entries past MaxEntries
	firstOut []string // the first few of them, named
	catalogs int
	bytes    int64           // of the nested catalogs taken
	seen     map[string]bool // nested catalog URLs read
}

// nested is a nested catalog to take: the entry that lists it, and once
// fetch is done, the catalog parsed.
type nested struct {
	v     *Visit
	depth int
	done  chan struct{} // closed when fetch has returned

	body     int // its size
	cat      *Catalog
	problems []Problem
	network  *fetch.Network
	parseErr error
	fetchErr error
}

// fetch fetches and parses the catalog.
func (n *nested) fetch(ctx context.Context, client *fetch.Client) {
	defer close(n.done)
	body, _, network, err := client.GetWithin(ctx, n.v.URL.String(), n.v.From)
	if err != nil {
		n.fetchErr = err
		return
	}
	n.body, n.network = len(body), network
	if int64(n.body) > maxWalkBytes {
		return // over the bound alone: take says so
	}
	n.cat, n.problems, n.parseErr = Parse(body)
}

// take waits for a nested catalog's fetch and takes its entries.
func (w *walk) take(ctx context.Context, n *nested) {
	<-n.done
	if n.fetchErr != nil {
		n.v.Outcome, n.v.Problem = Failed, w.refused(n.v, n.fetchErr)
		return
	}
	if w.bytes += int64(n.body); w.bytes > maxWalkBytes {
		n.v.Outcome, n.v.Problem = Skipped, fmt.Sprintf("nested catalogs over %d bytes in all", maxWalkBytes)
		return
	}
	w.catalog(ctx, &Doc{Source: n.v.URL.String(), URL: n.v.URL, Network: n.network}, n.cat, n.problems, n.parseErr, n.depth)
}

// overMaxProblem says how many entries MaxEntries left out, names the
// first few, and how to take them.
func (w *walk) overMaxProblem() string {
	names := strings.Join(w.firstOut, ", ")
	if more := w.overMax - len(w.firstOut); more > 0 {
		names += fmt.Sprintf(" and %d more", more)
	}
	listed := ""
	if w.overMax > maxSkippedListed {
		listed = fmt.Sprintf(" (the first %d are listed as skipped)", maxSkippedListed)
	}
	return fmt.Sprintf("%d entries past the first %d were skipped, not fetched%s: %s; -max-entries %d bounds the entries taken in all, nested catalogs' included, breadth-first in catalog order: raise it to take them", w.overMax, w.opts.MaxEntries, listed, names, w.opts.MaxEntries)
}

// catalog takes the entries of one catalog (parsed, with its problems or
// the error that stopped parsing); nested catalogs are queued, to be
// taken in turn at depth+1.
func (w *walk) catalog(ctx context.Context, doc *Doc, cat *Catalog, problems []Problem, err error, depth int) {
	if err != nil {
		w.problems = append(w.problems, fmt.Sprintf("%s: not a catalog: %v", doc.Source, err))
		return
	}
	for _, p := range problems {
		w.problems = append(w.problems, fmt.Sprintf("%s does not follow the AI Catalog spec: %s", doc.Source, p))
	}
	for i, e := range cat.Entries {
		v := &Visit{Catalog: doc.Source, Index: i, Entry: e, From: doc.Network}
		if w.entries >= w.opts.MaxEntries {
			w.skip(v)
			continue
		}
		w.visits = append(w.visits, v)
		w.entries++
		w.entry(ctx, v, depth)
	}
}

// skip records an entry past MaxEntries. A few are listed as skipped and
// the rest counted: a catalog of a million entries is not a million
// visits held in memory.
func (w *walk) skip(v *Visit) {
	if w.overMax++; w.overMax <= maxSkippedListed {
		v.Outcome, v.Problem = Skipped, fmt.Sprintf("past the first %d entries (-max-entries)", w.opts.MaxEntries)
		w.visits = append(w.visits, v)
	}
	if len(w.firstOut) < maxSkippedNamed {
		name := v.Entry.Identifier
		if name == "" {
			name = cmp.Or(v.Entry.URL, fmt.Sprintf("%s entry %d", v.Catalog, v.Index))
		}
		w.firstOut = append(w.firstOut, name)
	}
}

// entry takes one entry within MaxEntries: starts the fetch of its card,
// queues its catalog, or says why it is not checked.
func (w *walk) entry(ctx context.Context, v *Visit, depth int) {
	e := v.Entry
	if e.Inline {
		v.Outcome, v.Problem = NotChecked, "carries its document inline (data), not at a url"
		if e.TypeLower == AgentCardType {
			// An agent card nobody can fetch from its origin, so no
			// key of that origin can vouch for it.
			v.Outcome, v.Problem = Failed, "carries its A2A card inline (data): no origin's key can vouch for a card not served from it"
		}
		return
	}
	u, err := url.Parse(e.URL)
	if err != nil || !u.IsAbs() || u.Host == "" {
		v.Outcome, v.Problem = Failed, fmt.Sprintf("url %q is not an absolute URL", e.URL)
		return
	}
	if err := fetch.CheckURL(u); err != nil {
		v.Outcome, v.Problem = Failed, fmt.Sprintf("url %s: %v", u.Redacted(), err)
		return
	}
	v.URL = u
	v.OtherOrigin = w.root != nil && Origin(u) != Origin(w.root)
	switch e.TypeLower {
	case AgentCardType:
		w.spawn(func() { w.fetchCard(ctx, v, w.card) })
	case ServerCardType:
		if w.opts.ServerCard == nil {
			v.Outcome, v.Problem = NotChecked, "not an A2A Agent Card or a nested catalog"
			break
		}
		w.spawn(func() { w.fetchCard(ctx, v, w.opts.ServerCard) })
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
			w.queue = append(w.queue, &nested{v: v, depth: depth + 1, done: make(chan struct{})})
		}
	default:
		v.Outcome, v.Problem = NotChecked, "not an A2A Agent Card or a nested catalog"
	}
}

// spawn runs f with at most opts.Parallel card fetches at once.
func (w *walk) spawn(f func()) {
	w.wg.Go(func() {
		w.sem <- struct{}{}
		defer func() { <-w.sem }()
		f()
	})
}

// fetchCard fetches the card of v, within the network of the catalog
// that lists it, and hands it to check. v is this goroutine's until Walk
// has waited for it.
func (w *walk) fetchCard(ctx context.Context, v *Visit, check func(*Visit)) {
	body, final, _, err := w.opts.Cards.GetWithin(ctx, v.URL.String(), v.From)
	if err != nil {
		v.Outcome, v.Problem = Failed, w.refused(v, err)
		return
	}
	v.Body, v.Final = body, final
	check(v)
}

// refused is the problem of the failed fetch of v's url: err, and when
// the network rule refused an entry of a root catalog file, how to fetch
// it anyway. It never says what answered (fetch refuses before a request
// is sent, and its refusals do not say).
func (w *walk) refused(v *Visit, err error) string {
	if w.file == nil || v.From != w.file || !fetch.IsRefused(err) {
		return err.Error()
	}
	return err.Error() + " (the URLs a catalog file names are held to the public rule: -allow-private fetches them as if named on the command line)"
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
		u.Path = "/" + layout.Catalog
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
	return path.Base(filepath.ToSlash(target)) == layout.CatalogFile
}
