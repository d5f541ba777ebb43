package sign

import (
	"bytes"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/card"
)

// TestRFC8785Vectors runs cyberphone/json-canonicalization's test vectors
// (testdata/jcs) through the canonicalization the signer uses.
func TestRFC8785Vectors(t *testing.T) {
	inputs, err := filepath.Glob("../../testdata/jcs/input/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("../../testdata/jcs/output", filepath.Base(in)))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Canonicalize(src)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}

func TestCanonicalizeRejects(t *testing.T) {
	for _, in := range []string{"[1 2]", "{\"a\":\"\xff\"}", "{", `{"a":1,"a":2}`} {
		if out, err := Canonicalize([]byte(in)); err == nil {
			t.Errorf("Canonicalize(%q) = %q, want an error", in, out)
		}
	}
}

const sampleCard = `{
  "name": "Sample Agent ✓",
  "description": "Checks <things> & \"quotes\"",
  "version": "1.0.0",
  "provider": {"organization": "Example", "url": "https://example.com"},
  "supportedInterfaces": [{"url": "https://a.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
  "capabilities": {"streaming": true, "pushNotifications": false, "extendedAgentCard": false,
    "extensions": [{"uri": "https://example.com/ext", "required": true, "params": {"n": 5, "f": 1.5, "list": ["a", "b"], "nested": {"ok": true}}}]},
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["application/json"],
  "securitySchemes": {"oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://sso.example.com/.well-known/openid-configuration"}}},
  "securityRequirements": [{"schemes": {"oidc": {"list": ["openid"]}}}],
  "skills": [{"id": "s1", "name": "Skill", "description": "Does it", "tags": ["t1", "t2"], "examples": ["例"]}]
}`

// testSigner makes a signer with a fresh key for alg.
func testSigner(t testing.TB, alg string) (*Signer, *KeySet) {
	t.Helper()
	k, err := GenerateKey(alg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSigner(k, alg, "https://example.com/.well-known/jwks.json")
	if err != nil {
		t.Fatal(err)
	}
	ks := &KeySet{}
	ks.Add(s.Public)
	return s, ks
}

// signCard returns doc with signatures by every signer attached.
func signCard(t testing.TB, doc string, signers ...*Signer) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	var sigs []card.Signature
	for _, s := range signers {
		sig, err := s.Sign([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, sig)
	}
	m["signatures"] = sigs
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRoundTripEveryAlgorithm(t *testing.T) {
	for _, alg := range SigningAlgorithms {
		t.Run(alg, func(t *testing.T) {
			s, ks := testSigner(t, alg)
			signed := signCard(t, sampleCard, s)
			res, err := Verify(signed, ks, VerifyAlgorithms)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || !res[0].Verified || res[0].Covers != Strict {
				t.Fatalf("got %+v, want one strict verified signature", res)
			}
			if res[0].KID != s.KID || res[0].Alg != alg || res[0].JKU != "https://example.com/.well-known/jwks.json" {
				t.Errorf("header: got kid %q alg %q jku %q", res[0].KID, res[0].Alg, res[0].JKU)
			}
			hdr := protectedHeader(t, signed, 0)
			if hdr["typ"] != "JOSE" {
				t.Errorf("typ = %v, want JOSE", hdr["typ"])
			}
		})
	}
}

func protectedHeader(t *testing.T, signed []byte, i int) map[string]any {
	t.Helper()
	var c struct{ Signatures []card.Signature }
	if err := json.Unmarshal(signed, &c); err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(c.Signatures[i].Protected)
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestEd25519IsDeterministic(t *testing.T) {
	s, _ := testSigner(t, EdDSA)
	a, b := signCard(t, sampleCard, s), signCard(t, sampleCard, s)
	if !bytes.Equal(a, b) {
		t.Error("two Ed25519 signatures of the same card differ")
	}
}

func TestKeyOrderAndWhitespaceDoNotMatter(t *testing.T) {
	s, ks := testSigner(t, ES256)
	signed := signCard(t, sampleCard, s)
	// Re-encode with different key order and indentation.
	var m map[string]any
	if err := json.Unmarshal(signed, &m); err != nil {
		t.Fatal(err)
	}
	re, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := Verify(re, ks, VerifyAlgorithms); err != nil || !res[0].Verified {
		t.Fatalf("re-encoded card did not verify: %v %+v", err, res)
	}
}

// TestTamperEveryField changes each value of a signed card in turn and
// checks that no signature verifies any more.
func TestTamperEveryField(t *testing.T) {
	s, ks := testSigner(t, EdDSA)
	signed := signCard(t, sampleCard, s)
	var doc map[string]any
	if err := json.Unmarshal(signed, &doc); err != nil {
		t.Fatal(err)
	}
	paths := leafPaths("", doc)
	if len(paths) < 30 {
		t.Fatalf("only %d leaves found", len(paths))
	}
	tested := 0
	for _, p := range paths {
		if strings.HasPrefix(p, "signatures") {
			continue
		}
		for _, op := range []string{"change", "delete"} {
			var m map[string]any
			if err := json.Unmarshal(signed, &m); err != nil {
				t.Fatal(err)
			}
			if !mutate(m, splitPath(p), op) {
				continue
			}
			tampered, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(tampered, ks, VerifyAlgorithms)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				if r.Verified {
					t.Errorf("%s %s: still verifies", op, p)
				}
			}
			tested++
		}
	}
	t.Logf("%d tampered cards rejected", tested)
}

// leafPaths lists the paths of every scalar and every map key under v.
func leafPaths(prefix string, v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if prefix != "" {
				p = prefix + "/" + k
			}
			out = append(out, leafPaths(p, e)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, leafPaths(fmt.Sprintf("%s/%d", prefix, i), e)...)
		}
	default:
		out = append(out, prefix)
	}
	slices.Sort(out)
	return out
}

func splitPath(p string) []string { return strings.Split(p, "/") }

// mutate changes or deletes the value at path; it reports whether it did.
func mutate(v any, path []string, op string) bool {
	var idx int
	switch x := v.(type) {
	case map[string]any:
		k := path[0]
		if len(path) > 1 {
			return mutate(x[k], path[1:], op)
		}
		if op == "delete" {
			delete(x, k)
		} else {
			x[k] = changed(x[k])
		}
		return true
	case []any:
		if _, err := fmt.Sscan(path[0], &idx); err != nil {
			return false
		}
		if len(path) > 1 {
			return mutate(x[idx], path[1:], op)
		}
		if op == "delete" {
			return false // needs the parent to shrink the slice
		}
		x[idx] = changed(x[idx])
		return true
	}
	return false
}

func changed(v any) any {
	switch x := v.(type) {
	case string:
		return x + "x"
	case bool:
		return !x
	case float64:
		return x + 1
	}
	return "x"
}

func TestAlgorithmAllowList(t *testing.T) {
	s, ks := testSigner(t, RS256)
	signed := signCard(t, sampleCard, s)
	res, err := Verify(signed, ks, []string{EdDSA, ES256})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Verified || !strings.Contains(res[0].Err.Error(), "not allowed") {
		t.Errorf("RS256 outside the allow-list: got %+v", res[0])
	}
}

// forge builds a card signature with an arbitrary protected header.
func forge(t *testing.T, doc string, header map[string]any, sign func(input []byte) []byte) []byte {
	t.Helper()
	h, _ := json.Marshal(header)
	payload, err := Canonicalize([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	prot := base64.RawURLEncoding.EncodeToString(h)
	input := prot + "." + base64.RawURLEncoding.EncodeToString(payload)
	var m map[string]any
	json.Unmarshal([]byte(doc), &m)
	m["signatures"] = []card.Signature{{Protected: prot, Signature: base64.RawURLEncoding.EncodeToString(sign([]byte(input)))}}
	out, _ := json.Marshal(m)
	return out
}

func TestRejectsNoneAndHMAC(t *testing.T) {
	s, ks := testSigner(t, EdDSA)
	pubJSON, _ := json.Marshal(s.Public)
	cases := map[string][]byte{
		"none": forge(t, sampleCard, map[string]any{"alg": "none", "kid": s.KID}, func([]byte) []byte { return nil }),
		"HS256 with the public key as secret": forge(t, sampleCard, map[string]any{"alg": "HS256", "kid": s.KID}, func(in []byte) []byte {
			m := hmac.New(sha256.New, pubJSON)
			m.Write(in)
			return m.Sum(nil)
		}),
	}
	for name, signed := range cases {
		res, err := Verify(signed, ks, VerifyAlgorithms)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Verified {
			t.Errorf("%s: verified", name)
		}
	}
}

func TestEd25519AlgName(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(nil)
	s, err := NewSigner(priv, EdDSA, "")
	if err != nil {
		t.Fatal(err)
	}
	ks := &KeySet{}
	ks.Add(s.Public)
	signed := forge(t, sampleCard, map[string]any{"alg": "Ed25519", "kid": s.KID, "typ": "JOSE"}, func(in []byte) []byte {
		return ed25519.Sign(priv, in)
	})
	res, err := Verify(signed, ks, VerifyAlgorithms)
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].Verified {
		t.Errorf("alg Ed25519 (RFC 9864) did not verify: %v", res[0].Err)
	}
}

func TestJWKAlgMismatch(t *testing.T) {
	s, _ := testSigner(t, RS256)
	signed := signCard(t, sampleCard, s)
	wrong := s.Public
	wrong.Algorithm = PS256
	ks := &KeySet{Keys: []jose.JSONWebKey{wrong}}
	res, err := Verify(signed, ks, VerifyAlgorithms)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Verified || !strings.Contains(res[0].Err.Error(), "does not match") {
		t.Errorf("got %+v, want an alg mismatch", res[0])
	}
}

func TestUnknownAndMissingKID(t *testing.T) {
	s, _ := testSigner(t, EdDSA)
	_, other := testSigner(t, EdDSA)
	signed := signCard(t, sampleCard, s)
	res, _ := Verify(signed, other, VerifyAlgorithms)
	if res[0].Verified || !strings.Contains(res[0].Err.Error(), "not among the trusted keys") {
		t.Errorf("untrusted key: got %+v", res[0])
	}
	_, priv, _ := ed25519.GenerateKey(nil)
	noKid := forge(t, sampleCard, map[string]any{"alg": "EdDSA", "typ": "JOSE"}, func(in []byte) []byte { return ed25519.Sign(priv, in) })
	res, _ = Verify(noKid, other, VerifyAlgorithms)
	if res[0].Verified || !strings.Contains(res[0].Err.Error(), "no kid") {
		t.Errorf("missing kid: got %+v", res[0])
	}
}

func TestPrivateKeysNeverPublished(t *testing.T) {
	k, _ := GenerateKey(ES256)
	priv := jose.JSONWebKey{Key: k, Algorithm: ES256, Use: "sig"}
	data, err := priv.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePublicJWK(data); err == nil || !strings.Contains(err.Error(), "private key material") {
		t.Errorf("ParsePublicJWK accepted a private JWK: %v", err)
	}
	ks := &KeySet{Keys: []jose.JSONWebKey{priv}}
	if _, err := ks.JSON(); err == nil {
		t.Error("KeySet.JSON published a private key")
	}
	res, _ := Verify([]byte(`{"name":"x","signatures":[{"protected":"`+base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","kid":"k"}`))+`","signature":"AA"}]}`), &KeySet{Keys: []jose.JSONWebKey{{Key: k, KeyID: "k", Algorithm: ES256}}}, VerifyAlgorithms)
	if res[0].Verified || !strings.Contains(res[0].Err.Error(), "private") {
		t.Errorf("a private trusted key was used: %+v", res[0])
	}
}

func TestParsePublicJWKChecksKid(t *testing.T) {
	s, _ := testSigner(t, EdDSA)
	pub := s.Public
	pub.KeyID = "not-the-thumbprint"
	data, _ := pub.MarshalJSON()
	if _, err := ParsePublicJWK(data); err == nil || !strings.Contains(err.Error(), "thumbprint") {
		t.Errorf("wrong kid accepted: %v", err)
	}
	noAlg := s.Public
	noAlg.Algorithm = ""
	data, _ = noAlg.MarshalJSON()
	if _, err := ParsePublicJWK(data); err == nil || !strings.Contains(err.Error(), "alg") {
		t.Errorf("JWK without alg accepted: %v", err)
	}
}

// TestThumbprintRFC7638 checks the kid against RFC 7638 section 3.1's example.
func TestThumbprintRFC7638(t *testing.T) {
	const jwk = `{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","use":"sig"}`
	k, err := ParsePublicJWK([]byte(jwk))
	if err != nil {
		t.Fatal(err)
	}
	if want := "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"; k.KeyID != want {
		t.Errorf("kid = %q, want %q", k.KeyID, want)
	}
}

// TestProjectionSignature: a card with a scope-less requirement gets a
// second, marked signature that the SDK projection verifies against; a
// stripped card verifies only through that one, never as strict.
func TestProjectionSignature(t *testing.T) {
	const doc = `{"name":"n","description":"d","version":"1","supportedInterfaces":[{"url":"https://a.example.com","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{"streaming":false,"pushNotifications":false,"extendedAgentCard":false},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header","name":"X-Key"}}},"securityRequirements":[{"schemes":{"k":{"list":[]}}}],"skills":[{"id":"s","name":"s","description":"d","tags":["t"]}]}`
	s, ks := testSigner(t, EdDSA)
	projected, removed, err := card.SDKProjection([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(card.Paths(removed), []string{"securityRequirements"}) || removed[0].Empty {
		t.Fatalf("removed = %v", removed)
	}
	strict, err := s.Sign([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	proj, err := s.SignProjection(projected)
	if err != nil {
		t.Fatal(err)
	}
	withSigs := func(d []byte) []byte {
		var m map[string]any
		json.Unmarshal(d, &m)
		m["signatures"] = []card.Signature{strict, proj}
		b, _ := json.Marshal(m)
		return b
	}
	res, err := Verify(withSigs([]byte(doc)), ks, VerifyAlgorithms)
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].Verified || res[0].Covers != Strict || !res[1].Verified || res[1].Covers != SDKProjection {
		t.Fatalf("got %+v", res)
	}
	res, err = Verify(withSigs(projected), ks, VerifyAlgorithms)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Verified || res[1].Verified || !strings.Contains(fmt.Sprint(res[1].Err), "members were removed after signing") {
		t.Fatalf("stripped card: got %+v, want both signatures refused: the marked one proves the card had a requirement it lacks now", res)
	}
}

// TestDevKeyConcurrentFirstUse: builds that start at once in a fresh
// project all get the same development key, and exactly one made it.
func TestDevKeyConcurrentFirstUse(t *testing.T) {
	for range 5 {
		dir := t.TempDir()
		const n = 30
		var wg sync.WaitGroup
		kids := make([]string, n)
		created := make([]bool, n)
		errs := make([]error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				key, _, c, err := DevKey(dir)
				if err != nil {
					errs[i] = err
					return
				}
				kids[i], _ = Thumbprint(key.Public())
				created[i] = c
			})
		}
		close(start)
		wg.Wait()
		made := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("build %d: %v", i, errs[i])
			}
			if kids[i] != kids[0] {
				t.Fatalf("two keys: %s and %s", kids[0], kids[i])
			}
			if created[i] {
				made++
			}
		}
		if made != 1 {
			t.Errorf("%d builds say they made the key", made)
		}
		left, _ := filepath.Glob(filepath.Join(dir, DevKeyDir, ".*-*"))
		if len(left) != 0 {
			t.Errorf("temporary files left: %q", left)
		}
	}
}
