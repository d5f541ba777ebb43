package trust

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
)

func TestParseJWKSRefusals(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(nil)
	privJWK, _ := jose.JSONWebKey{Key: priv, KeyID: "p", Algorithm: "EdDSA"}.MarshalJSON()
	pubJWK, _ := jose.JSONWebKey{Key: priv.Public(), KeyID: "ok", Algorithm: "EdDSA"}.MarshalJSON()
	noAlg, _ := jose.JSONWebKey{Key: priv.Public(), KeyID: "noalg"}.MarshalJSON()
	doc := `{"keys":[` + string(privJWK) + `,` + string(pubJWK) + `,` + string(noAlg) + `]}`
	set, problems, leaked, err := ParseJWKS([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(leaked) != 1 || !strings.Contains(leaked[0], `kid "p"`) {
		t.Errorf("leaked %v", leaked)
	}
	if len(set.Keys) != 1 || set.Keys[0].KeyID != "ok" {
		t.Errorf("trusted %v", set.Keys)
	}
	all := strings.Join(problems, "\n")
	if !strings.Contains(all, `kid "p") carries private key material`) || !strings.Contains(all, `kid "noalg"): no alg`) {
		t.Errorf("problems: %s", all)
	}
}

func TestSameURL(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://A.example.com/.well-known/jwks.json", "https://a.example.com:443/.well-known/jwks.json", true},
		{"https://a.example.com/x", "https://a.example.com/y", false},
		{"http://localhost/x", "http://127.0.0.1/x", false},
	} {
		if got := SameURL(tc.a, tc.b); got != tc.want {
			t.Errorf("SameURL(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}
