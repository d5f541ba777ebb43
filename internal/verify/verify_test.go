package verify

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/trust"
)

const unsignedCard = `{"name":"Forged","description":"d","version":"1","supportedInterfaces":[{"url":"https://a.example.com","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{"streaming":false,"pushNotifications":false,"extendedAgentCard":false},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"s","description":"d","tags":["t"]}]}`

// forge writes a card signed with an arbitrary header and signer, and a JWKS
// holding pub, and returns their paths.
func forge(t *testing.T, header map[string]any, signer func([]byte) []byte, jwks []jose.JSONWebKey) (cardPath, jwksPath string) {
	t.Helper()
	dir := t.TempDir()
	h, _ := json.Marshal(header)
	payload, err := jcs.Transform([]byte(unsignedCard))
	if err != nil {
		t.Fatal(err)
	}
	prot := base64.RawURLEncoding.EncodeToString(h)
	sig := signer([]byte(prot + "." + base64.RawURLEncoding.EncodeToString(payload)))
	var m map[string]any
	json.Unmarshal([]byte(unsignedCard), &m)
	m["signatures"] = []map[string]string{{"protected": prot, "signature": base64.RawURLEncoding.EncodeToString(sig)}}
	cb, _ := json.Marshal(m)
	jb, _ := json.Marshal(jose.JSONWebKeySet{Keys: jwks})
	cardPath, jwksPath = filepath.Join(dir, "card.json"), filepath.Join(dir, "jwks.json")
	os.WriteFile(cardPath, cb, 0o644)
	os.WriteFile(jwksPath, jb, 0o644)
	return cardPath, jwksPath
}

// TestForgeries: none, HS256 keyed with the public key, a missing kid, and
// a JWK whose alg differs from the header's never verify.
func TestForgeries(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	jwk := jose.JSONWebKey{Key: pub, KeyID: "k1", Algorithm: "EdDSA", Use: "sig"}
	pubJSON, _ := jwk.MarshalJSON()
	edSign := func(in []byte) []byte { return ed25519.Sign(priv, in) }
	cases := map[string]struct {
		header map[string]any
		sign   func([]byte) []byte
		keys   []jose.JSONWebKey
		reason string
	}{
		"alg none":      {map[string]any{"alg": "none", "kid": "k1", "typ": "JOSE"}, func([]byte) []byte { return nil }, []jose.JSONWebKey{jwk}, `alg "none" is not allowed`},
		"HS256 pub key": {map[string]any{"alg": "HS256", "kid": "k1", "typ": "JOSE"}, func(in []byte) []byte { m := hmac.New(sha256.New, pubJSON); m.Write(in); return m.Sum(nil) }, []jose.JSONWebKey{jwk}, `alg "HS256" is not allowed`},
		"kid missing":   {map[string]any{"alg": "EdDSA", "typ": "JOSE"}, edSign, []jose.JSONWebKey{jwk}, "no kid"},
		"alg mismatch":  {map[string]any{"alg": "EdDSA", "kid": "k1", "typ": "JOSE"}, edSign, []jose.JSONWebKey{{Key: pub, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}, "does not match"},
		"control: good": {map[string]any{"alg": "EdDSA", "kid": "k1", "typ": "JOSE"}, edSign, []jose.JSONWebKey{jwk}, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cardPath, jwksPath := forge(t, tc.header, tc.sign, tc.keys)
			rep := &Report{}
			if err := Target(context.Background(), cardPath, Options{JWKS: jwksPath, Fetch: &fetch.Client{}}, rep); err != nil {
				t.Fatal(err)
			}
			Finish(rep)
			if tc.reason == "" {
				if !rep.Verified {
					t.Fatalf("control card did not verify: %+v", rep.Cards[0])
				}
				return
			}
			if rep.Verified {
				t.Fatal("forged card verified")
			}
			if r := rep.Cards[0].Signatures[0].Reason; !strings.Contains(r, tc.reason) {
				t.Errorf("reason %q, want %q", r, tc.reason)
			}
		})
	}
}

// copyGolden copies the golden example site to a temporary folder.
func copyGolden(t *testing.T) string {
	t.Helper()
	src := "../../testdata/golden/example-site"
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func verifyTarget(t *testing.T, target string, opts Options) *Report {
	t.Helper()
	if opts.Fetch == nil {
		opts.Fetch = &fetch.Client{}
	}
	rep := &Report{}
	if err := Target(context.Background(), target, opts, rep); err != nil {
		t.Fatal(err)
	}
	Finish(rep)
	return rep
}

// TestStrippedRequirementFails: removing the scope-less requirement the
// SDK projection does not cover makes the projection signature verify, but
// the same key's strict signature fails, so the card is reported altered.
func TestStrippedRequirementFails(t *testing.T) {
	site := copyGolden(t)
	if rep := verifyTarget(t, site, Options{}); !rep.Verified {
		t.Fatalf("golden site does not verify: %+v", rep.Problems)
	}
	card := filepath.Join(site, "agents", "invoice-reader", ".well-known", "agent-card.json")
	b, _ := os.ReadFile(card)
	var m map[string]any
	json.Unmarshal(b, &m)
	delete(m, "securityRequirements")
	b, _ = json.Marshal(m)
	os.WriteFile(card, b, 0o644)
	rep := verifyTarget(t, card, Options{JWKS: filepath.Join(site, ".well-known", "jwks.json")})
	if rep.Verified {
		t.Fatalf("stripped card verified: %+v", rep.Cards[0])
	}
	if r := rep.Cards[0].Signatures[1].Reason; !strings.Contains(r, "members were removed after signing") {
		t.Errorf("reason %q", r)
	}
}

// TestScopeListWrittenAsEmptyObject: an A2A SDK server sends a
// requirement without scopes as {} where agentcards signed {"list": []};
// the strict signature still covers the card. Scopes added, or the
// requirement removed, still fail.
func TestScopeListWrittenAsEmptyObject(t *testing.T) {
	site := copyGolden(t)
	path := filepath.Join(site, "agents", "invoice-reader", ".well-known", "agent-card.json")
	orig, _ := os.ReadFile(path)
	if !strings.Contains(string(orig), `"apiKey": {`+"\n"+`          "list": []`) {
		t.Fatalf("the golden card no longer has a scope-less requirement:\n%s", orig)
	}
	jwks := filepath.Join(site, ".well-known", "jwks.json")
	for _, tc := range []struct {
		name, to string
		verified bool
	}{
		{"{} as the SDKs write it", `"apiKey": {}`, true},
		{"a scope added", `"apiKey": {"list": ["admin"]}`, false},
		{"another scheme named", `"other": {}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := strings.Replace(string(orig), `"apiKey": {`+"\n"+`          "list": []`+"\n"+`        }`, tc.to, 1)
			if b == string(orig) {
				t.Fatal("not rewritten")
			}
			os.WriteFile(path, []byte(b), 0o644)
			rep := verifyTarget(t, path, Options{JWKS: jwks})
			if rep.Verified != tc.verified {
				t.Fatalf("verified %v, want %v: %+v", rep.Verified, tc.verified, rep.Cards[0])
			}
			if tc.verified && rep.Cards[0].Outcome != OutcomeVerified {
				t.Errorf("outcome %s, want a signature over the whole card", rep.Cards[0].Outcome)
			}
		})
	}
}

// TestPrivateKeyInJWKSFails: a site whose JWKS publishes a private key
// fails, even though every card verifies.
func TestPrivateKeyInJWKSFails(t *testing.T) {
	site := copyGolden(t)
	jwksPath := filepath.Join(site, ".well-known", "jwks.json")
	b, _ := os.ReadFile(jwksPath)
	var doc map[string]any
	json.Unmarshal(b, &doc)
	_, priv, _ := ed25519.GenerateKey(nil)
	pj, _ := jose.JSONWebKey{Key: priv, KeyID: "leaked", Algorithm: "EdDSA"}.MarshalJSON()
	var pm map[string]any
	json.Unmarshal(pj, &pm)
	doc["keys"] = append(doc["keys"].([]any), pm)
	b, _ = json.Marshal(doc)
	os.WriteFile(jwksPath, b, 0o644)
	rep := verifyTarget(t, site, Options{})
	if rep.Verified || !strings.Contains(strings.Join(rep.Problems, "\n"), "publishes a private key") {
		t.Errorf("verified %v, problems %v", rep.Verified, rep.Problems)
	}
}

func TestDuplicateTopLevelKeyRefused(t *testing.T) {
	site := copyGolden(t)
	card := filepath.Join(site, ".well-known", "agent-card.json")
	b, _ := os.ReadFile(card)
	dup := strings.Replace(string(b), "{\n", "{\n  \"name\": \"Impostor\",\n", 1)
	os.WriteFile(card, []byte(dup), 0o644)
	rep := verifyTarget(t, card, Options{JWKS: filepath.Join(site, ".well-known", "jwks.json")})
	if rep.Verified {
		t.Error("a card with a duplicate top-level key verified")
	}
}

// TestJWKSRefusals: keys that share a kid are both refused (verifiers that
// take the first and those that take the last would disagree), a JWKS with
// more than trust.MaxKeys keys is refused whole, and one with case-variant
// members is not read at all.
func TestJWKSRefusals(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	other, _, _ := ed25519.GenerateKey(nil)
	jwk := jose.JSONWebKey{Key: pub, KeyID: "k1", Algorithm: "EdDSA", Use: "sig"}
	twin := jose.JSONWebKey{Key: other, KeyID: "k1", Algorithm: "EdDSA", Use: "sig"}
	sign := func(in []byte) []byte { return ed25519.Sign(priv, in) }
	cardPath, jwksPath := forge(t, map[string]any{"alg": "EdDSA", "kid": "k1"}, sign, []jose.JSONWebKey{jwk, twin})
	rep := verifyTarget(t, cardPath, Options{JWKS: jwksPath})
	if rep.Verified || !strings.Contains(strings.Join(rep.Cards[0].Problems, "\n"), "another key in the JWKS has the same kid: both refused") {
		t.Errorf("shared kid: verified %v, problems %v", rep.Verified, rep.Cards[0].Problems)
	}

	many := make([]jose.JSONWebKey, trust.MaxKeys+1)
	for i := range many {
		many[i] = jose.JSONWebKey{Key: pub, KeyID: "k" + strings.Repeat("x", i), Algorithm: "EdDSA", Use: "sig"}
	}
	_, jwksPath = forge(t, map[string]any{"alg": "EdDSA", "kid": "k1"}, sign, many)
	err := Target(context.Background(), cardPath, Options{JWKS: jwksPath, Fetch: &fetch.Client{}}, &Report{})
	if err == nil || !strings.Contains(err.Error(), "257 keys: more than the 256") {
		t.Errorf("too many keys: %v", err)
	}

	b, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{jwk}})
	variant := strings.Replace(string(b), `"keys"`, `"keys":[],"KEYS"`, 1)
	os.WriteFile(jwksPath, []byte(variant), 0o644)
	err = Target(context.Background(), cardPath, Options{JWKS: jwksPath, Fetch: &fetch.Client{}}, &Report{})
	if err == nil || !strings.Contains(err.Error(), "differ only in letter case") {
		t.Errorf("case-variant JWKS: %v", err)
	}
}

// TestJWKSReadOncePerOrigin verifies two cards of one origin (a loopback
// server) in one run and checks that the JWKS was fetched once.
func TestJWKSReadOncePerOrigin(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	pub := priv.Public().(ed25519.PublicKey)
	jwk := jose.JSONWebKey{Key: pub, KeyID: "k1", Algorithm: "EdDSA", Use: "sig"}
	cardPath, jwksPath := forge(t, map[string]any{"alg": "EdDSA", "kid": "k1", "typ": "JOSE"}, func(in []byte) []byte { return ed25519.Sign(priv, in) }, []jose.JSONWebKey{jwk})
	card, _ := os.ReadFile(cardPath)
	jwks, _ := os.ReadFile(jwksPath)
	var jwksHits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/.well-known/jwks.json" {
			jwksHits.Add(1)
			w.Write(jwks)
			return
		}
		w.Write(card)
	}))
	defer srv.Close()
	opts := Options{Fetch: &fetch.Client{}, Keys: trust.NewCache()}
	rep := &Report{}
	for _, p := range []string{"/a/agent-card.json", "/b/agent-card.json", "/c/agent-card.json"} {
		if err := Target(context.Background(), srv.URL+p, opts, rep); err != nil {
			t.Fatal(err)
		}
	}
	Finish(rep)
	if !rep.Verified || len(rep.Cards) != 3 {
		t.Fatalf("verified %v, %d cards: %+v", rep.Verified, len(rep.Cards), rep.Cards)
	}
	if n := jwksHits.Load(); n != 1 {
		t.Errorf("the JWKS was fetched %d times for one origin", n)
	}
}

// TestDevelopmentKeyNoted: a card signed by an agentcards development key
// (kid dev- and the key's thumbprint) is marked as such; a key merely
// named dev-something is not.
func TestDevelopmentKeyNoted(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	tp, err := sign.Thumbprint(pub)
	if err != nil {
		t.Fatal(err)
	}
	for kid, want := range map[string]bool{sign.DevKIDPrefix + tp: true, "dev-mine": false, tp: false} {
		jwk := jose.JSONWebKey{Key: pub, KeyID: kid, Algorithm: "EdDSA", Use: "sig"}
		card, jwks := forge(t, map[string]any{"alg": "EdDSA", "kid": kid, "typ": "JOSE"}, func(in []byte) []byte { return ed25519.Sign(priv, in) }, []jose.JSONWebKey{jwk})
		rep := verifyTarget(t, card, Options{JWKS: jwks})
		if !rep.Verified || rep.Cards[0].DevelopmentKey != want {
			t.Errorf("kid %s: verified %v, development key %v, want %v", kid, rep.Verified, rep.Cards[0].DevelopmentKey, want)
		}
	}
}

// TestPreviewJKUNotLinted: a card fetched from a loopback origin (a
// preview) whose jku names that origin gets no private- or insecure-
// endpoint finding on the jku; a jku naming another loopback origin keeps
// both.
func TestPreviewJKUNotLinted(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	jwk := jose.JSONWebKey{Key: priv.Public(), KeyID: "k1", Algorithm: "EdDSA", Use: "sig"}
	var card, jwks atomic.Pointer[[]byte]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/.well-known/jwks.json" {
			w.Write(*jwks.Load())
			return
		}
		w.Write(*card.Load())
	}))
	defer srv.Close()
	for _, c := range []struct {
		jku      string
		findings int
	}{{srv.URL + "/.well-known/jwks.json", 0}, {"http://127.0.0.2:9/.well-known/jwks.json", 2}} {
		cardPath, jwksPath := forge(t, map[string]any{"alg": "EdDSA", "kid": "k1", "typ": "JOSE", "jku": c.jku}, func(in []byte) []byte { return ed25519.Sign(priv, in) }, []jose.JSONWebKey{jwk})
		cb, _ := os.ReadFile(cardPath)
		jb, _ := os.ReadFile(jwksPath)
		card.Store(&cb)
		jwks.Store(&jb)
		rep := &Report{}
		if err := Target(context.Background(), srv.URL+"/.well-known/agent-card.json", Options{Fetch: &fetch.Client{}, Keys: trust.NewCache()}, rep); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range rep.Cards[0].Lint {
			if strings.HasSuffix(f.Path, ".jku") {
				n++
			}
		}
		if n != c.findings {
			t.Errorf("jku %s: %d findings on the jku, want %d: %+v", c.jku, n, c.findings, rep.Cards[0].Lint)
		}
	}
}
