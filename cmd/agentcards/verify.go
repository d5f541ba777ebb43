package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/terminal"
	"github.com/agentcards/agentcards/internal/trust"
	"github.com/agentcards/agentcards/internal/verify"
)

// errNotVerified makes exit code 1 without another message.
type errNotVerified struct{}

func (errNotVerified) Error() string { return "not verified" }

func runVerify(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("verify", stderr)
	jwks := fs.String("jwks", "", "trusted JWKS `URL|FILE|SITE` (a built site folder means its .well-known/jwks.json; default: the card's origin, or the built site under the working directory that the card file lies in)")
	all := fs.Bool("all", false, "require every signature to verify, not just one")
	strict := fs.Bool("strict", false, "require a signature over the whole card (RFC 8785), not only over the A2A SDKs' projection; with a catalog, refuse an entry whose identifier claims a publisher other than the domain whose keys signed its card")
	asJSON := fs.Bool("json", false, "write the report as JSON")
	verbose := fs.Bool("v", false, "show every signature of every card and where its keys came from, not only those of the cards that failed")
	timeout := fs.Duration("timeout", fetch.DefaultTimeout, "timeout for each HTTP request")
	maxBytes := fs.Int64("max-bytes", fetch.DefaultMaxBytes, "largest document fetched, in bytes")
	cacert := fs.String("cacert", "", "trust only the CA certificates in this PEM `file` for https (default: the system's)")
	asCatalog := fs.Bool("catalog", false, "each TARGET is an AI Catalog (an origin means its /.well-known/ai-catalog.json): check it against the spec and verify every A2A card it lists (default for a URL or file named ai-catalog.json)")
	allowPrivate := fs.Bool("allow-private", false, "with a catalog file: fetch the URLs it names as if each were named on the command line (loopback over http, private and link-local addresses too), for a catalog of local or intranet agents you vouch for; by default they may lead only to public addresses, as a public catalog's may (a catalog fetched by URL is held to the network that served it either way)")
	maxEntries := fs.Int("max-entries", verify.DefaultMaxEntries, "with a catalog: check at most `N` entries in all, nested catalogs' included, breadth-first in catalog order")
	maxTime := fs.Duration("max-time", 10*time.Minute, "stop fetching after this long in all (what is not fetched by then fails)")
	extended := fs.Bool("extended", false, "each TARGET is an agent's public card URL: verify it, then ask the agent's interface for its extended card (GetExtendedAgentCard) with the -H and -header-env headers, and verify that with the same keys")
	var headers, headerEnv multiFlag
	fs.Var(&headers, "H", "with -extended: send this header to the agent's interface (`'Name: value'`; repeatable)")
	fs.Var(&headerEnv, "header-env", "with -extended: send header Name with the value of environment variable VAR (`Name=VAR`; repeatable), which keeps the value out of shell history")
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	header, err := requestHeaders(headers, headerEnv, getenv)
	if err != nil {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	if len(header) > 0 && !*extended {
		return fmt.Errorf("-H and -header-env are sent only with -extended, to the agent's own interface: %w", errUsage)
	}
	if *extended && (*asCatalog || *jwks != "") {
		return fmt.Errorf("-extended checks a live agent with the keys of its public card's origin; it does not take -catalog or -jwks: %w", errUsage)
	}
	// One network policy for the run: every fetch of every target keeps
	// an origin on the network its first answer came from.
	client := &fetch.Client{Timeout: *timeout, MaxBytes: *maxBytes, Pins: &fetch.Pins{}}
	if *cacert != "" {
		pool, err := fetch.LoadRootCAs(*cacert)
		if err != nil {
			return fmt.Errorf("%v: %w", err, errUsage)
		}
		client.RootCAs = pool
	}
	verify.TuneMemory(getenv)
	opts := verify.Options{JWKS: *jwks, All: *all, Strict: *strict, Fetch: client, Keys: trust.NewCache()}
	rep := &verify.Report{Cards: []verify.Card{}}
	// One write per line would be a system call per line: 100,000
	// of them for a site of 20,000 cards.
	w := bufio.NewWriterSize(stdout, 64<<10)
	var cards *cardStream
	if fs.NArg() == 1 && !*extended && !*asCatalog && !aicatalog.IsCatalogName(fs.Arg(0)) {
		// One card file, URL or site: nothing fails once a card is
		// checked, so each card is written as it comes, and a site's
		// report holds none of them.
		cards = &cardStream{w: w, json: *asJSON, verbose: *verbose}
		rep.Emit = cards.write
	}
	ctx, cancel := context.WithTimeout(context.Background(), *maxTime)
	defer cancel()
	for _, t := range fs.Args() {
		verifyOne := verify.Target
		switch {
		case *extended:
			verifyOne = func(ctx context.Context, t string, opts verify.Options, rep *verify.Report) error {
				progress := func(msg string) { fmt.Fprintln(stderr, terminal.Escape(msg)) }
				return verify.Extended(ctx, t, opts, verify.ExtendedOptions{Header: header, Progress: progress}, rep)
			}
		case *asCatalog || aicatalog.IsCatalogName(t):
			verifyOne = func(ctx context.Context, t string, opts verify.Options, rep *verify.Report) error {
				return verify.Catalog(ctx, t, opts, verify.CatalogOptions{MaxEntries: *maxEntries, AllowPrivate: *allowPrivate}, rep)
			}
		}
		if err := verifyOne(ctx, t, opts, rep); err != nil {
			if verify.IsUsage(err) {
				return fmt.Errorf("%s: %v: %w", redacted(t), err, errUsage)
			}
			return fmt.Errorf("%s: %v", redacted(t), err)
		}
	}
	verify.Finish(rep)
	if err := writeReport(w, rep, cards, *asJSON, *verbose); err != nil {
		return err
	}
	if !rep.Verified {
		return errNotVerified{}
	}
	return nil
}

// writeReport writes the report (the rest of it, after the cards
// written as they came when cards is set) to w, as JSON or as text, and
// flushes w.
func writeReport(w *bufio.Writer, rep *verify.Report, cards *cardStream, asJSON, verbose bool) error {
	var err error
	switch {
	case asJSON && cards != nil:
		err = cards.finishJSON(rep)
	case asJSON:
		err = writeJSON(w, rep)
	default:
		printReport(w, rep, verbose)
	}
	if err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if cards != nil {
		return cards.err
	}
	return nil
}

// redacted is a target as the user typed it, with the password of a URL's
// user info masked: error messages end up in terminals and CI logs.
func redacted(target string) string {
	if u, err := url.Parse(target); err == nil && u.User != nil {
		return u.Redacted()
	} else if err != nil {
		return userInfo.ReplaceAllString(target, "$1xxxxx@")
	}
	return target
}

// userInfo is the user info of a URL that does not parse.
var userInfo = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#]*@`)

// printEntries writes the catalog entries' table: one line per entry,
// its outcome first.
func printEntries(w io.Writer, rep *verify.Report) {
	if len(rep.Entries) == 0 {
		return
	}
	counts := map[string]int{}
	for _, e := range rep.Entries {
		counts[e.Outcome]++
	}
	fmt.Fprintf(w, "catalog entries: %d", len(rep.Entries))
	for _, o := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(w, ", %d %s", counts[o], entryWords(o))
	}
	fmt.Fprintln(w)
	for _, e := range rep.Entries {
		fmt.Fprintf(w, "  %-28s %s", strings.ToUpper(entryWords(e.Outcome)), terminal.Escape(orDash(e.Identifier)))
		if e.URL != "" {
			fmt.Fprintf(w, " %s", terminal.Escape(e.URL))
		}
		switch {
		case e.OtherOrigin && e.Outcome == verify.EntryNested:
			fmt.Fprint(w, " (another origin)")
		case e.OtherOrigin:
			fmt.Fprint(w, " (another origin: checked with its own JWKS)")
		}
		if e.Problem != "" {
			fmt.Fprintf(w, ": %s", terminal.Escape(e.Problem))
		}
		fmt.Fprintln(w)
		// Whose keys signed the card: the only part of an entry that
		// anyone vouches for.
		if e.VouchedBy != "" {
			fmt.Fprintf(w, "      vouched for by the keys of %s\n", terminal.Escape(e.VouchedBy))
		}
		if e.Warning != "" {
			fmt.Fprintf(w, "      warning: %s\n", terminal.Escape(e.Warning))
		}
	}
}

// entryWords names an entry outcome.
func entryWords(o string) string {
	switch o {
	case verify.EntryNested:
		return "nested catalog"
	case verify.EntryServerCard:
		return "server card (unsigned)"
	case verify.EntryNotChecked:
		return "not checked"
	case verify.EntryFailed:
		return "failed"
	case verify.EntrySkipped:
		return "skipped"
	}
	return outcomeWords(o)
}

// printReport writes one line per card, with its signatures when it did
// not verify in full or verbose is set, the catalog entries and site notes, and one
// summary line (printSummary).
func printReport(w io.Writer, rep *verify.Report, verbose bool) {
	// Each card's lines are put together in one buffer, without fmt: a
	// site may have tens of thousands of cards.
	var b []byte
	for _, c := range rep.Cards {
		b = appendCardText(b[:0], c, verbose)
		w.Write(b)
	}
	printEntries(w, rep)
	for _, sc := range rep.ServerCards {
		fmt.Fprintf(w, "%s: MCP Server Card %q (%s): well-formed; Server Cards carry no signature, so nothing vouches for who wrote it\n", terminal.Escape(sc.Path), terminal.Escape(sc.Name), terminal.Escape(sc.Identifier))
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", terminal.Escape(n))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "problem: %s\n", terminal.Escape(p))
	}
	for _, wn := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", terminal.Escape(wn))
	}
	printSummary(w, rep)
}

// appendCardText appends a card's lines to b as the report shows them: a
// card verified in full is a line; what falls short shows why.
func appendCardText(b []byte, c verify.Card, verbose bool) []byte {
	return appendCard(b, c, verbose || c.Outcome != verify.OutcomeVerified)
}

// appendCard appends a card's lines to b: its outcome, then, with detail,
// where its keys came from and each signature, then its problems and
// lint findings.
func appendCard(b []byte, c verify.Card, detail bool) []byte {
	esc := func(s string) { b = append(b, terminal.Escape(s)...) }
	esc(c.Source)
	b = append(b, ": "...)
	b = append(b, strings.ToUpper(outcomeWords(c.Outcome))...)
	if c.Version != "" {
		b = append(b, " (A2A "...)
		esc(c.Version)
		if c.Name != "" {
			b = append(b, ` "`...)
			esc(c.Name)
			b = append(b, '"')
		}
		b = append(b, ')')
	}
	b = append(b, '\n')
	if detail && c.JWKS != "" && c.Version != "" { // none for what is no card
		b = append(b, "  trusted JWKS: "...)
		esc(c.JWKS)
		b = append(b, '\n')
	}
	for _, s := range c.Signatures {
		if !detail {
			break
		}
		b = append(b, "  signature "...)
		b = strconv.AppendInt(b, int64(s.Index+1), 10)
		b = append(b, ": kid "...)
		esc(orDash(s.KID))
		b = append(b, ", alg "...)
		esc(orDash(s.Alg))
		b = append(b, ": "...)
		switch whole := strictBy(c, s.KID); {
		case s.Verified && s.Covers == "strict":
			b = append(b, "verified, covers the whole card (RFC 8785)\n"...)
		case s.Verified && whole > 0 && len(s.Uncovered) > 0:
			// The build's second signature, for the SDKs: expected.
			b = append(b, "verified too, over the card as the A2A SDKs read it (made so that they verify it; they erase "...)
			esc(strings.Join(s.Uncovered, ", "))
			b = append(b, ", which signature "...)
			b = strconv.AppendInt(b, int64(whole), 10)
			b = append(b, " covers)\n"...)
		case s.Verified:
			b = append(b, "verified over the A2A SDKs' projection only; not covered: "...)
			if len(s.Uncovered) > 0 {
				esc(strings.Join(s.Uncovered, ", "))
			} else {
				b = append(b, "nothing now in the card (fields may have been removed)"...)
			}
			b = append(b, '\n')
		default:
			b = append(b, "NOT verified: "...)
			esc(s.Reason)
			b = append(b, '\n')
		}
	}
	if g := c.Gateway; g != nil {
		b = appendGateway(b, g, detail)
	}
	for _, p := range c.Problems {
		b = append(b, "  problem: "...)
		esc(p)
		b = append(b, '\n')
	}
	for _, f := range c.Lint {
		if f.Severity != lint.Error && !detail {
			continue // a warning is lint's business (`agentcards lint`); -v shows it here
		}
		b = append(b, "  lint: "...)
		b = append(b, formatFinding(f)...)
		b = append(b, '\n')
	}
	return b
}

// appendGateway appends what verify found of a gateway card's owner copy:
// where it is, the owner's signatures, and how the two cards differ.
func appendGateway(b []byte, g *verify.Gateway, detail bool) []byte {
	esc := func(s string) { b = append(b, terminal.Escape(s)...) }
	b = append(b, "  gateway card: routes the owner's card "...)
	esc(orDash(g.UpstreamCard))
	if g.UpstreamVersion != "" {
		b = append(b, " (A2A "...)
		esc(g.UpstreamVersion)
		b = append(b, ", compared in its v1.0 form)"...)
	}
	if g.FetchedAt != "" {
		b = append(b, ", taken "...)
		esc(g.FetchedAt)
	}
	b = append(b, "; copy "...)
	esc(orDash(g.Upstream))
	b = append(b, "\n  "...)
	esc(g.OwnerSummary())
	if g.UpstreamJWKS != "" {
		b = append(b, ", with the keys the gateway publishes as the owner's, "...)
		esc(g.UpstreamJWKS)
	}
	b = append(b, '\n')
	if len(g.Differences) == 0 && g.Compared {
		b = append(b, "  differs from the owner's card only in its interface URLs ("...)
		b = strconv.AppendInt(b, int64(len(g.Routed)), 10)
		b = append(b, " routed through the gateway), the gateway extension and the signatures\n"...)
	}
	for _, r := range g.Routed {
		if !detail {
			break
		}
		b = append(b, "  routed: "...)
		esc(r)
		b = append(b, '\n')
	}
	return b
}

// strictBy is the number of a verified signature of c over the whole
// card by kid, or 0.
func strictBy(c verify.Card, kid string) int {
	for _, s := range c.Signatures {
		if s.Verified && s.Covers == "strict" && s.KID == kid {
			return s.Index + 1
		}
	}
	return 0
}

// printSummary writes the run's one summary line, with the keys that
// verified the cards, after a note if a development key signed any, and
// then, when the run failed, what to do next.
func printSummary(w io.Writer, rep *verify.Report) {
	sum := rep.Summary
	if sum.DevelopmentKey > 0 {
		fmt.Fprintf(w, "note: %d card(s) signed by an agentcards DEVELOPMENT key (kid dev-...), which `build` makes when no signing key is configured: fine for a local preview, never for a published site\n", sum.DevelopmentKey)
	}
	line := fmt.Sprintf("verified %d card(s), failed %d", sum.Verified, sum.Failed)
	if !rep.Verified {
		line = "NOT VERIFIED: " + line
	}
	if sum.EntriesFailed > 0 {
		line += fmt.Sprintf(", %d catalog entr%s not verified", sum.EntriesFailed, map[bool]string{true: "y", false: "ies"}[sum.EntriesFailed == 1])
	}
	if sum.Problems > 0 {
		line += fmt.Sprintf(", %d problem(s)", sum.Problems)
	}
	if n := rep.WellFormedServerCards(); n > 0 {
		line += fmt.Sprintf("; %d MCP Server Card(s) well-formed (unsigned)", n)
	}
	if len(sum.Keys) > 0 {
		short := make([]string, len(sum.Keys))
		for i, k := range sum.Keys {
			short[i] = shortKID(k)
		}
		line += "; keys: " + strings.Join(short, ", ")
	}
	fmt.Fprintln(w, terminal.Escape(line))
	if !rep.Verified {
		fmt.Fprintln(w, nextStep(rep))
	}
}

// shortKID is a kid cut to its first 12 characters (after dev-), as
// keygen names key files, or the whole kid when it is short.
func shortKID(kid string) string {
	n := 12
	if strings.HasPrefix(kid, "dev-") {
		n += len("dev-")
	}
	if len(kid) <= n+3 {
		return kid
	}
	return kid[:n] + "..."
}

// nextStep says what to check after a run that failed, by what failed
// first: something that was no card, a signature, or the rest.
func nextStep(rep *verify.Report) string {
	sigFailed := rep.SignatureFailed()
	switch {
	case rep.Summary.NotCards > 0:
		return "next: check the paths and URLs above: each should lead to an agent card (.well-known/agent-card.json); for a site, verify its folder or origin; a file of a site you built that is cut short or empty: run `agentcards build` again"
	case sigFailed:
		return "next: check that the trusted JWKS is the one the site publishes (-jwks; by default the card's origin, or the site folder it lies in); if you built the site, run `agentcards build` again and verify what it wrote"
	}
	return "next: fix the problems above (a site you built: run `agentcards build` again), then verify again; `agentcards verify -v` shows every signature"
}

func outcomeWords(o string) string {
	switch o {
	case verify.OutcomeVerified:
		return "verified"
	case verify.OutcomeSDKProjection:
		return "verified (SDK projection only)"
	case verify.OutcomeNotAllVerified:
		return "not all signatures verified"
	}
	return "not verified"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// cardStream writes the cards of a report as verify checks them
// (verify.Report.Emit), in text or as the start of the JSON report, the
// same bytes printReport or writeJSON would write.
type cardStream struct {
	w             *bufio.Writer
	json, verbose bool
	n             int    // cards written
	b             []byte // the card being written
	err           error  // the first error writing
}

// jsonCardsStart is how the JSON of a report begins, its cards member
// empty.
const jsonCardsStart = "{\n  \"cards\": ["

// write writes one card.
func (s *cardStream) write(c verify.Card) {
	if s.err != nil {
		return
	}
	if !s.json {
		s.b = appendCardText(s.b[:0], c, s.verbose)
	} else {
		// An element of the report's cards array, indented as
		// json.MarshalIndent indents it there.
		b, err := json.MarshalIndent(c, "    ", "  ")
		if err != nil {
			s.err = err
			return
		}
		s.b = s.b[:0]
		if s.n == 0 {
			s.b = append(s.b, jsonCardsStart...)
		} else {
			s.b = append(s.b, ',')
		}
		s.b = append(s.b, "\n    "...)
		s.b = append(s.b, terminal.EscapeJSON(b)...)
	}
	s.n++
	if _, err := s.w.Write(s.b); err != nil {
		s.err = err
	}
}

// finishJSON writes the rest of the JSON report after the cards written:
// all writeJSON would write.
func (s *cardStream) finishJSON(rep *verify.Report) error {
	if s.err != nil {
		return s.err
	}
	if s.n == 0 {
		return writeJSON(s.w, rep)
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	rest, ok := bytes.CutPrefix(b, []byte(jsonCardsStart+"]"))
	if !ok {
		return fmt.Errorf("the JSON report does not begin with its cards")
	}
	s.w.WriteString("\n  ]")
	_, err = s.w.Write(append(terminal.EscapeJSON(rest), '\n'))
	return err
}

// writeJSON writes v as indented JSON, escaped for a terminal (it holds
// text from cards), and a new line.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(terminal.EscapeJSON(b), '\n'))
	return err
}
