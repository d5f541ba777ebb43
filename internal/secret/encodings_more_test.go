package secret

// Forms of a private key a review found the scan missed although
// site/docs/build.md or manifest.md says it finds them (each test failed
// at b4d1c9a): HTML5 named references, a JWK entity-escaped in a card's
// string, a JWK JSON-escaped twice, base64 of base64 before a short word.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"testing"
)

// InText reads base64 of base64 of a PEM file in a sentence only when
// the word after the blob makes the joined run decode to something that
// is not text: layers' new "cut" fallback runs only when decodeText of
// the whole run fails, not when it succeeds but holds nothing.
func TestInTextBase64TwiceBeforeAWord(t *testing.T) {
	pems, _ := encodedKeys(t)
	b := base64.StdEncoding.EncodeToString
	missed := 0
	for name, p := range pems {
		// A file whose length, and its base64's, are multiples of 3 (no
		// padding in either layer): one or two more line breaks at its end.
		for len(p)%3 != 0 || len(b([]byte(p)))%3 != 0 {
			p += "\n"
		}
		for _, word := range strings.Fields("a an and are as at be by do end for go he if in is it me my no of on or so the to up us we you key use run see now new old") {
			s := "Config blob: " + b([]byte(b([]byte(p)))) + " " + word + " of config."
			if _, ok := InText(s); !ok {
				missed++
				t.Errorf("%s, followed by %q: base64 of base64 of a PEM file not found", name, word)
			}
		}
	}
	if missed > 0 {
		t.Logf("%d of %d (key, word) pairs missed", missed, len(pems)*44)
	}
}

// HTML5 named character references (PHP's htmlentities with ENT_HTML5
// writes them) are not decoded: &plus; &sol; &equals; split a base64
// run, &colon; hides a JWK's member separator; a browser shows the key.
func TestScanNamedReferences(t *testing.T) {
	k := testKeys()
	s, _ := NewScanner(nil)
	der := base64.StdEncoding.EncodeToString(pkcs8(t, k.rsa))
	named := strings.NewReplacer("+", "&plus;", "/", "&sol;", "=", "&equals;", ":", "&colon;", `"`, "&quot;", ",", "&comma;")
	_, jwks := encodedKeys(t)
	cases := map[string]string{
		"DER base64": "<p>" + named.Replace(der) + "</p>",
		"JWK":        "<p>" + named.Replace(jwks["RSA"]) + "</p>",
		// No ';' where no digit follows: browsers still decode it (a digit
		// would be read as part of the number, by browsers too).
		"DER &#43": "<p>" + refsWithoutSemicolon(der) + "</p>",
	}
	for name, page := range cases {
		if _, ok := s.Scan("index.html", []byte(page)); !ok {
			t.Errorf("%s with HTML5 named references: not found", name)
		}
	}
}

// A JWK entity-escaped (as in HTML source) in a string of agents.toml
// reaches the card JSON as &quot;kty&quot;... and the agent page as
// &amp;quot;kty...: Scan reads a JSON file's strings for a JWK without
// decoding their references (jwkValue), and drops the text detector once
// the file decodes (textJWK = false), so neither file is refused.
func TestScanEntityEscapedJWKInCard(t *testing.T) {
	_, jwks := encodedKeys(t)
	s, _ := NewScanner(nil)
	for name, j := range jwks {
		card, _ := json.Marshal(map[string]any{"name": "a", "skills": []any{map[string]any{"examples": []string{"Use the key " + html.EscapeString(j)}}}})
		card = []byte(strings.ReplaceAll(string(card), `\u0026`, "&")) // as the build writes it
		if _, ok := s.Scan("agents/a/.well-known/agent-card.json", card); !ok {
			t.Errorf("%s: entity-escaped JWK in a card string not found", name)
		}
	}
}

// A JWK JSON-escaped twice ({\\\"kty\\\":...}, a JSON string inside a
// JSON string, as a log line or an event body shows it) in a page: the
// JSON view is read only for \u00XX or \/, not \\\".
func TestScanJWKEscapedTwice(t *testing.T) {
	_, jwks := encodedKeys(t)
	s, _ := NewScanner(nil)
	for name, j := range jwks {
		once, _ := json.Marshal(j)
		twice, _ := json.Marshal(string(once))
		page := fmt.Sprintf("<pre><code>%s</code></pre>", html.EscapeString(string(twice)))
		if _, ok := s.Scan("docs/log/index.html", []byte(page)); !ok {
			t.Errorf("%s: JWK JSON-escaped twice not found", name)
		}
		if _, ok := InText(string(twice)); !ok {
			t.Errorf("%s: InText: JWK JSON-escaped twice not found", name)
		}
	}
}

// refsWithoutSemicolon writes s's '+' and '/' as numeric character
// references, without their ';' unless a digit follows.
func refsWithoutSemicolon(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ref := map[byte]string{'+': "&#43", '/': "&#47"}[s[i]]
		if ref == "" {
			b.WriteByte(s[i])
			continue
		}
		b.WriteString(ref)
		if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			b.WriteByte(';')
		}
	}
	return b.String()
}
