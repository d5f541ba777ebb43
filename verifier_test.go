package agentcards

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/sign"
)

// unsignedCard is a small v1.0 card with a scoped security requirement.
const unsignedCard = `{"name":"Echo","description":"Says it back.","version":"1.0.0",` +
	`"supportedInterfaces":[{"url":"https://echo.example/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` +
	`"capabilities":{"streaming":false,"pushNotifications":false,"extendedAgentCard":false},` +
	`"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],` +
	`"securitySchemes":{"oauth":{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://id.example/.well-known/openid-configuration"}}},` +
	`"securityRequirements":[{"schemes":{"oauth":{"list":["echo"]}}}],` +
	`"skills":[{"id":"echo","name":"Echo","description":"Echoes text.","tags":["text"]}]}`

// testKey is a fresh Ed25519 signer with its JWKS.
type testKey struct {
	signer *sign.Signer
	jwks   []byte
}

func newTestKey(t testing.TB, jku string) *testKey {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sign.NewSigner(priv, sign.EdDSA, jku)
	if err != nil {
		t.Fatal(err)
	}
	ks := &sign.KeySet{}
	ks.Add(s.Public)
	jwks, err := ks.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return &testKey{s, jwks}
}

// signCard signs unsigned with each key.
func signCard(t testing.TB, unsigned string, keys ...*testKey) []byte {
	t.Helper()
	var sigs []card.Signature
	for _, k := range keys {
		s, err := k.signer.Sign([]byte(unsigned))
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, s)
	}
	out, err := card.MarshalSigned([]byte(unsigned), sigs)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func pinned(t testing.TB, jwks []byte, opts ...Option) *Verifier {
	t.Helper()
	tr, err := TrustJWKS(jwks)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(tr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestVerifyPinned(t *testing.T) {
	k := newTestKey(t, "")
	signed := signCard(t, unsignedCard, k)
	res, err := pinned(t, k.jwks).Verify(context.Background(), signed)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := sign.Canonicalize([]byte(unsignedCard))
	if string(res.Card) != string(want) {
		t.Errorf("Card is not the canonical card without signatures:\n%s", res.Card)
	}
	if res.KeyID != k.signer.KID || res.Algorithm != "EdDSA" || res.Covers != "strict" || res.Index != 0 || string(res.Raw) != string(signed) {
		t.Errorf("result %+v", res)
	}
	if strings.Join(res.Covered, ",") != "capabilities,defaultInputModes,defaultOutputModes,description,name,securityRequirements,securitySchemes,skills,supportedInterfaces,version" {
		t.Errorf("covered %v", res.Covered)
	}
}

// TestVerifyRefusals: each kind of failure is told apart by errors.Is.
func TestVerifyRefusals(t *testing.T) {
	k, other := newTestKey(t, ""), newTestKey(t, "")
	good := signCard(t, unsignedCard, k)
	v := pinned(t, k.jwks)
	for name, tc := range map[string]struct {
		card []byte
		kind error
	}{
		"altered":        {[]byte(strings.Replace(string(good), "Says it back.", "Says it back!", 1)), ErrBadSignature},
		"other key":      {signCard(t, unsignedCard, other), ErrUnknownKey},
		"unsigned":       {[]byte(unsignedCard), ErrUnsigned},
		"not json":       {[]byte(`{"name":`), ErrMalformed},
		"duplicate name": {[]byte(strings.Replace(string(good), `"name"`, `"name": "Impostor", "name"`, 1)), ErrMalformed},
		"member added":   {[]byte(strings.Replace(string(good), `"name"`, `"iconUrl": "https://evil.example/i.png", "name"`, 1)), ErrBadSignature},
	} {
		t.Run(name, func(t *testing.T) {
			res, err := v.Verify(context.Background(), tc.card)
			if err == nil || res != nil {
				t.Fatalf("verified: %+v", res)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %v is not %v", err, tc.kind)
			}
			var ve *VerificationError
			if tc.kind == ErrBadSignature && (!errors.As(err, &ve) || len(ve.Signatures) != 1 || ve.Signatures[0].KeyID != k.signer.KID) {
				t.Errorf("no *VerificationError naming the signature: %#v", err)
			}
		})
	}
}

// TestJKUIsNoTrustRoot: a card whose jku names another JWKS than the
// trusted URL is refused, even when its key is trusted.
func TestJKUIsNoTrustRoot(t *testing.T) {
	k := newTestKey(t, "https://elsewhere.example/.well-known/jwks.json")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(k.jwks) }))
	defer srv.Close()
	v, err := NewVerifier(TrustJWKSURL(srv.URL + "/.well-known/jwks.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Verify(context.Background(), signCard(t, unsignedCard, k))
	if !errors.Is(err, ErrCrossOrigin) {
		t.Errorf("got %v, want ErrCrossOrigin", err)
	}
}

// site serves cards and a JWKS on 127.0.0.1, counting JWKS requests.
type site struct {
	*httptest.Server
	files     map[string][]byte
	jwksReads atomic.Int32
}

func newSite(t *testing.T, files map[string][]byte) *site {
	s := &site{files: files}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/jwks.json" {
			s.jwksReads.Add(1)
		}
		b, ok := s.files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	t.Cleanup(s.Close)
	return s
}

func TestFetchTrustOrigin(t *testing.T) {
	k := newTestKey(t, "")
	s := newSite(t, map[string][]byte{
		"/.well-known/agent-card.json":             signCard(t, unsignedCard, k),
		"/agents/echo/.well-known/agent-card.json": signCard(t, unsignedCard, k),
		"/.well-known/jwks.json":                   k.jwks,
	})
	v, err := NewVerifier(TrustOrigin())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{s.URL, s.URL + "/", s.URL + "/agents/echo/.well-known/agent-card.json"} {
		res, err := v.Fetch(context.Background(), u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if res.JWKS != s.URL+"/.well-known/jwks.json" {
			t.Errorf("keys from %s", res.JWKS)
		}
	}
	if n := s.jwksReads.Load(); n != 1 {
		t.Errorf("the JWKS was read %d times, want once", n)
	}
	if _, err := v.Verify(context.Background(), s.files["/.well-known/agent-card.json"]); err == nil || !strings.Contains(err.Error(), "use Fetch") {
		t.Errorf("Verify with TrustOrigin: %v", err)
	}
	_, err = v.Fetch(context.Background(), s.URL+"/agents/none/.well-known/agent-card.json")
	var fe *FetchError
	if !errors.As(err, &fe) || fe.StatusCode != http.StatusNotFound {
		t.Errorf("missing card: %#v", err)
	}
	if _, err := v.Fetch(context.Background(), "http://example.com/.well-known/agent-card.json"); !errors.As(err, &fe) || !strings.Contains(err.Error(), "plain http") {
		t.Errorf("plain http to a public host: %v", err)
	}
}

// TestRotationRefetchesOnce: a card signed by a key published after the
// JWKS was read makes the verifier read it again, once per minInterval,
// however many forged kids arrive.
func TestRotationRefetchesOnce(t *testing.T) {
	old, next := newTestKey(t, ""), newTestKey(t, "")
	s := newSite(t, map[string][]byte{"/.well-known/jwks.json": old.jwks})
	v, err := NewVerifier(TrustJWKSURL(s.URL+"/.well-known/jwks.json"), WithRefresh(time.Hour, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := v.Verify(ctx, signCard(t, unsignedCard, old)); err != nil {
		t.Fatal(err)
	}
	// The next key is published; minInterval (an hour) has not passed.
	both := &sign.KeySet{}
	both.Add(old.signer.Public)
	both.Add(next.signer.Public)
	s.files["/.well-known/jwks.json"], _ = both.JSON()
	for range 5 {
		if _, err := v.Verify(ctx, signCard(t, unsignedCard, next)); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("within minInterval: %v", err)
		}
	}
	if n := s.jwksReads.Load(); n != 1 {
		t.Fatalf("JWKS read %d times within minInterval", n)
	}
	v.minInterval = 0
	if _, err := v.Verify(ctx, signCard(t, unsignedCard, next)); err != nil {
		t.Fatalf("after minInterval: %v", err)
	}
	if n := s.jwksReads.Load(); n != 2 {
		t.Errorf("JWKS read %d times, want 2", n)
	}
}

func TestTrustKeys(t *testing.T) {
	k := newTestKey(t, "")
	pub := k.signer.Public.Key
	tr, err := TrustKeys(Key{Public: pub})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := NewVerifier(tr)
	if _, err := v.Verify(context.Background(), signCard(t, unsignedCard, k)); err != nil {
		t.Errorf("thumbprint kid: %v", err)
	}
	if _, err := TrustKeys(Key{Public: pub, Algorithm: "RS256"}); err == nil {
		t.Error("an Ed25519 key trusted for RS256")
	}
	if _, err := TrustKeys(); !errors.Is(err, ErrJWKS) {
		t.Errorf("no keys: %v", err)
	}
}

func TestTrustJWKSRefusesPrivateKeys(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	jwk, _ := json.Marshal(map[string]any{"keys": []any{map[string]any{"kty": "OKP", "crv": "Ed25519", "kid": "k", "alg": "EdDSA",
		"x": "LDCmHaAqQugasCeoxYVMsPhebX9CkNXYbLigUjLOvw4", "d": priv.Seed()}}})
	if _, err := TrustJWKS(jwk); !errors.Is(err, ErrJWKS) || !strings.Contains(err.Error(), "private key") {
		t.Errorf("got %v", err)
	}
	if _, err := TrustJWKS([]byte(`{"keys":[]}`)); !errors.Is(err, ErrJWKS) {
		t.Errorf("empty JWKS: %v", err)
	}
}

// TestRequireWholeCard: a card signed only over the SDK projection (an
// empty member outside it) verifies by default and not under
// RequireWholeCard.
func TestRequireWholeCard(t *testing.T) {
	k := newTestKey(t, "")
	withEmpty := strings.Replace(unsignedCard, `"version":"1.0.0"`, `"version":"1.0.0","iconUrl":""`, 1)
	projected, _, err := card.SDKProjection([]byte(withEmpty))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := k.signer.Sign(projected)
	if err != nil {
		t.Fatal(err)
	}
	signed, _ := card.MarshalSigned([]byte(withEmpty), []card.Signature{sig})
	res, err := pinned(t, k.jwks).Verify(context.Background(), signed)
	if err != nil {
		t.Fatal(err)
	}
	if res.Covers != "sdk-projection" || strings.Join(res.Uncovered, ",") != "iconUrl" || strings.Contains(string(res.Card), "iconUrl") {
		t.Errorf("projection result %+v, card %s", res, res.Card)
	}
	if _, err := pinned(t, k.jwks, RequireWholeCard()).Verify(context.Background(), signed); !errors.Is(err, ErrPolicy) {
		t.Errorf("RequireWholeCard: %v", err)
	}
	two := signCard(t, unsignedCard, k, newTestKey(t, ""))
	if _, err := pinned(t, k.jwks, RequireAllSignatures()).Verify(context.Background(), two); !errors.Is(err, ErrPolicy) || !errors.Is(err, ErrUnknownKey) {
		t.Errorf("RequireAllSignatures: %v", err)
	}
}

// TestVerifyingParser: the parser sees the verified bytes only, and
// nothing when the card does not verify.
func TestVerifyingParser(t *testing.T) {
	k := newTestKey(t, "")
	var seen []byte
	parse := VerifyingParser(context.Background(), pinned(t, k.jwks), func(b []byte) (string, error) {
		seen = b
		var c struct{ Name string }
		err := json.Unmarshal(b, &c)
		return c.Name, err
	})
	name, err := parse(signCard(t, unsignedCard, k))
	if err != nil || name != "Echo" || strings.Contains(string(seen), "signatures") {
		t.Errorf("got %q, %v; parser saw %s", name, err, seen)
	}
	seen = nil
	if _, err := parse([]byte(strings.Replace(string(signCard(t, unsignedCard, k)), "Echo", "Evil", 1))); !errors.Is(err, ErrBadSignature) || seen != nil {
		t.Errorf("altered card: %v, parser saw %s", err, seen)
	}
}

func TestFlattenScopeLists(t *testing.T) {
	in := `{"securityRequirements":[{"schemes":{"a":{"list":["x","y"]},"b":{},"c":{"list":[]}}}],` +
		`"skills":[{"id":"s","securityRequirements":[{"schemes":{"a":{"list":["z"]}}}]}],"n":1e3}`
	want := `{"n":1000,"securityRequirements":[{"schemes":{"a":["x","y"],"b":[],"c":[]}}],"skills":[{"id":"s","securityRequirements":[{"schemes":{"a":["z"]}}]}]}`
	if got := string(FlattenScopeLists([]byte(in))); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	odd := `{"securityRequirements":[{"schemes":{"a":{"list":["x"],"more":1}}}]}`
	if got := string(FlattenScopeLists([]byte(odd))); got != odd {
		t.Errorf("a list with other members changed: %s", got)
	}
	if got := string(FlattenScopeLists([]byte("not json"))); got != "not json" {
		t.Errorf("got %s", got)
	}
}

// TestForgetStale: expired readings are dropped, fresh ones and ones in
// use are kept.
func TestForgetStale(t *testing.T) {
	v, _ := NewVerifier(TrustOrigin(), WithRefresh(time.Minute, 0))
	old := time.Now().Add(-time.Hour)
	entry := func(tried time.Time) *jwksEntry {
		e := &jwksEntry{sem: make(chan struct{}, 1)}
		e.state.Store(&jwksState{tried: tried, fetched: tried})
		return e
	}
	v.jwks["old"] = entry(old)
	v.jwks["fresh"] = entry(time.Now())
	busy := entry(old)
	busy.sem <- struct{}{}
	v.jwks["busy"] = busy
	v.forgetStale()
	if _, ok := v.jwks["old"]; ok || len(v.jwks) != 2 {
		t.Errorf("kept %v", v.jwks)
	}
}

// TestSecurityAliasesAreNeverEmpty: a security requirement added under a
// name some reader takes for securityRequirements (snake_case, another
// letter case) is not an empty member a projection signature may leave
// out: the card no longer verifies.
func TestSecurityAliasesAreNeverEmpty(t *testing.T) {
	k := newTestKey(t, "")
	signed := string(signCard(t, unsignedCard, k))
	// Names that are no letter-case twin of a member the card has (strict
	// reading refuses those anyway).
	for _, name := range []string{"security_requirements", "Security_Requirements", "SECURITY_SCHEMES", "SECURITY"} {
		altered := strings.Replace(signed, `"name"`, `"`+name+`": [{"schemes": {"none-needed": {"list": []}}}], "name"`, 1)
		if res, err := pinned(t, k.jwks).Verify(context.Background(), []byte(altered)); err == nil {
			t.Errorf("%s added: verified (%s)", name, res.Covers)
		}
	}
}

// TestFailingJWKSIsNotFlooded: once the JWKS answers with errors, cards
// with unknown kids still fetch it at most once per minInterval, and the
// keys read before keep verifying.
func TestFailingJWKSIsNotFlooded(t *testing.T) {
	k, other := newTestKey(t, ""), newTestKey(t, "")
	s := newSite(t, map[string][]byte{"/.well-known/jwks.json": k.jwks})
	v, err := NewVerifier(TrustJWKSURL(s.URL+"/.well-known/jwks.json"), WithRefresh(time.Hour, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	good := signCard(t, unsignedCard, k)
	if _, err := v.Verify(ctx, good); err != nil {
		t.Fatal(err)
	}
	delete(s.files, "/.well-known/jwks.json") // 404 from now on
	e := v.jwks[s.URL+"/.well-known/jwks.json"]
	st := *e.state.Load()
	st.tried = time.Now().Add(-2 * time.Hour) // minInterval has passed
	e.state.Store(&st)
	forged := signCard(t, unsignedCard, other)
	for range 20 {
		if _, err := v.Verify(ctx, forged); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("forged kid: %v", err)
		}
		if _, err := v.Verify(ctx, good); err != nil {
			t.Fatalf("the keys read before: %v", err)
		}
	}
	if n := s.jwksReads.Load(); n != 2 {
		t.Errorf("JWKS asked for %d times, want 2 (the reading and one refresh)", n)
	}
}

// TestErrorsEscapeTerminalControls: a kid or a server's status line
// cannot rewrite the terminal that prints the error.
func TestErrorsEscapeTerminalControls(t *testing.T) {
	k := newTestKey(t, "")
	evil := "\x1b]0;pwned\a\x1b[2J\u202e"
	signed := signCard(t, unsignedCard, k)
	var c struct{ Signatures []card.Signature }
	json.Unmarshal(signed, &c)
	c.Signatures[0].Header = map[string]any{}
	h, _ := json.Marshal(map[string]any{"alg": "EdDSA", "kid": evil})
	c.Signatures[0].Protected = base64.RawURLEncoding.EncodeToString(h)
	forged, _ := card.MarshalSigned([]byte(unsignedCard), c.Signatures)
	_, err := pinned(t, k.jwks).Verify(context.Background(), forged)
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\a\u202e") {
		t.Errorf("error with controls: %q", err)
	}
	// A JWKS whose member names carry controls, pinned and fetched.
	hostile := []byte("{\"keys\":[{\"\u001b[2J\u202e\":{\"a\":1,\"a\":2}}]}")
	_, err = TrustJWKS(hostile)
	s := newSite(t, map[string][]byte{"/.well-known/jwks.json": hostile})
	v, _ := NewVerifier(TrustJWKSURL(s.URL + "/.well-known/jwks.json"))
	_, err2 := v.Verify(context.Background(), signed)
	for _, e := range []error{err, err2} {
		if e == nil || strings.ContainsAny(e.Error(), "\x1b\u202e") || !errors.Is(e, ErrJWKS) {
			t.Errorf("JWKS error with controls, or not ErrJWKS: %q", e)
		}
	}
	fe := &FetchError{URL: "https://x.example/", StatusCode: 404, Err: errors.New("HTTP 404 \x1b[31mNot Found")}
	if strings.ContainsAny(fe.Error(), "\x1b") {
		t.Errorf("FetchError with controls: %q", fe.Error())
	}
}

// TestOptionsBound: WithAlgorithms refuses a card signed with another
// algorithm and a name no card may be signed with; WithMaxBytes refuses
// a card longer than allowed; WithTimeout gives up on a server that does
// not answer in time.
func TestOptionsBound(t *testing.T) {
	k := newTestKey(t, "")
	signed := signCard(t, unsignedCard, k)
	if _, err := pinned(t, k.jwks, WithAlgorithms("ES256")).Verify(context.Background(), signed); !errors.Is(err, ErrAlgorithm) {
		t.Errorf("an EdDSA card with only ES256 allowed: %v", err)
	}
	if _, err := pinned(t, k.jwks, WithAlgorithms("EdDSA", "ES256")).Verify(context.Background(), signed); err != nil {
		t.Errorf("an EdDSA card with EdDSA allowed: %v", err)
	}
	for _, algs := range [][]string{{"HS256"}, {"none"}, nil} {
		tr, _ := TrustJWKS(k.jwks)
		if _, err := NewVerifier(tr, WithAlgorithms(algs...)); err == nil {
			t.Errorf("WithAlgorithms(%q) accepted", algs)
		}
	}
	s := newSite(t, map[string][]byte{
		"/.well-known/agent-card.json": signed,
		"/.well-known/jwks.json":       k.jwks,
	})
	v, err := NewVerifier(TrustOrigin(), WithMaxBytes(int64(len(signed)-1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Fetch(context.Background(), s.URL); err == nil {
		t.Errorf("a card of %d bytes with WithMaxBytes(%d): verified", len(signed), len(signed)-1)
	}
	v, _ = NewVerifier(TrustOrigin(), WithMaxBytes(int64(len(signed))))
	if _, err := v.Fetch(context.Background(), s.URL); err != nil {
		t.Errorf("a card of exactly WithMaxBytes: %v", err)
	}
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer slow.Close()
	defer close(release)
	v, _ = NewVerifier(TrustOrigin(), WithTimeout(200*time.Millisecond))
	start := time.Now()
	if _, err := v.Fetch(context.Background(), slow.URL); err == nil {
		t.Error("a server that never answers: verified")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("WithTimeout(200ms) gave up after %v", d)
	}
}
