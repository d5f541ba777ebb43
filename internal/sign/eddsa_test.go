package sign

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/card"
)

// TestEdDSAMatchesGoJose holds verifyEdDSA to go-jose's verdict
// (verifyJOSE) on every signature checkHeader lets through: odd header
// members go-jose refuses, signatures and headers with white space,
// padding or stray low bits in their base64, and wrong signatures,
// payloads and keys. Both verify, or both refuse, alike as to
// ErrBadSignature.
func TestEdDSAMatchesGoJose(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	otherPub, _, _ := ed25519.GenerateKey(nil)
	key := jose.JSONWebKey{Key: pub, KeyID: "k1", Algorithm: EdDSA, Use: "sig"}
	keys := map[string]*jose.JSONWebKey{
		"key":       &key,
		"other key": {Key: otherPub, KeyID: "k1", Algorithm: EdDSA},
		"empty key": {Key: ed25519.PublicKey{}, KeyID: "k1", Algorithm: EdDSA},
		"ES256 key": func() *jose.JSONWebKey {
			s, ks := testSigner(t, ES256)
			k := *ks.Find(s.KID)
			k.KeyID, k.Algorithm = "k1", EdDSA
			return &k
		}(),
	}
	ks := &KeySet{}
	ks.Add(key)
	headers := []string{
		`{"alg":"EdDSA","kid":"k1","typ":"JOSE"}`,
		`{"alg":"EdDSA","kid":"k1"}`,
		`{"alg":"EdDSA","kid":"k1","b64":true}`,
		`{"alg":"EdDSA","kid":"k1","jku":"https://example.com/.well-known/jwks.json"}`,
		`{"alg":"EdDSA","kid":"k1","jwk":"not a key"}`,
		`{"alg":"EdDSA","kid":"k1","jwk":{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}}`,
		`{"alg":"EdDSA","kid":"k1","x5c":["%%%"]}`,
		`{"alg":"EdDSA","kid":"k1","x5c":5}`,
		`{"alg":"EdDSA","kid":"k1","nonce":5}`,
		`{"alg":"EdDSA","kid":"k1","cty":7}`,
		`{"alg":"EdDSA","kid":"k1","typ":["JOSE"]}`,
		`{"alg":"EdDSA","kid":"k1","x5t":"AAAA"}`,
		`{"alg":"EdDSA","kid":"k1","x5t#S256":"AAAA"}`,
		`{"alg":"EdDSA","kid":"k1","x5u":"::"}`,
		`{"alg":"EdDSA","kid":"k1","url":"https://x","p2c":"x"}`,
		`{"alg":"EdDSA","kid":"k1","epk":{}}`,
		`{"alg":"EdDSA","kid":"k1","extra":{"nested":[1,2,{"a":null}]}}`,
	}
	payload := []byte(`{"name":"n"}`)
	protectedForms := func(p string) []string {
		return []string{p, p[:len(p)/2] + "\n" + p[len(p)/2:], p + "\r\n", stray(p)}
	}
	signatureForms := func(s string) []string {
		return []string{s, " " + s, s[:10] + "\t" + s[10:], s + "==", s + "\u00a0", s[:40] + "\u2028" + s[40:], stray(s), s[:len(s)-4] + "AAAA", s[:80], s + "A", "", s[:20] + "." + s[20:], s[:20] + "+/" + s[22:]}
	}
	checked, verified, refused := 0, 0, 0
	for _, h := range headers {
		prot := base64.RawURLEncoding.EncodeToString([]byte(h))
		sigBytes := ed25519.Sign(priv, []byte(prot+"."+base64.RawURLEncoding.EncodeToString(payload)))
		sig := base64.RawURLEncoding.EncodeToString(sigBytes)
		for _, p := range protectedForms(prot) {
			for _, s := range signatureForms(sig) {
				js := card.Signature{Protected: p, Signature: s}
				if _, _, err := checkHeader(js, ks, VerifyAlgorithms, &Result{}); err != nil {
					continue // never reaches verifyOne
				}
				for _, pl := range [][]byte{payload, []byte(`{"name":"m"}`), {}} {
					for kn, k := range keys {
						want := safeVerifyJOSE(js, pl, k)
						got := verifyEdDSA(js, pl, k)
						checked++
						switch {
						case want == nil:
							verified++
						case !errors.Is(want, ErrBadSignature):
							refused++ // go-jose would not read it
						}
						if (got == nil) != (want == nil) || errors.Is(got, ErrBadSignature) != errors.Is(want, ErrBadSignature) {
							t.Errorf("header %s, protected %q, signature %q, payload %s, %s:\nverifyEdDSA: %v\ngo-jose: %v", h, p, s, pl, kn, got, want)
						}
					}
				}
			}
		}
	}
	if checked < 500 || verified < 20 || refused < 20 {
		t.Fatalf("only %d cases reached the comparison, %d verified, %d unread", checked, verified, refused)
	}
	t.Logf("%d cases, %d verified, %d unread by go-jose", checked, verified, refused)
}

// safeVerifyJOSE is verifyJOSE, with go-jose's panic on a short Ed25519
// key turned into a failure.
func safeVerifyJOSE(sig card.Signature, payload []byte, key *jose.JSONWebKey) (err error) {
	defer func() {
		if recover() != nil {
			err = ErrBadSignature
		}
	}()
	return verifyJOSE(sig, payload, key, EdDSA)
}

// stray is s (unpadded base64url) with the unused low bits of its last
// character set, where it has any: the same bytes to a lenient decoder.
func stray(s string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	unused := map[int]int{2: 4, 3: 2}[len(s)%4]
	if unused == 0 {
		return s
	}
	i := strings.IndexByte(alphabet, s[len(s)-1])
	return s[:len(s)-1] + string(alphabet[i|(1<<unused-1)])
}

// TestEdSignerMatchesGoJose: the Ed25519 fast path makes, byte for byte,
// the detached JWS go-jose makes, for both headers (with and without the
// projection marker), with and without a jku, for the development key's
// kid too, over payloads of every length modulo 3 (base64's padding).
func TestEdSignerMatchesGoJose(t *testing.T) {
	k, err := GenerateKey(EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := NewDevSigner(k, "https://example.com/.well-known/jwks.json")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewSigner(k, EdDSA, "")
	if err != nil {
		t.Fatal(err)
	}
	payloads := [][]byte{nil, []byte(`{}`), []byte(`{"a":1}`), []byte(`{"name":"<é>\u2028"}`), []byte(strings.Repeat(`{"x":"y"}`, 500))}
	for _, s := range []*Signer{dev, plain} {
		if s.ed == nil || s.edProjection == nil {
			t.Fatalf("%s: no Ed25519 fast path", s.KID)
		}
		for _, p := range payloads {
			for _, pair := range []struct {
				js jose.Signer
				ed *edSigner
			}{{s.signer, s.ed}, {s.projection, s.edProjection}} {
				want, err := signPayload(pair.js, nil, p)
				if err != nil {
					t.Fatal(err)
				}
				if got := pair.ed.sign(p); got.Protected != want.Protected || got.Signature != want.Signature || got.Header != nil {
					t.Errorf("%s over %.20q: fast path %+v, go-jose %+v", s.KID, p, got, want)
				}
			}
		}
	}
	es, _ := testSigner(t, ES256)
	if es.ed != nil || es.edProjection != nil {
		t.Error("an ES256 signer has an Ed25519 fast path")
	}
}

// BenchmarkSignCanonical signs a card-sized canonical payload.
func BenchmarkSignCanonical(b *testing.B) {
	s, _ := testSigner(b, EdDSA)
	payload := []byte(strings.Repeat(`{"name":"agent","skills":[]}`, 80))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SignCanonical(payload); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppendBase64URL holds appendBase64URL to
// base64.RawURLEncoding.AppendEncode for every length up to a few words
// past the eight-byte steps, after any prefix.
func TestAppendBase64URL(t *testing.T) {
	src := make([]byte, 100)
	for i := range src {
		src[i] = byte(i*151 + 7)
	}
	for n := range len(src) + 1 {
		for _, prefix := range []string{"", "eyJhbGciOiJFZERTQSJ9."} {
			want := base64.RawURLEncoding.AppendEncode([]byte(prefix), src[:n])
			if got := appendBase64URL([]byte(prefix), src[:n]); string(got) != string(want) {
				t.Fatalf("%d bytes: %s, want %s", n, got, want)
			}
		}
	}
}

// FuzzAppendBase64URL: appendBase64URL writes what
// base64.RawURLEncoding.AppendEncode writes, for any bytes after any
// prefix.
func FuzzAppendBase64URL(f *testing.F) {
	f.Add([]byte(""), []byte(`{"name":"agent"}`))
	f.Add([]byte("eyJhbGciOiJFZERTQSJ9."), []byte("\x00\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\x80\x7f"))
	f.Add([]byte("x"), []byte(strings.Repeat("\xfb\xff", 40)))
	f.Fuzz(func(t *testing.T, prefix, src []byte) {
		want := base64.RawURLEncoding.AppendEncode(append([]byte(nil), prefix...), src)
		if got := appendBase64URL(append([]byte(nil), prefix...), src); string(got) != string(want) {
			t.Fatalf("appendBase64URL(%q) = %s, want %s", src, got, want)
		}
	})
}
