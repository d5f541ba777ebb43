package verify

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"

	"github.com/agentcards/agentcards/internal/fetch"
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

func TestParseJWKSRefusals(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(nil)
	privJWK, _ := jose.JSONWebKey{Key: priv, KeyID: "p", Algorithm: "EdDSA"}.MarshalJSON()
	pubJWK, _ := jose.JSONWebKey{Key: priv.Public(), KeyID: "ok", Algorithm: "EdDSA"}.MarshalJSON()
	noAlg, _ := jose.JSONWebKey{Key: priv.Public(), KeyID: "noalg"}.MarshalJSON()
	doc := `{"keys":[` + string(privJWK) + `,` + string(pubJWK) + `,` + string(noAlg) + `]}`
	set, problems, err := ParseJWKS([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Keys) != 1 || set.Keys[0].KeyID != "ok" {
		t.Errorf("trusted %v", set.Keys)
	}
	all := strings.Join(problems, "\n")
	if !strings.Contains(all, `kid "p") carries private key material`) || !strings.Contains(all, `kid "noalg"): no alg`) {
		t.Errorf("problems: %s", all)
	}
}
