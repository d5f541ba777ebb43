package agentcards

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/trust"
)

// Trust is where a Verifier's keys come from: [TrustOrigin],
// [TrustJWKSURL], [TrustJWKS] or [TrustKeys]. A card's jku is never one.
type Trust interface {
	// keys returns the trusted keys for a card fetched from cardURL (nil:
	// given by the caller), and the JWKS URL they were fetched from ("":
	// pinned). refresh asks for a new reading of that JWKS.
	keys(ctx context.Context, v *Verifier, cardURL *url.URL, refresh bool) (ks *trust.Keys, jwksURL string, err error)
}

// TrustOrigin trusts the JWKS of the origin a card is fetched from
// (https://HOST/.well-known/jwks.json for a card anywhere on HOST), as
// `agentcards verify URL` does. It serves [Verifier.Fetch] only.
func TrustOrigin() Trust { return originTrust{} }

type originTrust struct{}

func (originTrust) keys(ctx context.Context, v *Verifier, cardURL *url.URL, refresh bool) (*trust.Keys, string, error) {
	if cardURL == nil {
		return nil, "", errors.New("agentcards: TrustOrigin takes the keys of the origin a card is fetched from: use Fetch, or trust a JWKS")
	}
	jwksURL := trust.OriginJWKS(cardURL)
	ks, err := v.jwksAt(ctx, jwksURL, refresh)
	return ks, jwksURL, err
}

// TrustJWKSURL trusts the JWKS at jwksURL, fetched when first needed and
// again as [WithRefresh] says. A signature whose jku names another URL is
// refused.
func TrustJWKSURL(jwksURL string) Trust { return jwksURLTrust(jwksURL) }

type jwksURLTrust string

func (t jwksURLTrust) keys(ctx context.Context, v *Verifier, _ *url.URL, refresh bool) (*trust.Keys, string, error) {
	ks, err := v.jwksAt(ctx, string(t), refresh)
	return ks, string(t), err
}

// TrustJWKS trusts the keys of a JWKS document the caller holds (pinned).
// It is read strictly: keys without kid or alg, keys that share a kid and
// keys of the wrong use are left out, and a JWKS that publishes a private
// key, or has no usable key, is refused.
func TrustJWKS(jwks []byte) (Trust, error) {
	ks, err := trust.NewKeys(jwks, "pinned", "")
	if err != nil {
		return nil, escape(fmt.Errorf("agentcards: %w", err))
	}
	if err := usable(ks); err != nil {
		return nil, escape(err)
	}
	return pinnedTrust{ks}, nil
}

// Key is a public key to trust: its kid, the JWS algorithm it signs with
// (for an Ed25519 or ECDSA key "" picks the one that fits; an RSA key
// needs "RS256" or "PS256"), and the key itself (ed25519.PublicKey,
// *ecdsa.PublicKey or *rsa.PublicKey). An empty ID means the key's RFC 7638
// thumbprint, the kid agentcards gives its keys.
type Key struct {
	ID        string
	Algorithm string
	Public    crypto.PublicKey
}

// TrustKeys trusts the given public keys (pinned).
func TrustKeys(keys ...Key) (Trust, error) {
	ks := &trust.Keys{Set: &sign.KeySet{}, From: "pinned"}
	for i, k := range keys {
		alg, err := keyAlgorithm(k)
		if err != nil {
			return nil, fmt.Errorf("agentcards: key %d: %w", i, err)
		}
		id := k.ID
		if id == "" {
			if id, err = sign.Thumbprint(k.Public); err != nil {
				return nil, fmt.Errorf("agentcards: key %d: %w", i, err)
			}
		}
		if ks.Set.Find(id) != nil {
			return nil, fmt.Errorf("agentcards: key %d: kid %q names two keys", i, id)
		}
		ks.Set.Add(jose.JSONWebKey{Key: k.Public, KeyID: id, Algorithm: alg, Use: "sig"})
	}
	if err := usable(ks); err != nil {
		return nil, err
	}
	return pinnedTrust{ks}, nil
}

// keyAlgorithm is the alg k signs with, checked against its type.
func keyAlgorithm(k Key) (string, error) {
	alg := k.Algorithm
	switch pub := k.Public.(type) {
	case ed25519.PublicKey:
		if alg == "" || alg == "Ed25519" {
			alg = sign.EdDSA
		}
		if alg == sign.EdDSA && len(pub) == ed25519.PublicKeySize {
			return alg, nil
		}
	case *ecdsa.PublicKey:
		want := map[elliptic.Curve]string{elliptic.P256(): sign.ES256, elliptic.P384(): string(jose.ES384)}[pub.Curve]
		if alg == "" {
			alg = want
		}
		if alg != "" && alg == want {
			return alg, nil
		}
	case *rsa.PublicKey:
		if (alg == sign.RS256 || alg == sign.PS256) && pub.N.BitLen() >= 2048 {
			return alg, nil
		}
	default:
		return "", fmt.Errorf("a %T is not a public key agentcards verifies with", k.Public)
	}
	return "", fmt.Errorf("algorithm %q does not fit a %T (an RSA key needs RS256 or PS256 and 2048 bits or more)", k.Algorithm, k.Public)
}

type pinnedTrust struct{ ks *trust.Keys }

func (t pinnedTrust) keys(context.Context, *Verifier, *url.URL, bool) (*trust.Keys, string, error) {
	return t.ks, "", nil
}

// usable refuses a key set that publishes a private key or has no key.
func usable(ks *trust.Keys) error {
	if len(ks.Leaked) > 0 {
		return sign.Errorf(ErrJWKS, "agentcards: %s", strings.Join(ks.Leaked, "; "))
	}
	if len(ks.Set.Keys) == 0 {
		msg := "agentcards: the trusted JWKS " + ks.From + " has no usable key"
		if len(ks.Problems) > 0 {
			msg += ": " + strings.Join(ks.Problems, "; ")
		}
		return sign.Errorf(ErrJWKS, "%s", msg)
	}
	return nil
}

// jwksEntry is the reading of one JWKS URL; sem lets one fetch of it run
// at a time, and state is what the last one found.
type jwksEntry struct {
	sem   chan struct{}
	state atomic.Pointer[jwksState]
}

// jwksState is a reading of a JWKS: keys when it gave some (read at
// fetched), err when it failed, tried when the JWKS was last asked for.
type jwksState struct {
	keys           *trust.Keys
	err            error
	fetched, tried time.Time
}

// jwksAt returns the keys of the JWKS at jwksURL: the reading kept, or a
// new one when it is older than maxAge, when it failed and minInterval has
// passed, or when refresh asks and minInterval has passed. Callers wait
// for a fetch under way rather than start another; a fresh reading is
// returned without waiting.
func (v *Verifier) jwksAt(ctx context.Context, jwksURL string, refresh bool) (*trust.Keys, error) {
	e := v.entry(jwksURL)
	if st := e.state.Load(); st != nil && st.keys != nil && !refresh && time.Since(st.fetched) < v.maxAge {
		return st.keys, nil
	}
	select {
	case e.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-e.sem }()
	st := e.state.Load()
	if st == nil {
		st = &jwksState{}
	}
	keysFresh := st.keys != nil && time.Since(st.fetched) < v.maxAge
	switch {
	case keysFresh && !refresh:
		return st.keys, nil // read while this caller waited
	case time.Since(st.tried) < v.minInterval && (keysFresh || st.err != nil):
		return st.keys, st.err // asked for too recently: the last answer
	}
	next := &jwksState{tried: time.Now()}
	ks, err := trust.FetchKeys(ctx, &v.client, jwksURL, nil)
	if err == nil {
		err = usable(ks)
	}
	switch {
	case err == nil:
		next.keys, next.fetched = ks, next.tried
	case refresh && keysFresh:
		next.keys, next.fetched = st.keys, st.fetched // the reading kept still holds
	default:
		next.err = fetchError(err, nil)
	}
	e.state.Store(next)
	return next.keys, next.err
}

// entry is the entry of jwksURL, made when there is none. Past
// maxJWKSKept entries, the expired ones are dropped, at most once each
// time the map doubles.
func (v *Verifier) entry(jwksURL string) *jwksEntry {
	v.mu.Lock()
	defer v.mu.Unlock()
	e, ok := v.jwks[jwksURL]
	if !ok {
		if len(v.jwks) >= max(maxJWKSKept, v.sweepAt) {
			v.forgetStale()
			v.sweepAt = 2 * len(v.jwks)
		}
		e = &jwksEntry{sem: make(chan struct{}, 1)}
		v.jwks[jwksURL] = e
	}
	return e
}

// maxJWKSKept is how many JWKS readings a Verifier keeps before it drops
// the expired ones (a client of many origins would otherwise keep them
// all).
const maxJWKSKept = 1024

// forgetStale drops the readings older than maxAge that no caller is
// using; v.mu is held.
func (v *Verifier) forgetStale() {
	for u, e := range v.jwks {
		select {
		case e.sem <- struct{}{}:
			if st := e.state.Load(); st == nil || time.Since(st.tried) >= v.maxAge {
				delete(v.jwks, u)
			}
			<-e.sem
		default: // in use
		}
	}
}
