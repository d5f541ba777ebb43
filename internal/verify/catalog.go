package verify

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
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
	// VouchedBy is whose keys verified the entry's card: the origin of
	// the JWKS it was checked with ("https://b.example": the card's own
	// origin, or that of -jwks), or the -jwks file; empty when the card
	// did not verify. Nothing else in an entry is signed.
	VouchedBy string `json:"vouchedBy,omitempty"`
	// Warning says that the entry's identifier claims a publisher whose
	// keys did not sign its card; with Options.Strict the entry fails
	// instead (Problem).
	Warning string `json:"warning,omitempty"`
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
	// AllowPrivate fetches the URLs a catalog file names as if the
	// caller had named each one (aicatalog.Doc.AllowPrivate): loopback,
	// private and link-local addresses included. Without it they are
	// held to the public rule, as those of a catalog served from a public
	// address: a file may come from anyone. A catalog fetched from a URL
	// is held to the network it was served from either way.
	AllowPrivate bool
}

// DefaultMaxEntries is CatalogOptions.MaxEntries by default.
const DefaultMaxEntries = aicatalog.DefaultMaxEntries

// Catalog verifies an AI Catalog (a URL, an origin meaning its
// /.well-known/ai-catalog.json, or a file): checks it against the spec,
// then every A2A Agent Card entry it points to, with keys from each card's
// own origin (or opts.JWKS), following nested catalogs (aicatalog.Walk).
// Entries on other origins are verified against their own origin's JWKS
// and marked so. The URLs a catalog file names may lead only to public
// addresses unless copts.AllowPrivate.
func Catalog(ctx context.Context, target string, opts Options, copts CatalogOptions, rep *Report) error {
	opts.Fetch = opts.Fetch.ForRun()
	root, err := ReadCatalog(ctx, target, opts)
	if err != nil {
		return err
	}
	root.AllowPrivate = copts.AllowPrivate
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
		ks, err := trustedKeys(ctx, opts, layout.URL(aicatalog.Origin(v.URL), layout.JWKS), "", v.From)
		if err != nil {
			v.Outcome, v.Problem = EntryFailed, err.Error()
			return
		}
		source := v.URL.String()
		if v.Final.String() != source {
			source += " (redirected to " + v.Final.String() + ")"
		}
		c := checkCard(source, v.Body, ks, opts)
		// The owner's copy beside a gateway's card is on the card's own
		// origin, held to the network it answered from.
		checkGatewayURL(ctx, v.URL, opts, &c)
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
			rep.Add(*c)
			e.Card = rep.CardCount() - 1
			vouch(&e, c, opts.Strict)
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

// vouch sets e.VouchedBy from the JWKS that verified its card c, and
// holds the publisher e's identifier claims (urn:air:<publisher>:...) to
// it: a card verified with the keys of https://b.example vouches for
// publisher b.example only. A mismatch is a warning, or with strict
// fails the entry.
func vouch(e *Entry, c *Card, strict bool) {
	if !c.Verified {
		return // nothing vouches for it: the card fails
	}
	e.VouchedBy = keysOrigin(c.JWKS)
	pub := publisherOf(e.Identifier)
	if pub == "" {
		return // no urn:air identifier: the spec check says so
	}
	var msg string
	if u, err := url.Parse(e.VouchedBy); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
		if publisherVouched(pub, u) {
			return
		}
		msg = fmt.Sprintf("its identifier claims publisher %s, but its card was signed by the keys of %s, not by %s's%s", pub, e.VouchedBy, pub, otherPort(pub, u))
	} else {
		msg = fmt.Sprintf("its identifier claims publisher %s, but its card was signed by the keys in %s (-jwks), which no origin vouches for as %s's", pub, e.VouchedBy, pub)
	}
	if strict {
		e.Outcome, e.Problem = EntryFailed, msg+": refused (-strict)"
		return
	}
	e.Warning = msg + " (-strict refuses it)"
}

// keysOrigin is whose keys a JWKS source holds: a URL's origin, or a
// file as it was named.
func keysOrigin(jwks string) string {
	if u, err := url.Parse(jwks); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
		return aicatalog.Origin(u)
	}
	return jwks
}

// publisherOf is the <publisher> of an urn:air:<publisher>:<namespace>:<name>
// identifier (ADR 0015: the publishing domain), in lower case, or "" when
// identifier is not one.
func publisherOf(identifier string) string {
	const prefix = "urn:air:"
	if len(identifier) <= len(prefix) || !strings.EqualFold(identifier[:len(prefix)], prefix) {
		return ""
	}
	pub, _, ok := strings.Cut(identifier[len(prefix):], ":")
	if !ok {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(pub), ".")
}

// publisherVouched reports whether the keys of the origin of u vouch for
// publisher pub (an identifier's publishing domain, in lower case): the
// origin is that domain's own, on its scheme's default port (letter case
// and a final dot aside). A urn:air identifier names a domain and no
// port, so https://a.example:8443, another origin than https://a.example
// (another server, perhaps another party), vouches for no publisher; nor
// does a subdomain or the parent domain (a publisher that serves its
// cards from a CDN host is not vouched for). The one exception is a
// .localhost publisher (RFC 6761; agentcards' placeholder for a site on
// loopback, which names no one), vouched for by the keys of any loopback
// origin, whatever its port.
func publisherVouched(pub string, u *url.URL) bool {
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if pub == "localhost" || strings.HasSuffix(pub, ".localhost") {
		return host == pub || fetch.IsLoopback(host)
	}
	return host == pub && defaultPort(u)
}

// defaultPort reports whether u names no port, or its scheme's default.
func defaultPort(u *url.URL) bool {
	switch u.Port() {
	case "":
		return true
	case "443":
		return u.Scheme == "https"
	case "80":
		return u.Scheme == "http"
	}
	return false
}

// otherPort says, when the origin of u is publisher pub's domain on
// another port than the default, why that is not pub's origin; else "".
func otherPort(pub string, u *url.URL) string {
	if strings.TrimSuffix(strings.ToLower(u.Hostname()), ".") != pub || defaultPort(u) {
		return ""
	}
	return fmt.Sprintf(" (port %s: an identifier's publisher is its domain's origin on the default port)", u.Port())
}

// hostPublisher is the publisher a catalog's host identifier claims: the
// <publisher> of an urn:air identifier, or else the identifier itself
// (agentcards writes the publisher's domain there), in lower case.
func hostPublisher(identifier string) string {
	if pub := publisherOf(identifier); pub != "" {
		return pub
	}
	return strings.TrimSuffix(strings.ToLower(identifier), ".")
}

// sitePublisher returns the check of each publisher a site's catalog
// claims (what names the claim; pub is "" for none): the site's own
// origin, that of its base URL, must vouch for pub (publisherVouched), as
// the keys of a card's origin must for verify -catalog. The unsigned
// catalog's base (host.documentationUrl) counts only when a verified
// signature's jku names its JWKS (jkus: each jku the cards name, true
// when a verified signature names it): then the cards' signer says where
// the site is. A claim of another publisher is a warning, and with strict
// a problem.
func sitePublisher(dir, base string, jkus map[string]bool, strict bool, rep *Report) func(what, pub string) {
	origin, err := url.Parse(base)
	tied := base != "" && err == nil && jkus[layout.URL(base, layout.JWKS)]
	saidUntied := false
	return func(what, pub string) {
		if pub == "" {
			return
		}
		var msg string
		switch {
		case !tied:
			if saidUntied {
				return
			}
			saidUntied = true
			msg = fmt.Sprintf("%s: %s claims publisher %s, but no verified signature names the site's JWKS as its jku, so no origin vouches for the publisher the catalog claims", dir, what, pub)
		case publisherVouched(pub, origin):
			return
		default:
			msg = fmt.Sprintf("%s: %s claims publisher %s, but the site is %s (the origin its cards' jku names), not %s's%s", dir, what, pub, aicatalog.Origin(origin), pub, otherPort(pub, origin))
		}
		if strict {
			rep.Problems = append(rep.Problems, msg+": refused (-strict)")
			return
		}
		rep.Warnings = append(rep.Warnings, msg+" (-strict refuses it)")
	}
}

// unsignedCatalogNote says what verify of a site vouches for in its
// catalog.
func unsignedCatalogNote(dir string) string {
	return dir + ": the catalog (.well-known/ai-catalog.json) is unsigned: what it says of each agent card (displayName, description, url) is checked against the signed card, and the publisher its identifiers claim against the site's origin; nothing vouches for the rest (the names in identifiers, tags, the host's displayName)"
}

// checkSiteCardEntry checks entry i of a site's catalog what, an A2A
// entry whose url names the file p of the site dir: it must be a card
// this check verified (c, nil for any other file, which would be vouched
// for unsigned), and say what that card says (siteEntryProblems).
func checkSiteCardEntry(dir, what string, i int, e aicatalog.Entry, base, p string, c cardFacts, read bool, rep *Report) {
	if !read {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): url %s is not an agent card of this site (.well-known/agent-card.json or agent.json): nothing vouches for it", dir, what, i, e.Identifier, e.URL))
		return
	}
	for _, pr := range siteEntryProblems(e, base, dir, p, c) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s entry %d (%s): %s", dir, what, i, e.Identifier, pr))
	}
}

// siteEntryProblems is where an A2A entry of a site's catalog departs
// from what the build writes from its card c (site.catalogDocument),
// the card being the file p of the site dir, served at base: displayName
// is the card's name, description its description (left out when empty),
// and url the card's own URL, exactly (no dot segments, doubled slashes
// or escapes that a server might resolve to the same file).
func siteEntryProblems(e aicatalog.Entry, base, dir, p string, c cardFacts) []string {
	var out []string
	where := p
	if rel, err := filepath.Rel(dir, p); err == nil {
		where = filepath.ToSlash(rel)
		if want := base + "/" + where; e.URL != want {
			out = append(out, fmt.Sprintf("url %s is not the URL of the card it names, %s", e.URL, want))
		}
	}
	if e.DisplayName != c.name {
		out = append(out, fmt.Sprintf("displayName %s is not the signed card's name %s (%s)", shortQuote(e.DisplayName), shortQuote(c.name), where))
	}
	switch {
	case c.description.is(e.Description):
	case e.Description == "":
		out = append(out, fmt.Sprintf("description is left out, but the signed card's is %s (%s)", c.description.quote(), where))
	default:
		out = append(out, fmt.Sprintf("description %s is not the signed card's description %s (%s)", shortQuote(e.Description), c.description.quote(), where))
	}
	return out
}

// shortQuote quotes s, cut to its first 80 characters.
func shortQuote(s string) string {
	const most = 80
	if utf8.RuneCountInString(s) <= most {
		return strconv.Quote(s)
	}
	n := 0
	for i := range s {
		if n == most {
			return strconv.Quote(s[:i]) + "..."
		}
		n++
	}
	return strconv.Quote(s)
}
