// Package agentcards verifies signed A2A Agent Cards from a client's own
// code: the same checks `agentcards verify` makes, as a library.
//
// A card is signed as A2A v1.0 section 8.4 says: a detached JWS (RFC 7515)
// over the RFC 8785 canonical form of the card without its signatures
// member. A [Verifier] is built from what the caller trusts (a JWKS URL, a
// pinned JWKS, keys, or the JWKS of the origin a card is fetched from) and
// checks a card's bytes ([Verifier.Verify]) or fetches and checks a card
// by URL ([Verifier.Fetch]). A card's own jku is never a trust root: with
// [TrustOrigin] or [TrustJWKSURL] it must name that JWKS or be absent; with
// pinned keys it is not looked at.
//
// What comes back is a [Result] whose Card holds only what the signature
// covers: parse those bytes, never the ones received. Failures are typed:
// use errors.Is with [ErrBadSignature], [ErrUnknownKey], [ErrUncovered] and
// the other sentinels, and errors.As with [*VerificationError],
// [*SignatureError] and [*FetchError].
//
// [VerifyingParser] plugs a Verifier into a client library's card parser
// (a2a-go's agentcard.Resolver.CardParser, say) without this package
// importing that library.
//
// The package depends on the standard library, go-jose and
// gowebpki/jcs only.
package agentcards

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/trust"
)

// Verifier checks signed agent cards against the keys it trusts. It keeps
// the JWKS documents it fetches (see [WithRefresh]) and is safe for
// concurrent use.
type Verifier struct {
	trust  Trust
	policy trust.Policy
	client fetch.Client
	// maxAge is how long a fetched JWKS is used; minInterval the least
	// time between two fetches of one JWKS.
	maxAge, minInterval time.Duration

	mu      sync.Mutex
	jwks    map[string]*jwksEntry // by JWKS URL
	sweepAt int                   // how many entries make entry drop the expired ones
}

// Option sets a property of a Verifier.
type Option func(*Verifier) error

// NewVerifier returns a Verifier that trusts t. By default one signature
// that verifies suffices, over the whole card or over the A2A SDKs'
// projection of it when everything the projection leaves out is empty;
// the algorithms are EdDSA (Ed25519), ES256, ES384, RS256 and PS256.
func NewVerifier(t Trust, opts ...Option) (*Verifier, error) {
	if t == nil {
		return nil, errors.New("agentcards: NewVerifier needs a Trust")
	}
	// One network policy for the Verifier's life: an origin stays on the
	// network its first answer came from.
	v := &Verifier{trust: t, policy: trust.Policy{Payloads: true}, client: fetch.Client{Pins: &fetch.Pins{}}, maxAge: 10 * time.Minute, minInterval: 30 * time.Second, jwks: map[string]*jwksEntry{}}
	for _, o := range opts {
		if err := o(v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// WithAlgorithms allows only the named JWS algorithms ("EdDSA",
// "Ed25519", "ES256", "ES384", "RS256", "PS256"). "none" and HMAC are
// never allowed.
func WithAlgorithms(algs ...string) Option {
	return func(v *Verifier) error {
		for _, a := range algs {
			if !slices.Contains(sign.VerifyAlgorithms, a) {
				return fmt.Errorf("agentcards: algorithm %q is not one a card may be signed with (%v)", a, sign.VerifyAlgorithms)
			}
		}
		if len(algs) == 0 {
			return errors.New("agentcards: WithAlgorithms needs at least one algorithm")
		}
		v.policy.Algorithms = slices.Clone(algs)
		return nil
	}
}

// RequireWholeCard refuses a card whose only verified signatures cover the
// A2A SDKs' projection of it rather than the whole card.
func RequireWholeCard() Option {
	return func(v *Verifier) error { v.policy.Strict = true; return nil }
}

// RequireAllSignatures refuses a card unless every signature on it
// verifies, not just one.
func RequireAllSignatures() Option {
	return func(v *Verifier) error { v.policy.All = true; return nil }
}

// WithTimeout bounds each HTTP request (default 10 seconds). The context
// given to Verify or Fetch bounds them too.
func WithTimeout(d time.Duration) Option {
	return func(v *Verifier) error { v.client.Timeout = d; return nil }
}

// WithMaxBytes is the largest card or JWKS fetched (default 1 MiB).
func WithMaxBytes(n int64) Option {
	return func(v *Verifier) error { v.client.MaxBytes = n; return nil }
}

// WithRootCAs trusts only these certificate authorities for https
// (default: the system's).
func WithRootCAs(pool *x509.CertPool) Option {
	return func(v *Verifier) error { v.client.RootCAs = pool; return nil }
}

// WithRefresh sets how long a fetched JWKS is used before it is fetched
// again (default 10 minutes, the cache time of GitHub Pages), and the
// least time between two fetches of one JWKS (default 30 seconds): a card
// signed by a key the JWKS lacks fetches it again once that time has
// passed, so a key published by a rotation is found without a flood of
// requests from forged kids.
func WithRefresh(maxAge, minInterval time.Duration) Option {
	return func(v *Verifier) error {
		if maxAge <= 0 || minInterval < 0 {
			return errors.New("agentcards: WithRefresh needs a positive maxAge and a minInterval of 0 or more")
		}
		v.maxAge, v.minInterval = maxAge, minInterval
		return nil
	}
}

// Result is a card that verified.
type Result struct {
	// Card is the verified card: the card received without its signatures
	// member, in RFC 8785 canonical form, holding only what the signature
	// covers. Parse these bytes.
	Card []byte
	// Raw is the card exactly as received, signatures included (to store
	// or serve again).
	Raw []byte
	// KeyID and Algorithm name the key and algorithm of the signature that
	// verified; Index is its place in the card's signatures.
	KeyID, Algorithm string
	Index            int
	// Covers is "strict" when the signature covers the whole card (RFC
	// 8785), or "sdk-projection" when it covers the A2A SDKs' projection,
	// which leaves out the empty members listed in Uncovered (Card then
	// holds the projection).
	Covers    string
	Covered   []string // the card's top-level members the signature covers
	Uncovered []string
	// JWKS is where the trusted key came from: a URL, or "pinned".
	JWKS string
}

// Verify checks the signatures of card, given as received, against the
// trusted keys. A Verifier built with [TrustOrigin] has no keys until it
// knows a card's URL: use [Verifier.Fetch].
func (v *Verifier) Verify(ctx context.Context, card []byte) (*Result, error) {
	res, err := v.verify(ctx, card, nil)
	return res, escape(err)
}

// Fetch gets the card at cardURL (an origin alone means its
// /.well-known/agent-card.json) and verifies it. With [TrustOrigin] the
// keys are those of the origin named in cardURL, never of wherever a
// redirect led. Only https is fetched (plain http only on loopback), a
// public origin may not redirect to a private or loopback address, and an
// origin stays, for the Verifier's life, on the network (public, private,
// loopback) its first answer came from: a name that answers from another
// later (DNS rebinding) is refused, for the card and its JWKS alike.
func (v *Verifier) Fetch(ctx context.Context, cardURL string) (*Result, error) {
	u, err := url.Parse(cardURL)
	if err != nil || u.Host == "" {
		return nil, &FetchError{URL: "URL", Err: errors.New("not an absolute URL")}
	}
	u = trust.CardURL(u)
	body, _, _, err := v.client.GetWithin(ctx, u.String(), nil)
	if err != nil {
		return nil, escape(fetchError(err, u))
	}
	res, err := v.verify(ctx, body, u)
	return res, escape(err)
}

// verify checks body, fetched from cardURL (nil: given by the caller).
func (v *Verifier) verify(ctx context.Context, body []byte, cardURL *url.URL) (*Result, error) {
	ks, jwksURL, err := v.trust.keys(ctx, v, cardURL, false)
	if err != nil {
		return nil, err
	}
	res, unknownKey, err := v.judge(body, ks)
	if err != nil && unknownKey && jwksURL != "" {
		// A key the JWKS did not have when it was read: read it again
		// (at most once per minInterval) and look once more.
		if ks2, _, kerr := v.trust.keys(ctx, v, cardURL, true); kerr == nil && ks2 != ks {
			res, _, err = v.judge(body, ks2)
		}
	}
	return res, err
}

// judge checks body against ks; unknownKey reports that some signature
// named a kid ks lacks.
func (v *Verifier) judge(body []byte, ks *trust.Keys) (res *Result, unknownKey bool, err error) {
	head, err := card.Decode(body, card.Strict)
	if err != nil {
		return nil, false, sign.Errorf(sign.ErrMalformed, "card refused: %v", err)
	}
	verdict := trust.Judge(head, ks, v.policy)
	if verdict.Err != nil {
		return nil, false, verdict.Err
	}
	var best *sign.Result
	vErr := &VerificationError{}
	for i := range verdict.Results {
		r := &verdict.Results[i]
		if r.Verified {
			if best == nil || (best.Covers != sign.Strict && r.Covers == sign.Strict) {
				best = r
			}
			continue
		}
		unknownKey = unknownKey || errors.Is(r.Err, sign.ErrUnknownKey)
		vErr.Signatures = append(vErr.Signatures, &SignatureError{Index: r.Index, KeyID: r.KID, Algorithm: r.Alg, Err: r.Err})
	}
	if !verdict.Verified {
		for _, p := range verdict.Problems {
			vErr.Policy = append(vErr.Policy, sign.Errorf(ErrPolicy, "%s", p))
		}
		if verdict.Outcome == trust.OutcomeNotAllVerified {
			vErr.Policy = append(vErr.Policy, sign.Errorf(ErrPolicy, "not every signature verifies, and RequireAllSignatures demands it"))
		}
		return nil, unknownKey, vErr
	}
	res = &Result{Card: best.Payload, Raw: body, KeyID: best.KID, Algorithm: best.Alg, Index: best.Index, Covers: string(best.Covers), Uncovered: best.Uncovered, JWKS: ks.From}
	// The top-level members of the covered form: the card's, less those a
	// projection signature leaves out.
	for name := range head {
		if !slices.Contains(best.Uncovered, name) {
			res.Covered = append(res.Covered, name)
		}
	}
	slices.Sort(res.Covered)
	return res, false, nil
}
