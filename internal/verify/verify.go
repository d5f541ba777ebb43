// Package verify answers "is this agent card genuine?" for a card file, a
// built site folder or a URL, with trust pinned to a JWKS the caller chose
// (the card's own origin by default), never to the card's own jku.
package verify

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/lint"
	"github.com/agentcards/agentcards/internal/lintrule"
	"github.com/agentcards/agentcards/internal/trust"
)

// Options steer a verification.
type Options struct {
	// JWKS, when set, is the trusted key set: a URL, a file, or a built
	// site folder (its .well-known/jwks.json). Otherwise
	// keys come from the card's origin (/.well-known/jwks.json), or from
	// the site folder the card lies in.
	JWKS string
	// All demands that every signature verify, not just one.
	All bool
	// Strict refuses cards whose only verified signatures cover the SDK
	// projection rather than the whole card.
	Strict bool
	// Algorithms is the allow-list (default sign.VerifyAlgorithms).
	Algorithms []string
	// Fetch gets remote documents. Its Pins are the run's network
	// policy (fetch.Pins): give every call of one run the same Client, with
	// Pins; a Client without is given Pins of its own for each call of
	// Target, Catalog or Extended.
	Fetch *fetch.Client
	// Keys, when set, keeps every trusted JWKS read in this run, so that
	// the cards of one origin are checked against one reading of its JWKS
	// (fetched and parsed once, however many cards there are).
	Keys *trust.Cache

	// skipLint leaves a card's Lint empty: in a site, an agent's
	// agent-card.json that the root card copies, linted as the root.
	skipLint bool
	// linter lints the cards of one site, remembering the strings it
	// read (a card's two shapes share most of them).
	linter *lint.Linter
	// names keeps one copy of the short strings the cards of one site
	// repeat (kids, algorithms, jku values), for the report.
	names *interner
}

// Signature is the outcome for one signature.
type Signature struct {
	Index    int    `json:"index"`
	KID      string `json:"kid,omitempty"`
	Alg      string `json:"alg,omitempty"`
	JKU      string `json:"jku,omitempty"`
	Verified bool   `json:"verified"`
	// Covers is "strict" (RFC 8785 over the whole card) or
	// "sdk-projection" (the A2A SDKs' form: Uncovered lists what it leaves
	// out), when Verified.
	Covers    string   `json:"covers,omitempty"`
	Uncovered []string `json:"uncovered,omitempty"`
	Reason    string   `json:"reason,omitempty"`
}

// Card is the outcome for one card.
type Card struct {
	Source string `json:"source"`
	// JWKS is where the trusted keys came from: a file or a URL.
	JWKS       string      `json:"jwks"`
	Version    string      `json:"version,omitempty"` // "1.0" or "0.3"
	Name       string      `json:"name,omitempty"`
	Verified   bool        `json:"verified"`
	Outcome    string      `json:"outcome"`
	Signatures []Signature `json:"signatures"`
	Problems   []string    `json:"problems,omitempty"`
	// DevelopmentKey says a signature that verified was made by an
	// agentcards development key (kid sign.DevKIDPrefix...): a local
	// preview, never a published site.
	DevelopmentKey bool `json:"developmentKey,omitempty"`
	// Lint is what `agentcards lint` finds in the card: warnings, which
	// never make a card fail verification (a signature says who wrote
	// the card, not that what it says is safe).
	Lint []lint.Finding `json:"lint,omitempty"`
	// Gateway is set for a gateway's card of a remote agent: the owner's
	// original beside it, its signatures, and how the two differ.
	Gateway *Gateway `json:"gateway,omitempty"`

	// description is what a site's catalog entry must repeat of the
	// card's description (siteEntryProblems).
	description descDigest
	// notCard says the file or response was no card at all (notACard).
	notCard bool
	// gatewayHead is the decoded card, kept only when it carries the
	// gateway extension, for checkGateway (no second decode).
	gatewayHead map[string]any
}

// Outcomes of a card.
const (
	OutcomeVerified       = trust.OutcomeVerified
	OutcomeSDKProjection  = trust.OutcomeSDKProjection
	OutcomeNotVerified    = trust.OutcomeNotVerified
	OutcomeNotAllVerified = trust.OutcomeNotAllVerified
)

// Report is the outcome for every target.
type Report struct {
	Cards []Card `json:"cards"`
	// Entries are the entries of the catalogs Catalog walked.
	Entries []Entry `json:"entries,omitempty"`
	// EntriesSkipped counts the entries past CatalogOptions.MaxEntries,
	// never fetched; the first of them are among Entries (EntrySkipped),
	// and a problem names a few and the bound.
	EntriesSkipped int      `json:"entriesSkipped,omitempty"`
	Problems       []string `json:"problems,omitempty"` // site-level problems: fail
	Warnings       []string `json:"warnings,omitempty"`
	// Notes say what the verdict does not cover: a site's catalog is
	// unsigned (unsignedCatalogNote).
	Notes []string `json:"notes,omitempty"`
	// ServerCards are the MCP Server Cards a site's catalog lists.
	ServerCards []ServerCard `json:"serverCards,omitempty"`
	Verified    bool         `json:"verified"`
	// Summary counts the outcomes (set by Finish).
	Summary *Summary `json:"summary,omitempty"`

	// Emit, when set, is given each card in turn, in the order Cards
	// would hold it, and Cards keeps none: the report of a site of any
	// size then holds its counts only. Finish and the counts include
	// the cards emitted.
	Emit func(Card) `json:"-"`
	// emitted counts the cards given to Emit.
	emitted tally
}

// ServerCard is an MCP Server Card of a site, as checked. Server Cards
// carry no signature: the check says the file is there and well-formed,
// never who wrote it.
type ServerCard struct {
	Path       string `json:"path"`
	Identifier string `json:"identifier"`
	Name       string `json:"name,omitempty"`
}

// UsageError is an error in what the caller asked for (exit code 2), as is
// a *fetch.Error.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usagef(format string, args ...any) error { return &UsageError{fmt.Errorf(format, args...)} }

// Target verifies one target: a URL, a site folder or a card file.
func Target(ctx context.Context, target string, opts Options, rep *Report) error {
	opts.Fetch = opts.Fetch.ForRun()
	if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") {
		return verifyURL(ctx, target, opts, rep)
	}
	st, err := os.Stat(target)
	if err != nil {
		return usagef("%v", err)
	}
	if st.IsDir() {
		return verifySite(ctx, target, opts, rep)
	}
	return verifyFile(ctx, target, opts, rep)
}

// WellFormedServerCards counts the MCP Server Cards found well-formed: a
// site's, and a catalog's entries.
func (rep *Report) WellFormedServerCards() int {
	n := len(rep.ServerCards)
	for _, e := range rep.Entries {
		if e.Outcome == EntryServerCard {
			n++
		}
	}
	return n
}

// Finish sets rep.Verified: every card verified, no catalog entry failed
// or left unchecked for a bound, and no site or catalog problem; and
// rep.Summary.
func Finish(rep *Report) {
	rep.Summary = summarize(rep)
	rep.Verified = rep.CardCount()+rep.WellFormedServerCards() > 0 && len(rep.Problems) == 0 && rep.emitted.failed == 0
	for _, c := range rep.Cards {
		if !c.Verified {
			rep.Verified = false
		}
	}
	for _, e := range rep.Entries {
		if e.Outcome == EntryFailed || e.Outcome == EntrySkipped {
			rep.Verified = false // a catalog is verified whole or not at all
		}
		if e.Outcome == EntryNotChecked && aicatalog.MediaTypeOf(e.Type) == aicatalog.AgentCardType {
			rep.Verified = false // an A2A card left unchecked is never vouched for
		}
	}
}

func verifyURL(ctx context.Context, target string, opts Options, rep *Report) error {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return usagef("not a URL: %v", urlError(err))
	}
	_, err = fetchCard(ctx, u, opts, rep)
	return err
}

// fetchedCard is a card fetched from a URL and checked.
type fetchedCard struct {
	body    []byte
	keys    *trust.Keys
	network *fetch.Network // the network that served it
	url     *url.URL       // as asked for, with the default path
	card    Card           // the outcome, as added to the report
}

// fetchCard fetches the card at u (an origin means its
// /.well-known/agent-card.json), checks it against the keys of the origin
// named (or -jwks) and adds it to rep.
func fetchCard(ctx context.Context, u *url.URL, opts Options, rep *Report) (*fetchedCard, error) {
	u = trust.CardURL(u)
	body, final, network, err := opts.Fetch.GetWithin(ctx, u.String(), nil)
	if err != nil {
		return nil, err
	}
	ks, err := trustedKeys(ctx, opts, trust.OriginJWKS(u), "", nil)
	if err != nil {
		return nil, err
	}
	source := u.String()
	if final.String() != source {
		source += " (redirected to " + final.String() + ")"
	}
	c := checkCard(source, body, ks, opts)
	checkGatewayURL(ctx, u, opts, &c)
	rep.Add(c)
	rep.Problems = append(rep.Problems, ks.Leaked...)
	return &fetchedCard{body: body, keys: ks, network: network, url: u, card: c}, nil
}

// urlError says why a URL did not parse without repeating it (it may hold
// a password).
func urlError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	if err == nil {
		return "no host"
	}
	return "it does not parse"
}

// trustedKeys loads opts.JWKS, or else originJWKS (a URL) or localJWKS (a
// file).
// A JWKS fetched for a catalog entry is held to the network of the
// catalog that named it (from; nil: the caller's own choice).
func trustedKeys(ctx context.Context, opts Options, originJWKS, localJWKS string, from *fetch.Network) (*trust.Keys, error) {
	src := opts.JWKS
	switch {
	case src == "" && originJWKS != "":
		src = originJWKS
	case src == "" && localJWKS != "":
		src = localJWKS
	case src == "":
		return nil, usagef("no trusted keys: give -jwks URL|FILE (a card file that is not inside a built site under the working directory has no keys to trust)")
	}
	if src == opts.JWKS {
		from = nil // the caller's own choice, wherever the card came from
	}
	if c := opts.Keys; c != nil {
		// One reading per source and rule.
		return c.Get(ctx, src+"\x00"+from.String(), func() (*trust.Keys, error) {
			return readTrustedKeys(ctx, opts, src, from)
		})
	}
	return readTrustedKeys(ctx, opts, src, from)
}

// readTrustedKeys reads and parses the trusted key set at src.
func readTrustedKeys(ctx context.Context, opts Options, src string, from *fetch.Network) (*trust.Keys, error) {
	if strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://") {
		ks, err := trust.FetchKeys(ctx, opts.Fetch, src, from)
		if err != nil && errors.Is(err, trust.ErrJWKS) {
			return nil, &UsageError{err}
		}
		return ks, err
	}
	if st, err := os.Stat(src); err == nil && st.IsDir() {
		// A built site folder: its JWKS.
		src = filepath.Join(src, filepath.FromSlash(layout.JWKS))
	}
	data, err := readLocal(src, opts)
	if err != nil {
		return nil, usagef("trusted JWKS: %v", err)
	}
	ks, err := trust.NewKeys(data, src, "")
	if err != nil {
		return nil, usagef("trusted JWKS %s: %v", src, err)
	}
	return ks, nil
}

func verifyFile(ctx context.Context, path string, opts Options, rep *Report) error {
	body, err := readLocal(path, opts)
	if err != nil {
		return usagef("%v", err)
	}
	local := ""
	if opts.JWKS == "" {
		root, err := siteRoot(path)
		if err != nil {
			return usagef("%v", err)
		}
		if root != "" {
			local = filepath.Join(root, filepath.FromSlash(layout.JWKS))
		}
	}
	if opts.JWKS == "" && local == "" {
		// No keys to trust: say first what is no card at all (a saved
		// 404 page, an empty or truncated file), which keys would not fix.
		if _, err := card.Decode(body, card.Strict); err != nil {
			if what := notACard(path, body, err); what != "" {
				rep.Add(Card{Source: path, Outcome: OutcomeNotVerified, Signatures: []Signature{}, Problems: []string{what}, notCard: true})
				return nil
			}
		}
	}
	ks, err := trustedKeys(ctx, opts, "", local, nil)
	if err != nil {
		return err
	}
	c := checkCard(path, body, ks, opts)
	checkGatewayLocal(path, opts, &c)
	if layout.IsExtendedName(filepath.Base(path)) {
		site := ""
		if st, err := os.Stat(opts.JWKS); err == nil && st.IsDir() {
			site = opts.JWKS
		}
		checkExtendedFile(path, body, site, opts, &c, rep)
	}
	rep.Add(c)
	rep.Problems = append(rep.Problems, ks.Leaked...)
	return nil
}

// checkCard verifies one card's signatures against ks.
func checkCard(source string, body []byte, ks *trust.Keys, opts Options) Card {
	c := Card{Source: source, JWKS: ks.From, Outcome: OutcomeNotVerified, Signatures: []Signature{}}
	c.Problems = append(c.Problems, ks.Problems...)
	head, err := card.Decode(body, card.Strict)
	if err != nil {
		if what := notACard(source, body, err); what != "" {
			c.notCard = true
			c.Problems = append(c.Problems, what)
			return c
		}
		c.Problems = append(c.Problems, "card refused: "+err.Error())
		return c
	}
	// The card's strings share one copy of its text (card.Decode): what
	// the report keeps is copied, so that the text can go.
	name, _ := head["name"].(string)
	c.Name = strings.Clone(name)
	description, _ := head["description"].(string)
	c.description = digestDescription(description)
	switch {
	case opts.skipLint:
	case opts.linter != nil:
		c.Lint = opts.linter.Card(head)
	default:
		c.Lint = lint.Card(head)
	}
	c.Version = "1.0"
	if _, v1 := head["supportedInterfaces"]; !v1 {
		c.Version = "0.3"
		if pv, _ := head["protocolVersion"].(string); pv != "" {
			c.Version = strings.Clone(pv)
		}
	}
	if gatewayParams(head) != nil {
		c.gatewayHead = head
	}
	v := trust.Judge(head, ks, trust.Policy{All: opts.All, Strict: opts.Strict, Algorithms: opts.Algorithms})
	c.Outcome, c.Verified, c.DevelopmentKey = v.Outcome, v.Verified, v.DevelopmentKey
	c.Problems = append(c.Problems, v.Problems...)
	for _, r := range v.Results {
		s := Signature{Index: r.Index, KID: opts.names.get(r.KID), Alg: opts.names.get(r.Alg), JKU: opts.names.get(r.JKU), Verified: r.Verified}
		if r.Verified {
			s.Covers, s.Uncovered = string(r.Covers), opts.names.list(r.Uncovered)
		} else if r.Err != nil {
			s.Reason = r.Err.Error()
		}
		c.Signatures = append(c.Signatures, s)
	}
	c.Lint = withoutPreviewJKU(source, c.Lint, c.Signatures)
	return c
}

// withoutPreviewJKU drops the private- and insecure-endpoint findings on a
// signature's jku when the card was fetched from a loopback origin (a
// preview, `agentcards serve`) and the jku names that same origin: that is
// what a preview's cards say, and the one asking named the origin.
func withoutPreviewJKU(source string, findings []lint.Finding, sigs []Signature) []lint.Finding {
	u, err := url.Parse(source)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !fetch.IsLoopback(u.Hostname()) {
		return findings
	}
	kept := findings[:0]
	for _, f := range findings {
		if f.Rule == lintrule.PrivateEndpoint || f.Rule == lintrule.InsecureEndpoint {
			if i := signatureOfJKU(f.Path); i >= 0 && slices.ContainsFunc(sigs, func(s Signature) bool {
				j, err := url.Parse(s.JKU)
				return s.Index == i && err == nil && j.Scheme == u.Scheme && j.Host == u.Host
			}) {
				continue
			}
		}
		kept = append(kept, f)
	}
	return kept
}

// signatureOfJKU is N for the path "signatures[N].protected.jku", else -1.
func signatureOfJKU(path string) int {
	rest, ok := strings.CutPrefix(path, "signatures[")
	if !ok {
		return -1
	}
	n, rest, ok := strings.Cut(rest, "]")
	if !ok || rest != ".protected.jku" {
		return -1
	}
	i, err := strconv.Atoi(n)
	if err != nil {
		return -1
	}
	return i
}

// IsUsage reports errors that mean exit code 2: usage and fetch errors.
func IsUsage(err error) bool {
	var ue *UsageError
	var fe *fetch.Error
	return errors.As(err, &ue) || errors.As(err, &fe)
}
