package secret

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"html/template"
	"strings"
	"testing"
)

// BenchmarkScan scans pages and cards like those a build writes (html/template
// prose, card JSON with base64url signatures) with a Scanner holding an
// Ed25519, a P-256 and an RSA key; MB/s is per core.
func BenchmarkScan(b *testing.B) {
	k := testKeys()
	s, err := NewScanner([]crypto.Signer{k.ed, k.ec, k.rsa}, "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI")
	if err != nil {
		b.Fatal(err)
	}
	prose := strings.Repeat("Plans multi-city trips, books hotels & flights, and checks visas — for \"travellers\" <everywhere>, naïve 東京 Überprüfung. ", 8)
	var html bytes.Buffer
	tpl := template.Must(template.New("p").Parse(`<section><h2 id="{{.ID}}">{{.Name}}</h2><p>{{.Desc}}</p><ul>{{range .Tags}}<li>{{.}}</li>{{end}}</ul><a href="/agents/{{.ID}}/.well-known/agent-card.json">card</a></section>` + "\n"))
	for i := 0; html.Len() < 4<<20; i++ {
		tpl.Execute(&html, map[string]any{"ID": fmt.Sprintf("agent-%d", i), "Name": fmt.Sprintf("Agent %d", i), "Desc": prose, "Tags": []string{"travel", "booking", "visa"}})
	}
	var cards bytes.Buffer
	for i := 0; cards.Len() < 4<<20; i++ {
		sig := base64.RawURLEncoding.EncodeToString(ed25519.Sign(k.ed, []byte(fmt.Sprint(i))))
		prot := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"EdDSA","jku":"https://agents.example.com/.well-known/jwks.json","kid":"eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM","typ":"JOSE"}`))
		fmt.Fprintf(&cards, `{"name": "Agent %d", "description": %q, "supportedInterfaces": [{"url": "https://a%d.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}], "skills": [{"id": "s", "name": "S", "description": "Does it.", "tags": ["a", "b"]}], "signatures": [{"protected": "%s", "signature": "%s"}]}`+"\n", i, prose, i, prot, sig)
	}
	for _, in := range []struct {
		name string
		data []byte
	}{{"page.html", html.Bytes()}, {"agent-card.json", cards.Bytes()}} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			for range b.N {
				if f, ok := s.Scan(in.name, in.data); ok {
					b.Fatalf("flagged %+v", f)
				}
			}
		})
	}
}

// BenchmarkInTextShort is InText on the kind of string a manifest holds
// tens of thousands of: a sentence with no secret in it.
func BenchmarkInTextShort(b *testing.B) {
	s := "Plans multi-city trips, books hotels and flights, and checks visa rules for travellers everywhere."
	for range b.N {
		if _, ok := InText(s); ok {
			b.Fatal("flagged")
		}
	}
}
