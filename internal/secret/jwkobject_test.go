package secret

import (
	"encoding/base64"
	"encoding/json"
	"html/template"
	"math/rand"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestJWKTextSameObject holds jwkText to a private member of the kty's
// own object, wherever it stands in it, and to nothing in a neighbour.
func TestJWKTextSameObject(t *testing.T) {
	d := strings.Repeat("A", 43)
	found := map[string]string{
		"d last":          `{"kty":"EC","crv":"P-256","x":"` + d + `","y":"` + d + `","d":"` + d + `"}`,
		"d first":         `{"d":"` + d + `","crv":"P-256","kty":"EC","x":"` + d + `"}`,
		"second of jwks":  `{"keys":[{"kty":"EC","x":"` + d + `"},{"kty":"EC","x":"` + d + `","d":"` + d + `"}]}`,
		"nested between":  `{"kty":"RSA","n":"` + d + `","oth":[{"r":"` + d + `","t":"` + d + `"}],"q":"` + d + `"}`,
		"escaped in json": `{"config":"{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"` + d + `\"}"}`,
		"toml inline":     `signing = { kty = "OKP", crv = "Ed25519", x = "` + d + `", d = "` + d + `" }`,
		"toml table":      "[jwk]\nkty = \"OKP\"\ncrv = \"Ed25519\"\nd = \"" + d + "\"\n",
		"after a query":   `{"q": "weather"} then {"kty":"EC","d":"` + d + `"}`,
		// Braces in a key's text do not hide its key material.
		"brace in a note":   `{"kty":"EC","crv":"P-256","x":"` + d + `","use":"sig", "note":"rotate by }", "d":"` + d + `"}`,
		"brace in kid":      `{"kty":"EC","kid":"key{1","d":"` + d + `"}`,
		"closing kid":       `{"kty":"EC","kid":"}","d":"` + d + `"}`,
		"braces before kty": `{"d":"` + d + `","note":"}{","kty":"EC"}`,
		"toml brace":        "[jwk]\nkty = \"EC\"\nkid = \"{\"\nd = \"" + d + "\"\n",
		"toml comment":      "kty = \"EC\" # {\nd = \"" + d + "\"\n",
		"json in json":      `{"doc":"see {\"kty\":\"EC\",\"kid\":\"}\",\"d\":\"` + d + `\"}"}`,
		"oct k":             `{"kty":"oct","alg":"HS256","note":"}","k":"` + d[:22] + `"}`,
		"short oct k":       `{"kty":"oct","kid":"}","k":"c2VjcmV0"}`,
		"escaped line":      `{"kty":"OKP","kid":"}","crv":"Ed25519","d":"\n` + d + `"}`,
		"single quotes":     `{'kty':'EC','kid':'}','d':'` + d + `'}`,
		"apostrophe before": `Here's our key: {"kty":"EC","kid":"{","d":"` + d + `"}`,
	}
	for name, text := range found {
		if _, ok := jwkText([]byte(text)); !ok {
			t.Errorf("%s: not found in %s", name, text)
		}
		if _, ok := jwkTextReference([]byte(text)); !ok {
			t.Errorf("%s: the reference does not find it in %s", name, text)
		}
	}
	apart := map[string]string{
		"query after":   `{"kty":"EC","x":"` + d + `","y":"` + d + `"} and {"q": "weather"}`,
		"query before":  `{"q": "weather", "k": "5"} {"kty":"OKP","x":"` + d + `"}`,
		"nested query":  `{"kty":"EC","x":"` + d + `","example":{"d":"2026-01-01"}}`,
		"long query":    `{"kty":"EC","x":"` + d + `"} {"q": "weather in paris tomorrow morning", "p": "20"}`,
		"short d apart": `"kty":"EC","x":"` + d + `"} "d":"2026-01-01"`,
		"brace word":    `{"kty":"EC","x":"` + d + `","kid":"a}b"} {"d":"2024-01-01 daily"}`,
	}
	for name, text := range apart {
		if f, ok := jwkText([]byte(text)); ok {
			t.Errorf("%s: found %v in %s", name, f, text)
		}
	}
}

// FuzzObjectsAt holds objectsAt to sameObject: two offsets share an
// object number exactly when the plain reading says they are in the same
// object, braces in strings and comments left out.
func FuzzObjectsAt(f *testing.F) {
	for _, s := range []string{`{"a":{"b":1},"c":2}`, `}{`, `{{}}}{`, `x{y}z`, `{"kty":"EC"} {"d":"x"}`,
		`{"a":"}","b":'{'} # {` + "\n}", `"\"}" '\'' "{` + "\n\"}", `a #{ b` + "\n" + `c'{'d"}"`} {
		f.Add(s, int64(1))
	}
	f.Fuzz(func(t *testing.T, s string, seed int64) {
		data := []byte(s)
		if len(data) == 0 {
			return
		}
		r := rand.New(rand.NewSource(seed))
		at := make([]int, 1+r.Intn(8))
		for i := range at {
			at[i] = r.Intn(len(data))
		}
		slices.Sort(at)
		ids := objectsAt(data, at)
		for i := range at {
			for j := range at {
				if got, want := ids[i] == ids[j], sameObject(data, at[i], at[j]); got != want {
					b, _ := json.Marshal(s)
					t.Fatalf("%s: offsets %d and %d: same object %v, want %v", b, at[i], at[j], got, want)
				}
			}
		}
	})
}

// TestScanFindsJWKWithBraces: a private JWK with a brace in its text is
// found in a page and a JSON file as it is, entity-escaped, base64- and
// percent-encoded.
func TestScanFindsJWKWithBraces(t *testing.T) {
	d := "3q2-7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho"
	jwk := `{"kty":"EC","crv":"P-256","kid":"}","x":"` + d + `","y":"` + d + `","d":"` + d + `"}`
	s := otherKeyScanner(t)
	for name, text := range map[string]string{
		"plain":   jwk,
		"entity":  template.HTMLEscapeString(jwk),
		"base64":  base64.StdEncoding.EncodeToString([]byte(jwk)),
		"percent": url.QueryEscape(jwk),
	} {
		for _, file := range []string{"docs/x/index.html", "x.json"} {
			data := []byte("<p>Our key:</p><pre>" + text + "</pre>")
			if file == "x.json" {
				data, _ = json.Marshal(map[string]string{"description": "Our key: " + text})
			}
			if _, ok := s.Scan(file, data); !ok {
				t.Errorf("Scan %s %s: not found", name, file)
			}
		}
	}
}

// TestScanFindsShortJWKDecodedInString: a JWK with a short secret (an
// oct key's k of 8 characters, no key material by its length) decoded
// inside a JSON file's string, where its quotes pair with the string's
// own, is found.
func TestScanFindsShortJWKDecodedInString(t *testing.T) {
	jwk := `{"kty":"oct","alg":"HS256","k":"c2VjcmV0"}`
	s := otherKeyScanner(t)
	for name, text := range map[string]string{
		"plain":   jwk,
		"percent": url.QueryEscape(jwk),
		"path":    url.PathEscape(jwk),
	} {
		data, _ := json.Marshal(map[string]string{"description": "Our key: " + text + " (rotate it)"})
		if _, ok := s.Scan("x.json", data); !ok {
			t.Errorf("Scan %s x.json: not found in %s", name, data)
		}
	}
}
