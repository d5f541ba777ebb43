// Package trust decides whether an A2A Agent Card is genuine: it reads a
// trusted JWKS strictly (fetching it when it is a URL), checks a card's
// signatures against it with the policies `agentcards verify` applies (a
// jku is a hint, never a trust root; a projection signature vouches only
// for what it covers), and says which card and JWKS URLs a URL the user
// gave means (the keys of the origin named, never of a redirect's). It is the
// one implementation behind both `agentcards verify` and the public
// package, and knows nothing of manifests, sites or private keys.
package trust

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
)

// Keys is a trusted key set and where it came from.
type Keys struct {
	Set *sign.KeySet
	// URL is the JWKS URL when the keys were fetched; a signature whose
	// jku names anything else is refused.
	URL string
	// From says where the keys came from (a URL or a file), for reports.
	From string
	// Problems are the keys refused, reported with each card.
	Problems []string
	// Leaked are the problems that are published private keys: a JWKS
	// publishing one fails the whole run.
	Leaked []string
}

// MaxKeys is the most keys a trusted JWKS may hold; a JWKS with more is
// refused rather than searched.
const MaxKeys = 256

// NewKeys parses a JWKS read from from (the JWKS URL when it was fetched
// from one, which is then held against every signature's jku).
func NewKeys(data []byte, from, jwksURL string) (*Keys, error) {
	set, problems, leaked, err := ParseJWKS(data)
	if err != nil {
		return nil, err
	}
	ks := &Keys{Set: set, URL: jwksURL, From: from, Problems: problems}
	for _, p := range leaked {
		ks.Leaked = append(ks.Leaked, fmt.Sprintf("the trusted JWKS %s publishes a private key: %s", from, p))
	}
	return ks, nil
}

// FetchKeys fetches and parses the JWKS at jwksURL, held to the network
// rule of a document fetched from from (nil: the caller's own choice).
func FetchKeys(ctx context.Context, client *fetch.Client, jwksURL string, from *fetch.Network) (*Keys, error) {
	body, _, _, err := client.GetWithin(ctx, jwksURL, from)
	if err != nil {
		return nil, err
	}
	ks, err := NewKeys(body, jwksURL, jwksURL)
	if err != nil {
		return nil, fmt.Errorf("trusted JWKS %s: %w", jwksURL, err)
	}
	return ks, nil
}

// ErrJWKS is a trusted JWKS that cannot be read as one.
var ErrJWKS = errors.New("not a usable JWKS")

// ParseJWKS reads a JWKS as a verifier must: strictly (card.Decode: no
// duplicate or case-variant member names), with at most MaxKeys keys. Keys
// with private members, without alg, or with an alg that does not fit them
// are refused (and reported in problems); so are keys that share a kid.
// The others are trusted. kid need not be a thumbprint.
// leaked holds the problems that are published private keys.
func ParseJWKS(data []byte) (set *sign.KeySet, problems, leaked []string, err error) {
	doc, err := card.Decode(data, card.Strict)
	if err != nil {
		return nil, nil, nil, sign.Errorf(ErrJWKS, "not a JWKS: %v", err)
	}
	list, ok := doc["keys"].([]any)
	if !ok {
		return nil, nil, nil, sign.Errorf(ErrJWKS, `not a JWKS: no "keys" array`)
	}
	if len(list) > MaxKeys {
		return nil, nil, nil, sign.Errorf(ErrJWKS, "%d keys: more than the %d a verifier searches; refused", len(list), MaxKeys)
	}
	set = &sign.KeySet{}
	// A kid that names two keys names neither: verifiers that pick the
	// first and those that pick the last would disagree.
	kids := map[string]int{}
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			if kid, ok := m["kid"].(string); ok {
				kids[kid]++
			}
		}
	}
	for i, v := range list {
		members, ok := v.(map[string]any)
		if !ok {
			problems = append(problems, fmt.Sprintf("key %d: not a JSON object", i))
			continue
		}
		kid, _ := members["kid"].(string)
		name := fmt.Sprintf("key %d (kid %q)", i, kid)
		if priv := secret.PrivateMembers(members); len(priv) > 0 {
			p := fmt.Sprintf("%s carries private key material (%s): refused; the publisher must rotate this key", name, strings.Join(priv, ", "))
			problems, leaked = append(problems, p), append(leaked, p)
			continue
		}
		raw, err := json.Marshal(members)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		switch {
		case k.KeyID == "":
			problems = append(problems, name+": no kid: refused")
		case k.Algorithm == "":
			problems = append(problems, name+": no alg, so it cannot be checked against a signature's alg: refused")
		case k.Use != "" && k.Use != "sig":
			problems = append(problems, fmt.Sprintf("%s: use %q: refused", name, k.Use))
		case kids[k.KeyID] > 1:
			problems = append(problems, name+": another key in the JWKS has the same kid: both refused")
		default:
			set.Keys = append(set.Keys, k)
		}
	}
	return set, problems, leaked, nil
}

// Cache holds the trusted key sets one run has read, by a key the caller
// chooses (the source, and the network rule it was fetched under): each is
// read once, failures too, and readings of different sources run at once.
type Cache struct {
	mu   sync.Mutex
	sets map[string]*reading
}

// reading is one reading of a key set: done is closed once ks or err is
// set.
type reading struct {
	done chan struct{}
	ks   *Keys
	err  error
}

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{sets: map[string]*reading{}} }

// Get returns the key set cached under key, reading it with read the first
// time; concurrent callers wait for that one reading, without holding up
// readings under other keys.
func (c *Cache) Get(ctx context.Context, key string, read func() (*Keys, error)) (*Keys, error) {
	c.mu.Lock()
	r, ok := c.sets[key]
	if !ok {
		r = &reading{done: make(chan struct{})}
		c.sets[key] = r
	}
	c.mu.Unlock()
	if !ok {
		r.ks, r.err = read()
		close(r.done)
	}
	select {
	case <-r.done:
		return r.ks, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// CardURL is the card a URL the user gave names: an origin alone (no path,
// or "/") means its /.well-known/agent-card.json. The fragment is dropped.
func CardURL(u *url.URL) *url.URL {
	c := &url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	if c.Path == "" || c.Path == "/" {
		c.Path, c.RawPath = layout.RootCardPath, ""
	}
	return c
}

// OriginJWKS is the JWKS URL of u's origin: the keys a card fetched from
// u is checked against unless the caller names others. It is the origin
// the user named, never wherever a redirect led: a redirect to another
// site must not lend it trust.
func OriginJWKS(u *url.URL) string {
	return layout.URL(u.Scheme+"://"+u.Host, layout.JWKS)
}
