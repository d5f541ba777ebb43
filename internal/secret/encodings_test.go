package secret

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"net/url"
	"strings"
	"testing"
)

// encodedKeys are the private keys of testKeys as people paste them: PEM
// files of every kind a build could hold, and private JWKs.
func encodedKeys(t testing.TB) (pems, jwks map[string]string) {
	k := testKeys()
	sec1, err := x509.MarshalECPrivateKey(k.ec)
	if err != nil {
		t.Fatal(err)
	}
	pemOf := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	pems = map[string]string{
		"EC":            pemOf("EC PRIVATE KEY", sec1),
		"PKCS8 P-256":   pemOf("PRIVATE KEY", pkcs8(t, k.ec)),
		"RSA":           pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(k.rsa)),
		"PKCS8 RSA":     pemOf("PRIVATE KEY", pkcs8(t, k.rsa)),
		"PKCS8 Ed25519": pemOf("PRIVATE KEY", pkcs8(t, k.ed)),
	}
	u := base64.RawURLEncoding.EncodeToString
	d, _ := k.ec.Bytes()
	pub, _ := k.ec.PublicKey.Bytes()
	jwks = map[string]string{
		"EC":  fmt.Sprintf(`{"kty":"EC","crv":"P-256","x":"%s","y":"%s","d":"%s"}`, u(pub[1:33]), u(pub[33:]), u(d)),
		"OKP": fmt.Sprintf(`{"kty":"OKP","crv":"Ed25519","x":"%s","d":"%s"}`, u(k.ed.Public().(ed25519.PublicKey)), u(k.ed.Seed())),
		"RSA": fmt.Sprintf(`{"kty":"RSA","n":"%s","e":"AQAB","d":"%s","p":"%s","q":"%s"}`, u(k.rsa.N.Bytes()), u(k.rsa.D.Bytes()), u(k.rsa.Primes[0].Bytes()), u(k.rsa.Primes[1].Bytes())),
	}
	return pems, jwks
}

// escapeNames writes the JSON member names kty and d (or every member
// name, when all is set) with \u escapes.
func escapeNames(jwk string, all bool) string {
	var b strings.Builder
	parts := strings.Split(jwk, `"`)
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('"')
		}
		name := i%2 == 1 && i+1 < len(parts) && strings.HasPrefix(parts[i+1], ":")
		switch {
		case name && all:
			for _, c := range p {
				fmt.Fprintf(&b, `\u%04x`, c)
			}
		case name && p == "kty":
			b.WriteString(`\u006bty`)
		case name && p == "d":
			b.WriteString(`\u0064`)
		default:
			b.WriteString(p)
		}
	}
	return b.String()
}

// lowerEscapes writes the hex digits of every percent escape in lower case.
func lowerEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = bytes.ToLower(b[i+1 : i+2])[0], bytes.ToLower(b[i+2 : i+3])[0]
		}
	}
	return string(b)
}

// encodedForms are the ways a key file's text is pasted encoded: base64
// in its alphabets and wrappings (with line breaks, HTML's, Markdown's
// hard ones), two layers of it, percent-encoding as url.QueryEscape and
// url.PathEscape write it (and in lower case, twice, and of base64), and
// JSON's \u escapes; and the file's own lines joined by <br>.
func encodedForms() map[string]func(string) string {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return map[string]func(string) string{
		"base64":                       func(s string) string { return b64(s) },
		"base64 wrapped at 76":         func(s string) string { return wrap(b64(s), 76, "\n") },
		"base64 wrapped at 64":         func(s string) string { return wrap(b64(s), 64, "\r\n") },
		"base64url":                    func(s string) string { return base64.URLEncoding.EncodeToString([]byte(s)) },
		"base64 of base64":             func(s string) string { return b64(b64(s)) },
		"base64 in a sentence":         func(s string) string { return "Set KEY to " + b64(s) + " before you start." },
		"query-escaped":                url.QueryEscape,
		"path-escaped":                 url.PathEscape,
		"query-escaped, %2b":           func(s string) string { return lowerEscapes(url.QueryEscape(s)) },
		"query-escaped twice":          func(s string) string { return url.QueryEscape(url.QueryEscape(s)) },
		"query-escaped base64":         func(s string) string { return url.QueryEscape(b64(s)) },
		"in a URL query":               func(s string) string { return "https://vault.example.com/import?key=" + url.QueryEscape(s) + "&v=2" },
		"lines joined by <br>":         func(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "<br>\n") },
		"base64, lines joined by <br>": func(s string) string { return wrap(b64(s), 76, "<br>\n") },
		"in a JSON string": func(s string) string {
			b, _ := json.Marshal(map[string]string{"env": "prod", "key": s})
			return string(b)
		},
		"base64 of JSON-escaped": func(s string) string {
			b, _ := json.Marshal(map[string]string{"key": s})
			return b64(string(bytes.ReplaceAll(b, []byte("/"), []byte(`\/`))))
		},
		"every byte \\u-escaped": func(s string) string {
			var b strings.Builder
			for _, c := range s {
				fmt.Fprintf(&b, `\u%04x`, c)
			}
			return b.String()
		},
	}
}

// containers put a text where a build publishes it: in a page (as
// html/template writes it, '+' as &#43; and quotes as &#34;), and in a
// JSON file's string (as encoding/json writes it, line breaks as \n).
func containers(t testing.TB) map[string]func(string) (string, []byte) {
	page := template.Must(template.New("p").Parse("<!doctype html>\n<main><h1>Notes</h1>\n<p>{{.}}</p>\n</main>\n"))
	return map[string]func(string) (string, []byte){
		"page": func(s string) (string, []byte) {
			var b bytes.Buffer
			if err := page.Execute(&b, s); err != nil {
				t.Fatal(err)
			}
			return "notes/index.html", b.Bytes()
		},
		"JSON": func(s string) (string, []byte) {
			b, err := json.Marshal(map[string]any{"name": "Notes", "description": s})
			if err != nil {
				t.Fatal(err)
			}
			return "agents/x/.well-known/agent-card.json", b
		},
	}
}

// otherKeyScanner is a Scanner like a build's that holds a key other than
// the ones pasted: what it finds, it finds by their form alone.
func otherKeyScanner(t testing.TB) *Scanner {
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScanner([]crypto.Signer{ed})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestScanFindsEncodedKeys: a private key's PEM file or private JWK,
// base64-encoded (one or two layers, any alphabet, wrapped or not),
// percent-encoded (query or path style, upper or lower case, once or
// twice, or of its base64) or written with JSON \u escapes, is found in a
// page and in a JSON file.
func TestScanFindsEncodedKeys(t *testing.T) {
	s := otherKeyScanner(t)
	pems, jwks := encodedKeys(t)
	texts := map[string]string{}
	for name, p := range pems {
		texts["PEM "+name] = p
	}
	for name, j := range jwks {
		texts["JWK "+name] = j
	}
	for tname, text := range texts {
		for fname, form := range encodedForms() {
			if fname == "base64, lines joined by <br>" && strings.HasPrefix(tname, "JWK") {
				// Each line is read alone: kty and d are in different ones.
				continue
			}
			for cname, put := range containers(t) {
				t.Run(tname+"/"+fname+"/"+cname, func(t *testing.T) {
					file, data := put(form(text))
					if f, ok := s.Scan(file, data); !ok {
						t.Errorf("missed in %s", data[:min(len(data), 200)])
					} else if f.Kind == "" {
						t.Errorf("no kind: %+v", f)
					}
				})
			}
		}
	}
}

// TestScanFindsEscapedJWKNames: a private JWK whose member names are
// written with JSON escapes ("\u006bty", "\u0064") is found as a JSON
// file, as JSON text in a page, inside a JSON string, and base64-encoded.
func TestScanFindsEscapedJWKNames(t *testing.T) {
	s := otherKeyScanner(t)
	_, jwks := encodedKeys(t)
	for name, jwk := range jwks {
		for _, all := range []bool{false, true} {
			esc := escapeNames(jwk, all)
			if strings.Contains(esc, `"kty"`) || strings.Contains(esc, `"d"`) {
				t.Fatalf("names not escaped: %s", esc)
			}
			var decoded map[string]any
			if err := json.Unmarshal([]byte(esc), &decoded); err != nil || !IsPrivateJWK(decoded) {
				t.Fatalf("%s does not decode to a private JWK: %v", esc, err)
			}
			cases := map[string][]byte{
				"x.json":                       []byte(esc),
				"jwks.json":                    []byte(`{"keys": [` + esc + `]}`),
				"notes/index.html":             []byte("<pre><code>" + template.HTMLEscapeString(esc) + "</code></pre>"),
				"agents/x/agent-card.json":     must(json.Marshal(map[string]string{"description": "Key: " + esc})),
				"agents/x/base64-in-card.json": must(json.Marshal(map[string]string{"description": base64.StdEncoding.EncodeToString([]byte(esc))})),
			}
			for file, data := range cases {
				t.Run(fmt.Sprintf("%s/all=%v/%s", name, all, file), func(t *testing.T) {
					if f, ok := s.Scan(file, data); !ok {
						t.Errorf("missed in %s", data)
					} else if !strings.Contains(f.Kind, "JSON Web Key") {
						t.Errorf("found %+v", f)
					}
				})
			}
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestInTextFindsPercentAndEscapedKeys: InText (the manifest's and the
// linter's check) finds a PEM file or private JWK percent-encoded or
// written with JSON \u escapes, as a string of agents.toml holds it, and
// base64 of one followed by more words.
func TestInTextFindsPercentAndEscapedKeys(t *testing.T) {
	pems, jwks := encodedKeys(t)
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	forms := map[string]func(string) string{
		"query-escaped":        url.QueryEscape,
		"path-escaped":         url.PathEscape,
		"query-escaped, %2b":   func(s string) string { return lowerEscapes(url.QueryEscape(s)) },
		"query-escaped twice":  func(s string) string { return url.QueryEscape(url.QueryEscape(s)) },
		"in a URL":             func(s string) string { return "https://vault.example.com/import?key=" + url.QueryEscape(s) },
		"base64, then words":   func(s string) string { return "Set KEY to " + b64(s) + " before you start." },
		"base64url, then word": func(s string) string { return base64.URLEncoding.EncodeToString([]byte(s)) + " thanks" },
	}
	for name, p := range pems {
		for fname, form := range forms {
			if f, ok := InText(form(p)); !ok || f.Kind == "" {
				t.Errorf("PEM %s, %s: %+v %v", name, fname, f, ok)
			}
		}
	}
	for name, j := range jwks {
		for fname, text := range map[string]string{
			"query-escaped":      url.QueryEscape(j),
			"path-escaped":       url.PathEscape(j),
			"names escaped":      escapeNames(j, false),
			"every name escaped": escapeNames(j, true),
			"base64, then words": b64(j) + " is the key",
			"in a JSON string":   string(must(json.Marshal(map[string]string{"KEY": j}))),
		} {
			if f, ok := InText(text); !ok || !strings.Contains(f.Kind, "JSON Web Key") {
				t.Errorf("JWK %s, %s: %+v %v", name, fname, f, ok)
			}
		}
	}
}

// TestScanLeavesEncodedBenignAlone: what looks encoded on ordinary pages
// and cards, and public keys in the same encodings, is not flagged.
func TestScanLeavesEncodedBenignAlone(t *testing.T) {
	s := otherKeyScanner(t)
	k := testKeys()
	img := image.NewRGBA(image.Rect(0, 0, 24, 24))
	for i := range 24 {
		img.Set(i, i, color.RGBA{R: uint8(i * 10), G: 200, B: 30, A: 255})
	}
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 3000)
	rand.Read(random)
	sum := sha256.Sum256([]byte("agent card"))
	u := base64.RawURLEncoding.EncodeToString
	b64 := base64.StdEncoding.EncodeToString
	jwt := u([]byte(`{"alg":"ES256","typ":"JWT","kid":"k1"}`)) + "." + u([]byte(`{"sub":"agent-7","iss":"https://auth.example.com","exp":1900000000}`)) + "." + u(random[:64])
	pubDER, _ := x509.MarshalPKIXPublicKey(k.ec.Public())
	pubPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))
	certPEM := "-----BEGIN CERTIFICATE-----\n" + wrap(b64(random[:600]), 64, "\n") + "\n-----END CERTIFICATE-----\n"
	pubJWK := fmt.Sprintf(`{"kty":"EC","crv":"P-256","x":"%s","y":"%s","kid":"k1","use":"sig"}`, u(pubDER[27:59]), u(pubDER[59:]))
	for name, text := range map[string]string{
		"PNG data URI":            "data:image/png;base64," + b64(pngData.Bytes()),
		"random base64, wrapped":  wrap(b64(random), 76, "\n"),
		"JWT":                     jwt,
		"base64 of a JWT":         b64([]byte(jwt)),
		"SHA-256 in base64":       b64(sum[:]),
		"SHA-256 in base64url":    u(sum[:]),
		"percent-encoded URL":     "https://example.com/search?q=hello%20world&redirect=https%3A%2F%2Fapp.example.com%2Fcb%3Fx%3D1&t=%22quoted%22",
		"encoded path":            "https://docs.example.com/My%20Guide%2FPart%201.pdf",
		"UTF-8 percent-encoded":   "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC%E9%83%BD",
		"mailto with line breaks": "mailto:ops@example.com?subject=Key%20rotation&body=Hello%2C%0D%0Aplease%20rotate.%0D%0AThanks",
		"public PEM":              pubPEM,
		"public PEM, base64":      b64([]byte(pubPEM)),
		"public PEM, escaped":     url.QueryEscape(pubPEM),
		"certificate, base64":     b64([]byte(certPEM)),
		"certificate, escaped":    url.QueryEscape(certPEM),
		"public JWK, base64":      b64([]byte(pubJWK)),
		"public JWK, escaped":     url.QueryEscape(pubJWK),
		"public JWK, \\u names":   escapeNames(pubJWK, true),
		"JSON with escapes":       `{"note":"Tom \u0026 Jerry \u003cb\u003e","path":"a\/b","text":"line\nnext \"quoted\""}`,
		"SVG data URI":            "data:image/svg+xml;base64," + b64([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 2 L22 22 L2 22 Z" fill="#1f6feb"/><text x="4" y="20">ok</text></svg>`)),
		"JWS protected header":    u([]byte(`{"alg":"ES256","jku":"https://agents.example.com/.well-known/jwks.json","kid":"k1","typ":"JOSE"}`)),
		"base64 of prose":         wrap(b64([]byte(strings.Repeat("Plans trips, books hotels & flights, checks visas. ", 20))), 76, "\n"),
		"kty in a query":          "https://example.com/search?query=%22kty%22%3A%22EC%22+jwk",
		"prose with escapes":      `Write \u0041 for A, %41 for A in a URL, and a d: "4" grade.`,
	} {
		for cname, put := range containers(t) {
			file, data := put(text)
			if f, ok := s.Scan(file, data); ok {
				t.Errorf("%s in a %s: flagged %+v", name, cname, f)
			}
		}
		if f, ok := InText(text); ok && !strings.Contains(name, "JWT") {
			t.Errorf("%s: InText flagged %+v", name, f)
		}
	}
}
