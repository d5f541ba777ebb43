package secret

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
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

// cardStrings are the strings of one agent's card as testdata/bench/gen
// writes it (agent-0 and agent-1 of its manifest): prose, names, ids,
// tags, URLs and media types, the common case of InText, without a
// secret.
var cardStrings = []string{
	"agent-0", "Partner Sample Operator", "1.0.4",
	"Increase true budget goal sales regular listen. Analyse place control adjust export range. Valid intent office product limit account part under queue benefit free term. Queue anyone period holiday turn moment survey ship show survey power either care obtain wait single.\n\nGuest remote sales bundle data share minute release set route. Recent aware often family claim either daily billing handle period staff collect money. Double exchange member output write watch enter global. Refund test grow column.\n\nIt can:\n\n- Sample event billing level.\n- Strong heavy large trend.\n- Near message batch advance.",
	"text/plain", "application/json", "Summit Software", "https://provider-15.example.com",
	"https://agent-0.example.com/a2a", "JSONRPC", "1.0", "https://agent-0.example.com/rest", "HTTP+JSON",
	"apiKey", "API key issued in the provider's console", "header", "X-API-Key",
	"find-workflows-0", "Find workflows", "Approve set settle trip combine urgent priority peak install trial. Domain member special period month budget. Hold image require turn strong raise data research chart happen task.",
	"summarization", "sales", "code-review", "Find the workflows of the easy team for this week.", "Can you find all workflows that mention draft and feature?",
	"cancel-events-2", "Cancel events", "Quarter user position within amount close. Watch long contract house margin settle describe rely evaluate plan total session. Arrange center **digest** first begin yield register.",
	"public-sector", "procurement", "testing", "Cancel the events of the check team for this month.", "Can you cancel all events that mention arrange and equal?",
	"oauth2", "OAuth 2.0 client credentials", "https://auth.example.com/token", "Read access", "Write access",
	"generate-suppliers-0", "Generate suppliers", "Able propose improve annual above predict. Issue main purpose through fix weather agree queue after warehouse. Network month fair word sequence below able.",
	"bookkeeping", "question-answering", "asset-management", "Generate the suppliers of the power team for this quarter.",
	"eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM",
}

// BenchmarkInTextCard is InText on every string of a card like those the
// bench generator writes: lint calls it on each (an op is the whole card).
func BenchmarkInTextCard(b *testing.B) {
	n := 0
	for _, s := range cardStrings {
		n += len(s)
	}
	b.SetBytes(int64(n))
	for range b.N {
		for _, s := range cardStrings {
			if f, ok := InText(s); ok {
				b.Fatalf("%q flagged %+v", s, f)
			}
		}
	}
}

// BenchmarkScanAgentFiles scans the three files a build writes for each
// agent (testdata/site: its page, its card and the card's SDK
// projection, agent 1 of a manifest from testdata/bench/gen), with a
// Scanner holding an Ed25519 key, as a build's development key; an op is
// the three files.
func BenchmarkScanAgentFiles(b *testing.B) {
	s, err := NewScanner([]crypto.Signer{ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))})
	if err != nil {
		b.Fatal(err)
	}
	var files []struct {
		name string
		data []byte
	}
	n := 0
	for _, name := range []string{"index.html", "agent-card.json", "agent.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "site", name))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, struct {
			name string
			data []byte
		}{"agents/agent-1/" + name, data})
		n += len(data)
	}
	b.SetBytes(int64(n))
	for range b.N {
		for _, f := range files {
			if found, ok := s.Scan(f.name, f.data); ok {
				b.Fatalf("%s flagged %+v", f.name, found)
			}
		}
	}
}
