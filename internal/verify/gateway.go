package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/trust"
)

// Gateway is what verify found of a gateway's card of a remote agent (one
// carrying manifest.GatewayExtension): the owner's original kept beside
// it, checked against the owner's JWKS kept beside it too, and how the
// gateway's card differs from that original.
type Gateway struct {
	// UpstreamCard is where the owner publishes the card, as the
	// extension says; Upstream is the copy that was read, and
	// UpstreamJWKS the owner's key set read ("" for a card taken
	// unsigned).
	UpstreamCard string `json:"upstreamCard"`
	Upstream     string `json:"upstream"`
	UpstreamJWKS string `json:"upstreamJwks,omitempty"`
	FetchedAt    string `json:"fetchedAt,omitempty"`
	// UpstreamVersion is the protocolVersion of an owner's card in the
	// A2A v0.3 shape, which is compared in its v1.0 form (card.FromV03);
	// "" for a v1.0 card.
	UpstreamVersion string `json:"upstreamVersion,omitempty"`
	// Outcome is the owner's signatures' outcome over the copy
	// (OutcomeVerified...), or "unsigned"; Signatures are theirs.
	Outcome    string      `json:"outcome"`
	Signatures []Signature `json:"signatures"`
	// Routed are the interface URLs the gateway changed, "FROM -> TO".
	Routed []string `json:"routed,omitempty"`
	// Differences are the other ways the gateway's card departs from the
	// owner's: each one a problem of the card.
	Differences []string `json:"differences,omitempty"`
	// Compared says the two cards were compared (the copy was read).
	Compared bool `json:"compared"`
	// routes are the routed interfaces, by binding.
	routes []route
}

// route is one interface URL a gateway changed.
type route struct{ binding, from, to string }

// gatewayParams is the gateway extension's params of the v1.0 card head,
// or nil when it carries none.
func gatewayParams(head map[string]any) map[string]any {
	caps, _ := head["capabilities"].(map[string]any)
	exts, _ := caps["extensions"].([]any)
	for _, e := range exts {
		if em, _ := e.(map[string]any); em != nil && em["uri"] == manifest.GatewayExtension {
			p, _ := em["params"].(map[string]any)
			if p == nil {
				p = map[string]any{}
			}
			return p
		}
	}
	return nil
}

// upstreamReader reads the owner's copy (layout.UpstreamCardFile) or key
// set (layout.UpstreamJWKSFile) that lies beside a gateway's card, and
// says where it read it.
type upstreamReader func(name, named string) (data []byte, from string, err error)

// checkGatewayLocal checks the gateway card at path (in a site folder)
// against the owner's copy and keys in its folder.
func checkGatewayLocal(path string, opts Options, c *Card) {
	dir := filepath.Dir(path)
	checkGateway(opts, c, func(name, named string) ([]byte, string, error) {
		p := filepath.Join(dir, name)
		data, err := readInSite(dir, p, opts) // never through a link
		if errors.Is(err, fs.ErrNotExist) {
			// The site's root card (a remote agent as site.defaultAgent)
			// is a copy: the owner's files are in the agent's folder,
			// which the URL the extension names says.
			if q := agentFolderFile(path, named, name); q != "" {
				if d, e := readInSite(filepath.Dir(dir), q, opts); e == nil {
					return d, q, nil
				}
			}
		}
		return data, p, err
	})
}

// agentFolderFile is, for a card at the root of a built site
// (.well-known/agent-card.json), the file name in the agent's folder that
// the URL named ends in (/agents/<id>/.well-known/<name>); "" when the
// card is not at a site's root or named is no such URL.
func agentFolderFile(cardPath, named, name string) string {
	wellKnown := filepath.Dir(cardPath)
	if filepath.Base(wellKnown) != ".well-known" {
		return ""
	}
	u, err := url.Parse(named)
	if err != nil {
		return ""
	}
	rest := u.Path
	if i := strings.LastIndex(rest, "/agents/"); i >= 0 {
		rest = rest[i+len("/agents/"):]
	} else {
		return ""
	}
	id, tail, _ := strings.Cut(rest, "/")
	if tail != ".well-known/"+name || !layout.ValidID(id) {
		return ""
	}
	return filepath.Join(filepath.Dir(wellKnown), filepath.FromSlash(layout.AgentFile(id, name)))
}

// checkGatewayURL checks the gateway card fetched from u against the
// owner's copy and keys the extension names, which must be of u's origin
// (the site that signed the card publishes them).
func checkGatewayURL(ctx context.Context, u *url.URL, opts Options, c *Card) {
	checkGateway(opts, c, func(_, named string) ([]byte, string, error) {
		n, err := url.Parse(named)
		if err != nil || n.Scheme != u.Scheme || n.Host != u.Host {
			return nil, named, fmt.Errorf("%q is not on the card's origin %s://%s, which signed the card", named, u.Scheme, u.Host)
		}
		data, _, _, err := opts.Fetch.GetWithin(ctx, n.String(), nil)
		return data, named, err
	})
}

// checkGateway adds to c what a gateway card's owner copy says, when body
// is a v1.0 card carrying the gateway extension; else it does nothing.
// A copy that is missing or does not verify with the owner's keys, and
// any difference but the interface URLs, the extension and the
// signatures, are problems of the card: it does not verify. An owner's
// card in the v0.3 shape is compared in its v1.0 form (card.FromV03), as
// the build publishes it.
func checkGateway(opts Options, c *Card, read upstreamReader) {
	head := c.gatewayHead
	c.gatewayHead = nil
	if head == nil || c.notCard {
		return
	}
	params := gatewayParams(head)
	g := &Gateway{Outcome: OutcomeNotVerified, Signatures: []Signature{}}
	if card.IsV03(head) {
		// A build writes the gateway's card at agent-card.json in the
		// v1.0 shape, which is what is compared with the owner's; one in
		// the v0.3 shape there would escape the comparison. The legacy
		// twin (agent.json) is checked as any card is.
		if source, _, _ := strings.Cut(c.Source, " "); strings.HasSuffix(source, layout.CardFile) {
			c.Gateway = g
			c.Problems = append(c.Problems, "gateway card: "+layout.CardFile+" in the A2A v0.3 shape: a build writes a gateway's card there in the v1.0 shape, which verify compares with the owner's")
			c.Verified, c.Outcome = false, OutcomeNotVerified
		}
		return
	}
	c.Gateway = g
	g.UpstreamCard, _ = params["upstreamCard"].(string)
	g.FetchedAt, _ = params["fetchedAt"].(string)
	fail := func(format string, args ...any) {
		c.Problems = append(c.Problems, "gateway card: "+fmt.Sprintf(format, args...))
		c.Verified, c.Outcome = false, OutcomeNotVerified
	}
	copyURL, _ := params["upstreamCopy"].(string)
	orig, from, err := read(layout.UpstreamCardFile, copyURL)
	g.Upstream = from
	if err != nil {
		fail("the owner's card it routes (%s) cannot be read: %v", layout.UpstreamCardFile, err)
		return
	}
	upstream, err := card.Decode(orig, card.Strict)
	if err != nil {
		fail("the owner's card %s is refused: %v", from, err)
		return
	}
	jwksURL, _ := params["upstreamJwks"].(string)
	if jwksURL == "" {
		g.Outcome = "unsigned"
		if _, signed := upstream["signatures"]; signed || opts.Strict {
			fail("the owner's card was taken unsigned (no upstreamJwks): -strict refuses it")
		}
	} else {
		checkUpstreamSignatures(g, upstream, opts, read, jwksURL, fail)
	}
	if card.IsV03(upstream) {
		g.UpstreamVersion, _ = upstream["protocolVersion"].(string)
		if g.UpstreamVersion == "" {
			g.UpstreamVersion = card.LegacyProtocolVersion
		}
		if upstream, err = card.FromV03(upstream); err != nil {
			fail("the owner's card %s is an A2A v0.3 card that has no v1.0 form: %v", from, err)
			return
		}
	}
	g.routes, g.Differences = compareGateway(head, upstream)
	g.Compared = true
	for _, r := range g.routes {
		g.Routed = append(g.Routed, r.from+" -> "+r.to)
	}
	for _, d := range g.Differences {
		fail("differs from the owner's card beyond its interface URLs: %s", d)
	}
	for _, p := range extensionProblems(head, params, g, time.Now()) {
		fail("%s", p)
	}
}

// extensionProblems holds the gateway extension to what the build writes
// and verify found: one extension, not required; the routed URLs under
// its gateway but for the bindings it sets outright; its kids those that
// verified the copy; its upstreamVersion the v0.3 copy's protocolVersion
// (none for a v1.0 copy); fetchedAt not in the future.
func extensionProblems(head, params map[string]any, g *Gateway, now time.Time) []string {
	var probs []string
	caps, _ := head["capabilities"].(map[string]any)
	exts, _ := caps["extensions"].([]any)
	n := 0
	for _, e := range exts {
		if em, _ := e.(map[string]any); em != nil && em["uri"] == manifest.GatewayExtension {
			n++
			if req, _ := em["required"].(bool); req {
				probs = append(probs, "the gateway extension is marked required: it is a notice, which a client need not understand")
			}
		}
	}
	if n > 1 {
		probs = append(probs, fmt.Sprintf("the gateway extension appears %d times: once is what a build writes", n))
	}
	gateway, _ := params["gateway"].(string)
	outright := map[string]bool{}
	if set, ok := params["setOutright"].([]any); ok {
		for _, b := range set {
			if s, ok := b.(string); ok {
				outright[s] = true
			}
		}
	}
	for _, r := range g.routes {
		if outright[r.binding] {
			continue
		}
		if want, err := manifest.RebaseURL(gateway, r.from); err != nil || want != r.to {
			probs = append(probs, fmt.Sprintf("the %s interface is routed to %s, which is not the owner's path under the gateway %s (nor a binding setOutright names)", r.binding, r.to, gateway))
		}
	}
	if g.Outcome != "unsigned" {
		var verified, named []string
		for _, s := range g.Signatures {
			if s.Verified {
				verified = append(verified, s.KID)
			}
		}
		kids, _ := params["upstreamKids"].([]any)
		for _, k := range kids {
			if s, ok := k.(string); ok {
				named = append(named, s)
			}
		}
		slices.Sort(verified)
		slices.Sort(named)
		if !slices.Equal(slices.Compact(verified), slices.Compact(named)) {
			probs = append(probs, fmt.Sprintf("upstreamKids %v are not the owner's keys that verify the copy %v", named, verified))
		}
	}
	if v, _ := params["upstreamVersion"].(string); v != g.UpstreamVersion {
		probs = append(probs, fmt.Sprintf("upstreamVersion %q is not the copy's: %q (the protocolVersion of a v0.3 card, none for v1.0)", v, g.UpstreamVersion))
	}
	// A day's leeway for clocks that disagree.
	if t, err := time.Parse(time.RFC3339, g.FetchedAt); err != nil || t.After(now.Add(24*time.Hour)) {
		probs = append(probs, fmt.Sprintf("fetchedAt %q is not a time before now (RFC 3339, as a build writes it)", g.FetchedAt))
	}
	return probs
}

// checkUpstreamSignatures verifies the owner's copy with the owner's key
// set kept beside it, and the kids the extension names.
func checkUpstreamSignatures(g *Gateway, upstream map[string]any, opts Options, read upstreamReader, jwksURL string, fail func(string, ...any)) {
	data, from, err := read(layout.UpstreamJWKSFile, jwksURL)
	g.UpstreamJWKS = from
	if err != nil {
		fail("the owner's JWKS (%s) cannot be read: %v", layout.UpstreamJWKSFile, err)
		return
	}
	ks, err := trust.NewKeys(data, from, "")
	if err != nil {
		fail("the owner's JWKS %s: %v", from, err)
		return
	}
	v := trust.Judge(upstream, ks, trust.Policy{All: opts.All, Strict: opts.Strict, Algorithms: opts.Algorithms})
	g.Outcome = v.Outcome
	for _, r := range v.Results {
		s := Signature{Index: r.Index, KID: r.KID, Alg: r.Alg, JKU: r.JKU, Verified: r.Verified}
		if r.Verified {
			s.Covers, s.Uncovered = string(r.Covers), r.Uncovered
		} else if r.Err != nil {
			s.Reason = r.Err.Error()
		}
		g.Signatures = append(g.Signatures, s)
	}
	if !v.Verified {
		why := "no signature verified"
		if len(v.Problems) > 0 {
			why = v.Problems[0]
		}
		fail("the owner's card %s does not verify with the owner's JWKS %s: %s", g.Upstream, from, why)
	}
}

// compareGateway compares a gateway's card with the owner's: routed are
// the interface URLs it changed, differences everything else it changed
// but the gateway extension and the signatures.
func compareGateway(gw, upstream map[string]any) (routed []route, differences []string) {
	a, b := stripped(gw, true), stripped(upstream, false)
	ga, _ := a["supportedInterfaces"].([]any)
	gb, _ := b["supportedInterfaces"].([]any)
	if len(ga) == len(gb) {
		for i := range ga {
			ia, _ := ga[i].(map[string]any)
			ib, _ := gb[i].(map[string]any)
			if ia == nil || ib == nil || ia["url"] == ib["url"] {
				continue
			}
			binding, _ := ib["protocolBinding"].(string)
			from, _ := ib["url"].(string)
			to, _ := ia["url"].(string)
			routed = append(routed, route{binding, from, to})
			ia, ib = maps.Clone(ia), maps.Clone(ib)
			delete(ia, "url")
			delete(ib, "url")
			ga[i], gb[i] = ia, ib
		}
	}
	for _, k := range slices.Sorted(keysOf(a, b)) {
		if !reflect.DeepEqual(a[k], b[k]) {
			differences = append(differences, k)
		}
	}
	return routed, differences
}

// stripped is a copy of a card's members without its signatures and,
// for the gateway's (gw), without the gateway extension (and the
// capabilities or extensions it alone made).
func stripped(doc map[string]any, gw bool) map[string]any {
	out := maps.Clone(doc)
	delete(out, "signatures")
	if ifaces, ok := out["supportedInterfaces"].([]any); ok {
		out["supportedInterfaces"] = slices.Clone(ifaces)
	}
	caps, _ := out["capabilities"].(map[string]any)
	if caps == nil {
		return out
	}
	caps = maps.Clone(caps)
	if gw {
		exts, _ := caps["extensions"].([]any)
		exts = slices.DeleteFunc(slices.Clone(exts), func(e any) bool {
			em, _ := e.(map[string]any)
			return em != nil && em["uri"] == manifest.GatewayExtension
		})
		if len(exts) == 0 {
			delete(caps, "extensions")
		} else {
			caps["extensions"] = exts
		}
	}
	// The build gives a card without capabilities the ones that hold the
	// extension: none and {} are the same.
	if len(caps) == 0 {
		delete(out, "capabilities")
	} else {
		out["capabilities"] = caps
	}
	return out
}

// keysOf is the members of either object.
func keysOf(a, b map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range a {
			if !yield(k) {
				return
			}
		}
		for k := range b {
			if _, dup := a[k]; !dup && !yield(k) {
				return
			}
		}
	}
}

// OwnerSummary is a line on the owner's signatures over the copy, for
// the text report.
func (g *Gateway) OwnerSummary() string {
	var kids []string
	for _, s := range g.Signatures {
		if s.Verified {
			kids = append(kids, s.KID)
		}
	}
	owner := "owner's signature: " + g.Outcome
	if len(kids) > 0 {
		owner += " (kid " + strings.Join(kids, ", ") + ")"
	}
	return owner
}
