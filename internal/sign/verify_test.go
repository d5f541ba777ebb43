package sign

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
)

// TestCritRefusedOnEveryAlgPath: a protected header with crit refuses the
// signature under both names of Ed25519 (go-jose checks crit for "EdDSA"
// only; "Ed25519" is verified by hand) and on the other algorithms, and so
// does an unencoded payload or a malformed header.
func TestCritRefusedOnEveryAlgPath(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(nil)
	s, err := NewSigner(priv, EdDSA, "")
	if err != nil {
		t.Fatal(err)
	}
	ks := &KeySet{}
	ks.Add(s.Public)
	sign := func(in []byte) []byte { return ed25519.Sign(priv, in) }
	for _, alg := range []string{"EdDSA", "Ed25519"} {
		for name, tc := range map[string]struct {
			header map[string]any
			want   string // "" means verified
		}{
			"unknown crit":       {map[string]any{"crit": []string{"exp"}, "exp": 1}, `crit names exp, which this verifier does not understand`},
			"crit b64":           {map[string]any{"crit": []string{"b64"}, "b64": false}, `crit names b64`},
			"crit marker":        {map[string]any{"crit": []string{ProjectionHeader}, ProjectionHeader: ProjectionValue}, "crit names agentcards:payload"},
			"empty crit":         {map[string]any{"crit": []string{}}, "non-empty list"},
			"crit not a list":    {map[string]any{"crit": "exp"}, "non-empty list"},
			"b64 false":          {map[string]any{"b64": false}, "unencoded payload"},
			"kid not a string":   {map[string]any{"kid": 5}, `"kid" is not a string`},
			"case-variant alg":   {map[string]any{"ALG": "none"}, "differ only in letter case"},
			"unknown payload":    {map[string]any{ProjectionHeader: "whole-card"}, "does not know"},
			"no crit (baseline)": {map[string]any{}, ""},
		} {
			t.Run(alg+"/"+name, func(t *testing.T) {
				h := map[string]any{"alg": alg, "kid": s.KID, "typ": "JOSE"}
				for k, v := range tc.header {
					h[k] = v
				}
				res, err := Verify(forge(t, sampleCard, h, sign), ks, VerifyAlgorithms)
				if err != nil {
					t.Fatal(err)
				}
				if tc.want == "" {
					if !res[0].Verified {
						t.Fatalf("refused: %v", res[0].Err)
					}
					return
				}
				if res[0].Verified || !strings.Contains(fmt.Sprint(res[0].Err), tc.want) {
					t.Errorf("got verified=%v err=%v, want refused with %q", res[0].Verified, res[0].Err, tc.want)
				}
			})
		}
	}
	// The same on an algorithm go-jose verifies.
	es, esKeys := testSigner(t, ES256)
	signed := signCard(t, sampleCard, es)
	var m map[string]any
	json.Unmarshal(signed, &m)
	sig := m["signatures"].([]any)[0].(map[string]any)
	raw, _ := base64.RawURLEncoding.DecodeString(sig["protected"].(string))
	var h map[string]any
	json.Unmarshal(raw, &h)
	h["crit"], h["exp"] = []string{"exp"}, 1
	hb, _ := json.Marshal(h)
	sig["protected"] = base64.RawURLEncoding.EncodeToString(hb)
	signed, _ = json.Marshal(m)
	res, _ := Verify(signed, esKeys, VerifyAlgorithms)
	if res[0].Verified || !strings.Contains(fmt.Sprint(res[0].Err), `crit names exp`) {
		t.Errorf("ES256 with unknown crit: got %+v", res[0])
	}
}

// TestSignatureListRefused: more than MaxSignatures, signatures that are not
// JWS objects, and members beside protected/signature/header refuse the
// card before any key is tried.
func TestSignatureListRefused(t *testing.T) {
	s, ks := testSigner(t, EdDSA)
	signed := signCard(t, sampleCard, s)
	var m map[string]any
	json.Unmarshal(signed, &m)
	one := m["signatures"].([]any)[0]
	for name, tc := range map[string]struct {
		sigs any
		want string
	}{
		"too many": {func() []any {
			out := make([]any, MaxSignatures+1)
			for i := range out {
				out[i] = one
			}
			return out
		}(), "more than the 16"},
		"not an array":   {one, "not an array"},
		"empty":          {[]any{}, "no signatures"},
		"not an object":  {[]any{"x"}, "signatures[0] is not an object"},
		"extra member":   {[]any{map[string]any{"protected": "e30", "signature": "AA", "url": "https://evil.example"}}, `member "url"`},
		"header not obj": {[]any{map[string]any{"protected": "e30", "signature": "AA", "header": "x"}}, "header is not an object"},
	} {
		t.Run(name, func(t *testing.T) {
			m["signatures"] = tc.sigs
			b, _ := json.Marshal(m)
			if _, err := Verify(b, ks, VerifyAlgorithms); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	// Upper-case SIGNATURES is not the signatures member (Go would read it
	// as one): the card has no signatures and a member nothing covers.
	m["SIGNATURES"] = []any{one}
	delete(m, "signatures")
	b, _ := json.Marshal(m)
	if _, err := Verify(b, ks, VerifyAlgorithms); err == nil || !strings.Contains(err.Error(), "no signatures") {
		t.Errorf("SIGNATURES: got %v", err)
	}
}

// FuzzVerify checks the promise of Verify on arbitrary changes to a signed
// card: whenever it reports a signature as verified, the card's strict form
// (for Strict) or its SDK projection (for SDKProjection, with every left-out
// member empty) is exactly what was signed. No input may make it vouch for
// anything else, and none may make it panic.
func FuzzVerify(f *testing.F) {
	s, ks := testSigner(f, EdDSA)
	const scoped = `{"name":"n","description":"d","version":"1","supportedInterfaces":[{"url":"https://a.example.com","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{"streaming":false,"pushNotifications":false,"extendedAgentCard":false},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header","name":"X-Key"}}},"securityRequirements":[{"schemes":{"k":{"list":[]}}}],"skills":[{"id":"s","name":"s","description":"d","tags":["t"]}]}`
	signed := map[string]bool{}
	for _, doc := range []string{sampleCard, scoped} {
		strict, err := Canonicalize([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		signed[string(strict)] = true
		projected, omitted, err := card.SDKProjection([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		sigs := []card.Signature{}
		sig, err := s.Sign([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		sigs = append(sigs, sig)
		if len(omitted) > 0 {
			p, _ := Canonicalize(projected)
			signed[string(p)] = true
			psig, err := s.SignProjection(projected)
			if err != nil {
				f.Fatal(err)
			}
			sigs = append(sigs, psig)
		}
		var m map[string]any
		json.Unmarshal([]byte(doc), &m)
		m["signatures"] = sigs
		b, _ := json.MarshalIndent(m, "", " ")
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Verify(data, ks, VerifyAlgorithms)
		if err != nil {
			return
		}
		doc, err := card.Decode(data, card.Strict)
		if err != nil {
			t.Fatalf("Verify accepted a card the strict reader refuses: %v", err)
		}
		delete(doc, "signatures")
		unsigned, _ := json.Marshal(doc)
		for _, r := range res {
			if !r.Verified {
				continue
			}
			switch r.Covers {
			case Strict:
				c, err := Canonicalize(unsigned)
				if err != nil || !signed[string(c)] {
					t.Fatalf("signature %d verified as strict over content that was never signed", r.Index)
				}
			case SDKProjection:
				p, omitted, err := card.SDKProjection(unsigned)
				if err != nil {
					t.Fatal(err)
				}
				c, _ := Canonicalize(p)
				if !signed[string(c)] {
					t.Fatalf("signature %d verified over a projection that was never signed", r.Index)
				}
				// What it leaves out is empty, or the same key's signature
				// over the whole card (checked above) covers it.
				whole := false
				for _, o := range res {
					whole = whole || o.Verified && o.Covers == Strict && o.KID == r.KID
				}
				for _, o := range omitted {
					if !o.Empty && !whole {
						t.Fatalf("signature %d verified while %s, which it does not cover, is not empty", r.Index, o.Path)
					}
				}
			}
		}
	})
}

// TestUnprotectedHeaderRefused: what names or fetches the key (kid, jku,
// jwk, x5u, x5c, typ...) in the unsigned header, or a name the protected
// header has too (RFC 7515 section 7.2.1), refuses the signature; a
// member of its own does not.
func TestUnprotectedHeaderRefused(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(nil)
	s, err := NewSigner(priv, EdDSA, "")
	if err != nil {
		t.Fatal(err)
	}
	ks := &KeySet{}
	ks.Add(s.Public)
	protected := map[string]any{"alg": "EdDSA", "kid": s.KID, "typ": "JOSE", "x-note": "signed"}
	signed := forge(t, sampleCard, protected, func(in []byte) []byte { return ed25519.Sign(priv, in) })
	for name, tc := range map[string]struct {
		header map[string]any
		want   string // "" means verified
	}{
		"jku":        {map[string]any{"jku": "https://evil.test/jwks.json"}, "jku must be in the protected header only"},
		"kid":        {map[string]any{"kid": "other-kid"}, "kid must be in the protected header only"},
		"jwk":        {map[string]any{"jwk": map[string]any{"kty": "OKP"}}, "jwk must be in the protected header only"},
		"x5u":        {map[string]any{"x5u": "https://evil.test/cert"}, "x5u must be in the protected header only"},
		"x5c":        {map[string]any{"x5c": []any{"MIIB"}}, "x5c must be in the protected header only"},
		"typ":        {map[string]any{"typ": "x"}, "typ must be in the protected header only"},
		"overlap":    {map[string]any{"x-note": "unsigned"}, "must be disjoint"},
		"own (kept)": {map[string]any{"timestamp": "2026-11-26T00:00:00Z"}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(signed, &m); err != nil {
				t.Fatal(err)
			}
			m["signatures"].([]any)[0].(map[string]any)["header"] = tc.header
			card, _ := json.Marshal(m)
			res, err := Verify(card, ks, VerifyAlgorithms)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if !res[0].Verified {
					t.Fatalf("refused: %v", res[0].Err)
				}
				return
			}
			if res[0].Verified || !strings.Contains(fmt.Sprint(res[0].Err), tc.want) {
				t.Errorf("verified=%v err=%v, want refused with %q", res[0].Verified, res[0].Err, tc.want)
			}
		})
	}
}
