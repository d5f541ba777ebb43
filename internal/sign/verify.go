package sign

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/card"
)

// VerifyAlgorithms is the default allow-list: never "none", never HMAC.
// "Ed25519" is RFC 9864's name for what "EdDSA" means here.
var VerifyAlgorithms = []string{EdDSA, "Ed25519", ES256, string(jose.ES384), RS256, PS256}

// Canonicalization names what a signature was found to cover.
type Canonicalization string

const (
	// Strict is RFC 8785 over the whole card without signatures.
	Strict Canonicalization = "strict"
	// SDKProjection is RFC 8785 over the card with empty values removed,
	// as the A2A SDKs compute it; the removed fields are not covered.
	SDKProjection Canonicalization = "sdk-projection"
)

// Result is the outcome for one signature on a card.
type Result struct {
	Index     int
	KID       string
	Alg       string
	JKU       string
	Verified  bool
	Covers    Canonicalization // when Verified
	Uncovered []string         // fields an SDKProjection signature does not cover
	Err       error            // why not, when not Verified
}

// Verify checks every signature on a card against trusted keys, allowing
// only algs. It returns one Result per signature; err is set only when the
// card cannot be read at all.
func Verify(cardJSON []byte, trusted *KeySet, algs []string) ([]Result, error) {
	var doc struct {
		Signatures []card.Signature `json:"signatures"`
	}
	if err := json.Unmarshal(cardJSON, &doc); err != nil {
		return nil, fmt.Errorf("card is not JSON: %w", err)
	}
	if len(doc.Signatures) == 0 {
		return nil, errors.New("card has no signatures")
	}
	// Refuse duplicate keys at every level (encoding/json keeps the last,
	// other parsers the first: the card would not be one card).
	if _, err := Canonicalize(cardJSON); err != nil {
		return nil, fmt.Errorf("card is not strict JSON: %w", err)
	}
	unsigned, err := card.Unsigned(cardJSON)
	if err != nil {
		return nil, err
	}
	strict, err := Canonicalize(unsigned)
	if err != nil {
		return nil, err
	}
	projectedDoc, uncovered, err := card.SDKProjection(unsigned)
	if err != nil {
		return nil, err
	}
	var projected []byte
	if len(uncovered) > 0 {
		if projected, err = Canonicalize(projectedDoc); err != nil {
			return nil, err
		}
	}
	results := make([]Result, len(doc.Signatures))
	for i, sig := range doc.Signatures {
		r := &results[i]
		r.Index = i
		var key *jose.JSONWebKey
		var marked bool
		key, marked, r.Err = checkHeader(sig, trusted, algs, r)
		if r.Err != nil {
			continue
		}
		if marked {
			// Signed over the SDK projection: it never covers the whole card.
			payload := strict
			if projected != nil {
				payload = projected
			}
			if r.Err = verifyOne(sig, payload, key, r.Alg); r.Err == nil {
				r.Verified, r.Covers, r.Uncovered = true, SDKProjection, uncovered
			}
			continue
		}
		if r.Err = verifyOne(sig, strict, key, r.Alg); r.Err == nil {
			r.Verified, r.Covers = true, Strict
			continue
		}
		if projected != nil && verifyOne(sig, projected, key, r.Alg) == nil {
			r.Verified, r.Covers, r.Uncovered, r.Err = true, SDKProjection, uncovered, nil
		}
	}
	return results, nil
}

// checkHeader decodes the protected header, fills r, and returns the trusted
// key the signature names; projection reports a signature marked with
// ProjectionHeader.
func checkHeader(sig card.Signature, trusted *KeySet, algs []string, r *Result) (key *jose.JSONWebKey, projection bool, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(sig.Protected)
	if err != nil {
		return nil, false, fmt.Errorf("protected header is not base64url: %v", err)
	}
	var h struct {
		Alg     string `json:"alg"`
		KID     string `json:"kid"`
		JKU     string `json:"jku"`
		Typ     string `json:"typ"`
		Payload string `json:"agentcards:payload"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return nil, false, fmt.Errorf("protected header is not JSON: %v", err)
	}
	projection = h.Payload == ProjectionValue
	r.KID, r.Alg, r.JKU = h.KID, h.Alg, h.JKU
	if _, ok := sig.Header["alg"]; ok {
		return nil, false, errors.New("alg must be in the protected header only")
	}
	if !slices.Contains(algs, h.Alg) {
		return nil, false, fmt.Errorf("alg %q is not allowed (allowed: %v)", h.Alg, algs)
	}
	if h.KID == "" {
		return nil, false, errors.New("protected header has no kid")
	}
	key = trusted.Find(h.KID)
	if key == nil {
		return nil, false, fmt.Errorf("kid %q is not among the trusted keys", h.KID)
	}
	if !key.IsPublic() {
		return nil, false, fmt.Errorf("trusted key %q carries private material; refusing it", h.KID)
	}
	want := key.Algorithm
	if want == EdDSA && h.Alg == "Ed25519" {
		want = "Ed25519"
	}
	if key.Algorithm == "" || want != h.Alg {
		return nil, false, fmt.Errorf("header alg %q does not match the key's alg %q", h.Alg, key.Algorithm)
	}
	return key, projection, nil
}

// verifyOne checks one detached signature over payload.
func verifyOne(sig card.Signature, payload []byte, key *jose.JSONWebKey, alg string) error {
	if alg == "Ed25519" {
		// go-jose knows only the polymorphic name; the signing input is the same.
		pub, ok := key.Key.(ed25519.PublicKey)
		if !ok {
			return errors.New("Ed25519 signature needs an Ed25519 key")
		}
		s, err := base64.RawURLEncoding.DecodeString(sig.Signature)
		if err != nil {
			return err
		}
		input := sig.Protected + "." + base64.RawURLEncoding.EncodeToString(payload)
		if !ed25519.Verify(pub, []byte(input), s) {
			return errors.New("signature does not verify")
		}
		return nil
	}
	obj, err := jose.ParseDetached(sig.Protected+".."+sig.Signature, payload, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(alg)})
	if err != nil {
		return err
	}
	if _, err := obj.Verify(key.Key); err != nil {
		return errors.New("signature does not verify")
	}
	return nil
}
