package trust

import (
	"errors"
	"net/url"
	"strings"

	"github.com/agentcards/agentcards/internal/sign"
)

// Policy is what a caller demands of a card beyond one verified signature.
type Policy struct {
	// All demands that every signature verify, not just one.
	All bool
	// Strict refuses cards whose only verified signatures cover the SDK
	// projection rather than the whole card.
	Strict bool
	// Algorithms is the allow-list (default sign.VerifyAlgorithms).
	Algorithms []string
	// Payloads sets the Payload of every verified Result: the bytes its
	// signature covers.
	Payloads bool
}

// Outcomes of a card.
const (
	OutcomeVerified       = "verified"                    // a strict signature verified
	OutcomeSDKProjection  = "verified-sdk-projection"     // only over the SDKs' projection
	OutcomeNotVerified    = "not-verified"                // no trusted signature verified
	OutcomeNotAllVerified = "not-all-signatures-verified" // Policy.All, and one failed
)

// ErrCrossOrigin is a signature whose jku names a JWKS other than the
// trusted one: a jku is a hint, never a trust root.
var ErrCrossOrigin = errors.New("jku is not the trusted JWKS")

// Verdict is what Judge found of one card.
type Verdict struct {
	// Results has one entry per signature, in the card's order, after
	// the jku and projection rules.
	Results  []sign.Result
	Outcome  string
	Verified bool
	// Problems say why the card could not be checked at all, or what the
	// policy refused.
	Problems []string
	// Err is why the card could not be checked at all (sign.ErrUnsigned,
	// sign.ErrMalformed), when it could not.
	Err error
	// DevelopmentKey says a signature that verified was made by an
	// agentcards development key: a local preview, never a published site.
	DevelopmentKey bool
}

// Judge checks the signatures of a card read with card.Decode and
// card.Strict (it removes the signatures member from head) against ks,
// and applies p.
func Judge(head map[string]any, ks *Keys, p Policy) Verdict {
	v := Verdict{Outcome: OutcomeNotVerified}
	algs := p.Algorithms
	if len(algs) == 0 {
		algs = sign.VerifyAlgorithms
	}
	verify := sign.VerifyDecoded
	if p.Payloads {
		verify = sign.VerifyDecodedPayloads
	}
	results, err := verify(head, ks.Set, algs)
	if err != nil {
		v.Err = err
		v.Problems = append(v.Problems, err.Error())
		return v
	}
	for i := range results {
		r := &results[i]
		if r.Verified && ks.URL != "" && r.JKU != "" && !SameURL(r.JKU, ks.URL) {
			r.Verified = false
			r.Err = sign.Errorf(ErrCrossOrigin, "jku %q is not the trusted JWKS %s: refused (a jku is a hint, never a trust root)", r.JKU, ks.URL)
		}
	}
	v.Results = results
	strict, verified := 0, 0
	for _, r := range results {
		if !r.Verified {
			continue
		}
		verified++
		if r.Covers == sign.Strict {
			strict++
		}
		if IsDevKey(ks.Set, r.KID) {
			v.DevelopmentKey = true
		}
	}
	switch {
	case p.All && verified < len(results):
		v.Outcome = OutcomeNotAllVerified
	case strict > 0:
		v.Outcome, v.Verified = OutcomeVerified, true
	case verified > 0 && p.Strict:
		v.Outcome = OutcomeSDKProjection
		v.Problems = append(v.Problems, "only the A2A SDKs' projection of the card is signed, and a signature over the whole card is demanded (-strict, RequireWholeCard)")
	case verified > 0:
		v.Outcome, v.Verified = OutcomeSDKProjection, true
	}
	return v
}

// SameURL compares two URLs after normalizing scheme and host case and
// default ports.
func SameURL(a, b string) bool {
	norm := func(s string) string {
		u, err := url.Parse(s)
		if err != nil {
			return s
		}
		u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
		if (u.Scheme == "https" && u.Port() == "443") || (u.Scheme == "http" && u.Port() == "80") {
			u.Host = u.Hostname()
		}
		return u.String()
	}
	return norm(a) == norm(b)
}

// IsDevKey reports whether kid names an agentcards development key: the
// kid is sign.DevKIDPrefix and the thumbprint of the key it names (any
// other key may be called dev-something).
func IsDevKey(keys *sign.KeySet, kid string) bool {
	if !sign.IsDevKID(kid) {
		return false
	}
	k := keys.Find(kid)
	if k == nil {
		return false
	}
	tp, err := sign.Thumbprint(k.Key)
	return err == nil && sign.DevKIDPrefix+tp == kid
}
