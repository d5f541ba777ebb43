package secret

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"sync"
	"testing"
)

// testKeys are made once: RSA key generation is slow.
var testKeys = sync.OnceValue(func() (k struct {
	ed  ed25519.PrivateKey
	ec  *ecdsa.PrivateKey
	rsa *rsa.PrivateKey
}) {
	_, k.ed, _ = ed25519.GenerateKey(rand.Reader)
	k.ec, _ = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	k.rsa, _ = rsa.GenerateKey(rand.Reader, 2048)
	return k
})

func pkcs8(t testing.TB, k crypto.Signer) []byte {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// wrap cuts s into lines of n characters joined by sep.
func wrap(s string, n int, sep string) string {
	var b strings.Builder
	for i := 0; i < len(s); i += n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s[i:min(i+n, len(s))])
	}
	return b.String()
}

func TestInTextFinds(t *testing.T) {
	k := testKeys()
	ec1, _ := x509.MarshalECPrivateKey(k.ec)
	rsa1 := x509.MarshalPKCS1PrivateKey(k.rsa)
	b64 := base64.StdEncoding.EncodeToString
	url := base64.RawURLEncoding.EncodeToString
	pemOf := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	rsaPEM := pemOf("RSA PRIVATE KEY", rsa1)
	jsonPEM, _ := json.Marshal(map[string]string{"key": pemOf("PRIVATE KEY", pkcs8(t, k.ed))})
	cases := map[string]struct{ text, kind string }{
		"PKCS8 PEM":              {pemOf("PRIVATE KEY", pkcs8(t, k.ed)), "PEM private key"},
		"RSA PEM":                {rsaPEM, "PEM private key"},
		"EC PEM":                 {pemOf("EC PRIVATE KEY", ec1), "PEM private key"},
		"OpenSSH armour":         {"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "PEM private key"},
		"encrypted PEM":          {"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n", "PEM private key"},
		"DSA PEM":                {"-----BEGIN DSA PRIVATE KEY-----\nMIIBuwIBAAKBgQ\n", "PEM private key"},
		"PGP":                    {"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF", "PEM private key"},
		"PEM in a JSON string":   {string(jsonPEM), "PEM private key"},
		"JWK as JSON":            {`{"kty":"OKP","crv":"Ed25519","x":"LDCm","d":"cvwI"}`, "private JSON Web Key"},
		"JWK in a JWKS":          {`{"keys":[{"kty":"RSA","n":"0vx7","e":"AQAB","p":"83i-","q":"3dfO"}]}`, "private JSON Web Key"},
		"JWK in a JSON string":   {`{"env":"prod","JWK":"{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"LDCm\",\"d\":\"cvwI\"}"}`, "private JSON Web Key"},
		"oct JWK as TOML":        {`{kty = "oct", k = "GawgguFyGrWKav7AX4VKUg"}`, "private JSON Web Key"},
		"JWK as JS":              {`const key = {kty: 'EC', crv: 'P-256', x: 'f83O', y: 'x_FE', d: 'jpsQ'};`, "private JSON Web Key"},
		"JWK mid-sentence":       {`Use this: {"kty": "oct", "k": "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"} please`, "private JSON Web Key"},
		"PKCS8 base64":           {b64(pkcs8(t, k.ed)), "DER private key (base64)"},
		"PKCS8 base64url":        {url(pkcs8(t, k.ec)), "DER private key (base64)"},
		"RSA PKCS8 base64":       {b64(pkcs8(t, k.rsa)), "DER private key (base64)"},
		"SEC1 base64":            {b64(ec1), "DER private key (base64)"},
		"PKCS1 base64":           {b64(rsa1), "DER private key (base64)"},
		"PKCS1 wrapped at 64":    {wrap(b64(rsa1), 64, "\n"), "DER private key (base64)"},
		"PKCS8 wrapped, escaped": {wrap(b64(pkcs8(t, k.rsa)), 64, `\n`), "DER private key (base64)"},
		"CRLF wrapped":           {wrap(b64(ec1), 64, "\r\n"), "DER private key (base64)"},
		"mid-sentence":           {"the key is " + b64(pkcs8(t, k.ec)) + ", keep it safe", "DER private key (base64)"},
		"hex PKCS8":              {hex.EncodeToString(pkcs8(t, k.ed)), "DER private key (hex)"},
		"OpenSSH body":           {"key: " + b64(append([]byte("openssh-key-v1\x00\x00\x00\x00\x04none"), make([]byte, 40)...)), "OpenSSH private key (base64)"},
		"PuTTY":                  {"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: x\nPublic-Lines: 2\nAAAA\nAAAA\nPrivate-Lines: 1\nAAAA\n", "PuTTY private key"},
		"AWS named":              {"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS secret access key"},
		"AWS JSON":               {`{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}`, "AWS secret access key"},
		"AWS pair":               {"AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS secret access key"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, ok := InText(tc.text)
			if !ok || f.Kind != tc.kind {
				t.Errorf("got %+v, %v; want %q", f, ok, tc.kind)
			}
		})
	}
}

// TestInTextReadsOnly: InText reads the string's own memory, uncopied;
// no detector writes to it, whatever it finds or decodes.
func TestInTextReadsOnly(t *testing.T) {
	k := testKeys()
	pemOf := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	texts := []string{"", "Plain prose, with nothing secret in it at all.",
		pemOf("PRIVATE KEY", pkcs8(t, k.ed)),
		base64.StdEncoding.EncodeToString(pkcs8(t, k.ec)),
		wrap(base64.StdEncoding.EncodeToString(pkcs8(t, k.rsa)), 64, `\n`),
		hex.EncodeToString(pkcs8(t, k.ed)),
		`{"kty":"OKP","crv":"Ed25519","x":"LDCm","d":"cvwI"}`,
		`{kty = "oct", k = "GawgguFyGrWKav7AX4VKUg"}`,
		"AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAA\n",
	}
	for _, text := range slices.Clone(texts) {
		texts = append(texts, strings.ToUpper(text), base64.StdEncoding.EncodeToString([]byte(text)))
	}
	for _, text := range texts {
		s := string([]byte(text)) // memory of its own, writable were InText to write
		InText(s)
		if s != text {
			t.Fatalf("InText changed its text:\n%q\nto\n%q", text, s)
		}
	}
}

// TestInTextFindsDER: each DER private key form, in base64 and base64url,
// wrapped with newlines or JSON's \n, and amid prose, is found.
func TestInTextFindsDER(t *testing.T) {
	k := testKeys()
	sec1, err := x509.MarshalECPrivateKey(k.ec)
	if err != nil {
		t.Fatal(err)
	}
	ders := map[string][]byte{
		"PKCS8 Ed25519": pkcs8(t, k.ed),
		"PKCS8 P-256":   pkcs8(t, k.ec),
		"PKCS8 RSA":     pkcs8(t, k.rsa),
		"SEC1":          sec1,
		"PKCS1":         x509.MarshalPKCS1PrivateKey(k.rsa),
	}
	forms := map[string]func(der []byte) string{
		"base64":           base64.StdEncoding.EncodeToString,
		"base64url":        base64.RawURLEncoding.EncodeToString,
		"wrapped":          func(der []byte) string { return wrap(base64.StdEncoding.EncodeToString(der), 64, "\n") },
		"wrapped url":      func(der []byte) string { return wrap(base64.RawURLEncoding.EncodeToString(der), 64, "\n") },
		"wrapped, escaped": func(der []byte) string { return wrap(base64.StdEncoding.EncodeToString(der), 64, `\n`) },
		"mid-sentence": func(der []byte) string {
			return "Our key is " + base64.StdEncoding.EncodeToString(der) + " so please keep it safe."
		},
		"url mid-sentence": func(der []byte) string {
			return "key=" + base64.RawURLEncoding.EncodeToString(der) + "; do not share"
		},
	}
	for dname, der := range ders {
		for fname, form := range forms {
			t.Run(dname+"/"+fname, func(t *testing.T) {
				if f, ok := InText(form(der)); !ok || f.Kind != "DER private key (base64)" {
					t.Errorf("got %+v, %v", f, ok)
				}
			})
		}
	}
}

func TestInTextLeavesAlone(t *testing.T) {
	k := testKeys()
	pubDER, _ := x509.MarshalPKIXPublicKey(k.rsa.Public())
	random := make([]byte, 1024)
	rand.Read(random)
	sha := sha256.Sum256([]byte("x"))
	sha5 := sha512.Sum512([]byte("x"))
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), random[:200]...)
	sig := ed25519.Sign(k.ed, []byte("payload"))
	for name, text := range map[string]string{
		"public JWK":               `{"kty":"OKP","crv":"Ed25519","x":"LDCmHaAqQugasCeoxYVMsPhebX9CkNXYbLigUjLOvw4","kid":"eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM","alg":"EdDSA","use":"sig"}`,
		"public JWKS":              `{"keys":[{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}]}`,
		"JWS compact":              "eyJhbGciOiJFZERTQSIsImtpZCI6ImsifQ.eyJuYW1lIjoieCJ9." + base64.RawURLEncoding.EncodeToString(sig),
		"signature":                base64.RawURLEncoding.EncodeToString(sig),
		"thumbprint":               base64.RawURLEncoding.EncodeToString(sha[:]),
		"PNG base64":               base64.StdEncoding.EncodeToString(png),
		"random base64":            base64.StdEncoding.EncodeToString(random),
		"random hex":               hex.EncodeToString(random),
		"UUID":                     "123e4567-e89b-12d3-a456-426614174000",
		"prose":                    "Keep your private key secret. A JWK has a kty member; a key = value pair is not a key, and d: 4 is a grade.",
		"public PEM":               string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})),
		"certificate":              "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
		"git SHA":                  "65c943b1f2e0a6c1d7b8f4e2a9c3d5b7e1f0a2c4",
		"SHA-512 hex":              hex.EncodeToString(sha5[:]),
		"AWS id alone":             "AKIAIOSFODNN7EXAMPLE",
		"public JWK far from code": `{"kty":"OKP","crv":"Ed25519","x":"LDCmHaAqQugasCeoxYVMsPhebX9CkNXYbLigUjLOvw4"}` + strings.Repeat(" lorem ipsum", 500) + " el.d = 1;",
		"public JWK and code":      `{"kty":"OKP","x":"LDCm"}` + "\nconst k = jwks.keys[0];\nStep p: check it. For example q = 7.",
		"jwcrypto sample":          `key = jwk.JWK.generate(kty="OKP", crv="Ed25519")` + "\nd = key.export_public()",
	} {
		t.Run(name, func(t *testing.T) {
			if f, ok := InText(text); ok {
				t.Errorf("flagged %+v", f)
			}
		})
	}
}

func TestScannerFindsKeysInUse(t *testing.T) {
	k := testKeys()
	s, err := NewScanner([]crypto.Signer{k.ed, k.ec, k.rsa}, "-----ENV VALUE: a literal secret-----")
	if err != nil {
		t.Fatal(err)
	}
	ecD, _ := k.ec.Bytes()
	seed := k.ed.Seed()
	d := k.rsa.D.Bytes()
	for name, secret := range map[string][]byte{"Ed25519 seed": seed, "P-256 D": ecD, "RSA P": k.rsa.Primes[0].Bytes(), "RSA D fragment": d[100:140]} {
		for pad := 0; pad < 3; pad++ {
			blob := append(bytes.Repeat([]byte{0xa5}, pad), secret...)
			blob = append(blob, 1, 2, 3)
			for enc, text := range map[string]string{
				"raw":       "<p>" + string(blob) + "</p>",
				"hex":       "x " + hex.EncodeToString(blob) + " y",
				"HEX":       "x " + strings.ToUpper(hex.EncodeToString(blob)) + " y",
				"base64":    `{"v":"` + base64.StdEncoding.EncodeToString(blob) + `"}`,
				"base64url": "a=" + base64.RawURLEncoding.EncodeToString(blob) + "&b",
			} {
				t.Run(fmt.Sprintf("%s/%s/pad%d", name, enc, pad), func(t *testing.T) {
					f, ok := s.Scan("page.html", []byte(text))
					if !ok || !strings.HasPrefix(f.Kind, "the signing key in use") {
						t.Errorf("got %+v, %v", f, ok)
					}
				})
			}
		}
	}
	// A seed whose base64 has '+' and '/' in it, written by escapers:
	// JavaScript (\u002b, \/), a URL (%2B, %2F, %3D), JSON's \/. The
	// escapes split the run, which must be read whole.
	var edKey ed25519.PrivateKey
	var enc string
	for !strings.Contains(enc[min(len(enc), 8):max(len(enc)-8, 0)], "+") || !strings.Contains(enc[min(len(enc), 8):max(len(enc)-8, 0)], "/") {
		_, edKey, _ = ed25519.GenerateKey(rand.Reader)
		enc = base64.StdEncoding.EncodeToString(edKey.Seed())
	}
	es, err := NewScanner([]crypto.Signer{edKey})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"JavaScript": strings.NewReplacer("+", `\u002b`, "/", `\/`).Replace(enc),
		"URL":        "https://x.example/?k=" + strings.NewReplacer("+", "%2B", "/", "%2F", "=", "%3D").Replace(enc),
		"JSON":       `{"k":"` + strings.ReplaceAll(enc, "/", `\/`) + `"}`,
	} {
		if f, ok := es.Scan("page.html", []byte(text)); !ok || !strings.HasPrefix(f.Kind, "the signing key in use") {
			t.Errorf("%s (%s): %+v %v", name, text, f, ok)
		}
	}
	if f, ok := s.Scan("x.txt", []byte("echo -----ENV VALUE: a literal secret----- done")); !ok || !strings.Contains(f.Kind, "AGENTCARDS_SIGNING_KEY") {
		t.Errorf("literal: %+v %v", f, ok)
	}
	// The PEM of the key, inside a page html/template rendered ('+' and
	// '/' escaped as entities).
	var page bytes.Buffer
	template.Must(template.New("p").Parse(`<pre>{{.}}</pre>`)).Execute(&page, string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8(t, k.rsa)}))[28:])
	if !bytes.Contains(page.Bytes(), []byte("&#43;")) {
		t.Fatal("the test page has no escaped '+'")
	}
	if f, ok := s.Scan("agents/x/index.html", page.Bytes()); !ok {
		t.Errorf("PEM body in an html/template page: not found")
	} else {
		t.Logf("PEM body in an html/template page: %s", f.Kind)
	}
	// A private JWK in a card's extension params, five levels down, and
	// as &#34;-escaped JSON in a page.
	card := `{"name":"x","capabilities":{"extensions":[{"uri":"https://e","params":{"a":{"b":{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg"}}}}]}}`
	if f, ok := s.Scan("agents/x/.well-known/agent-card.json", []byte(card)); !ok || f.Kind != "private JSON Web Key" {
		t.Errorf("JWK in params: %+v %v", f, ok)
	}
	var jwkPage bytes.Buffer
	template.Must(template.New("p").Parse(`<code>{{.}}</code>`)).Execute(&jwkPage, `{"kty":"EC","crv":"P-256","x":"f83O","y":"x_FE","d":"jpsQ"}`)
	if f, ok := s.Scan("page/index.html", jwkPage.Bytes()); !ok || f.Kind != "private JSON Web Key" {
		t.Errorf("escaped JWK in HTML (%s): %+v %v", jwkPage.String(), f, ok)
	}
	// ... and inside a JSON string shown in a page.
	jwkPage.Reset()
	template.Must(template.New("p").Parse(`<code>{{.}}</code>`)).Execute(&jwkPage, `{"JWK":"{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"f83O\",\"y\":\"x_FE\",\"d\":\"jpsQ\"}"}`)
	if f, ok := s.Scan("page/index.html", jwkPage.Bytes()); !ok || f.Kind != "private JSON Web Key" {
		t.Errorf("JWK in a JSON string in HTML (%s): %+v %v", jwkPage.String(), f, ok)
	}
}

// TestScannerLeavesBuiltSiteAlone: what a build writes (cards with
// signatures, a JWKS with the same keys' public halves, HTML) is clean.
func TestScannerLeavesBuiltSiteAlone(t *testing.T) {
	k := testKeys()
	s, err := NewScanner([]crypto.Signer{k.ed, k.ec, k.rsa})
	if err != nil {
		t.Fatal(err)
	}
	edPub := k.ed.Public().(ed25519.PublicKey)
	ecPub, _ := k.ec.PublicKey.Bytes()
	jwks, _ := json.Marshal(map[string]any{"keys": []any{
		map[string]any{"kty": "OKP", "crv": "Ed25519", "x": base64.RawURLEncoding.EncodeToString(edPub), "kid": "a", "alg": "EdDSA", "use": "sig"},
		map[string]any{"kty": "EC", "crv": "P-256", "x": base64.RawURLEncoding.EncodeToString(ecPub[1:33]), "y": base64.RawURLEncoding.EncodeToString(ecPub[33:]), "kid": "b", "alg": "ES256"},
		map[string]any{"kty": "RSA", "n": base64.RawURLEncoding.EncodeToString(k.rsa.N.Bytes()), "e": "AQAB", "kid": "c", "alg": "RS256"},
	}})
	files := map[string][]byte{".well-known/jwks.json": jwks}
	for i := range 50 {
		prot := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"EdDSA","jku":"https://agents.example.com/.well-known/jwks.json","kid":"a","typ":"JOSE"}`))
		sig := base64.RawURLEncoding.EncodeToString(ed25519.Sign(k.ed, []byte(fmt.Sprint(i))))
		files[fmt.Sprintf("agents/a%d/.well-known/agent-card.json", i)] = []byte(fmt.Sprintf(`{"name":"Agent %d","description":"Plans trips — naïve, 東京. A kty-free card.","params":{"jwk":{"kty":"OKP","x":"%s"}},"signatures":[{"protected":"%s","signature":"%s"}]}`, i, base64.RawURLEncoding.EncodeToString(edPub), prot, sig))
		var page bytes.Buffer
		template.Must(template.New("p").Parse(`<!doctype html><h1>{{.Name}}</h1><p>{{.Desc}}</p><code>agentcards verify {{.URL}}</code><script type="application/ld+json">{{.LD}}</script>`)).Execute(&page, map[string]any{
			"Name": fmt.Sprintf("Agent %d", i), "Desc": "Signs & verifies <cards> with \"keys\" + more", "URL": "https://agents.example.com/agents/a/",
			"LD": map[string]any{"@type": "SoftwareApplication", "name": "x", "sig": sig},
		})
		files[fmt.Sprintf("agents/a%d/index.html", i)] = page.Bytes()
	}
	for name, data := range files {
		if f, ok := s.Scan(name, data); ok {
			t.Errorf("%s: flagged %+v", name, f)
		}
	}
}

func TestNewScannerRejectsUnknownKeys(t *testing.T) {
	if _, err := NewScanner([]crypto.Signer{fakeSigner{}}); err == nil {
		t.Error("an unknown key type was accepted")
	}
}

type fakeSigner struct{ crypto.Signer }

func FuzzInText(f *testing.F) {
	f.Add("plain text")
	f.Add(`{"kty":"oct","k":"x"}`)
	f.Add("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIHL8CBi0mTWqoGlXHhpYrYYzWSGY7FfjIecfLnAmU23Q\n-----END PRIVATE KEY-----")
	f.Add("MC4CAQAwBQYDK2VwBCIEIHL8CBi0mTWqoGlXHhpYrYYzWSGY7FfjIecfLnAmU23Q")
	f.Fuzz(func(t *testing.T, s string) {
		f1, ok1 := InText(s)
		f2, ok2 := InText(s)
		if ok1 != ok2 || f1 != f2 {
			t.Fatal("InText is not deterministic")
		}
		const key = "\n-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIHL8CBi0mTWqoGlXHhpYrYYzWSGY7FfjIecfLnAmU23Q\n-----END PRIVATE KEY-----\n"
		if _, ok := InText(s + key); !ok {
			t.Fatal("a PEM private key appended was not found")
		}
	})
}

func FuzzScan(f *testing.F) {
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	s, err := NewScanner([]crypto.Signer{ed})
	if err != nil {
		f.Fatal(err)
	}
	seed := base64.StdEncoding.EncodeToString(ed.Seed())
	pemKey := "\n-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIHL8CBi0mTWqoGlXHhpYrYYzWSGY7FfjIecfLnAmU23Q\n-----END PRIVATE KEY-----\n"
	f.Add("x.html", []byte("<p>hello &amp; &#43;</p>"))
	f.Add("a.json", []byte(`{"kty":"OKP","x":"y","list":[{"kty":"oct"}]}`))
	f.Add("b.json", []byte(`["\n\\n\\/", "`+seed[:20]+`"]`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		f1, ok1 := s.Scan(name, data)
		f2, ok2 := s.Scan(name, data)
		if ok1 != ok2 || f1 != f2 {
			t.Fatal("Scan is not deterministic")
		}
		withKey := append(append(append([]byte{}, data...), ' '), seed...)
		if _, ok := s.Scan(name, withKey); !ok {
			t.Fatal("the signing key's seed in base64, appended, was not found")
		}
		withPEM := append(append([]byte{}, data...), pemKey...)
		if _, ok := s.Scan(name, withPEM); !ok {
			t.Fatal("a PEM private key appended was not found")
		}
	})
}

// TestScannerFindsGroupedHex: the key in use as dumps and source code write
// hex (openssl -text, xxd, od, C and Python literals) is found, and so is a
// whole DER key in colon-separated hex.
func TestScannerFindsGroupedHex(t *testing.T) {
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	s, err := NewScanner([]crypto.Signer{ed})
	if err != nil {
		t.Fatal(err)
	}
	seed := ed.Seed()
	join := func(sep, prefix string, perLine int, lineSep string) string {
		var b strings.Builder
		for i, c := range seed {
			if i > 0 && i%perLine == 0 {
				b.WriteString(lineSep)
			} else if i > 0 {
				b.WriteString(sep)
			}
			fmt.Fprintf(&b, "%s%02x", prefix, c)
		}
		return b.String()
	}
	xxd := func(data []byte) string {
		var b strings.Builder
		for off := 0; off < len(data); off += 16 {
			fmt.Fprintf(&b, "%08x: ", off)
			line := data[off:min(off+16, len(data))]
			for i := 0; i < len(line); i += 2 {
				fmt.Fprintf(&b, "%x ", line[i:min(i+2, len(line))])
			}
			b.WriteString(" r..a.b..c\n")
		}
		return b.String()
	}
	for name, text := range map[string]string{
		"openssl -text": "ED25519 Private-Key:\npriv:\n    " + join(":", "", 15, ":\n    ") + "\npub:\n    aa:bb",
		"od -tx1":       " " + join(" ", "", 16, "\n "),
		"xxd":           xxd(seed),
		"C array":       "static const unsigned char k[] = {" + join(", ", "0x", 12, ",\n  ") + "};",
		"Python bytes":  "k = b'" + join("", `\x`, 64, "") + "'",
	} {
		if f, ok := s.Scan("notes/index.html", []byte(text)); !ok || !strings.HasPrefix(f.Kind, "the signing key in use") {
			t.Errorf("%s: got %+v %v in\n%s", name, f, ok, text)
		}
	}
	// A whole DER key in openssl's colon form, wrapped: the generic reader.
	der := pkcs8(t, testKeys().ec)
	var colon strings.Builder
	for i, c := range der {
		if i > 0 && i%15 == 0 {
			colon.WriteString(":\n    ")
		} else if i > 0 {
			colon.WriteString(":")
		}
		fmt.Fprintf(&colon, "%02x", c)
	}
	if f, ok := InText(colon.String()); !ok || f.Kind != "DER private key (hex)" {
		t.Errorf("colon hex of a P-256 PKCS #8 key: %+v %v", f, ok)
	}
	for _, clean := range []string{"2026-11-22 10:00:00 12 34 56", "a bad cafe, a dead beef, 12:34:56:78", "0x10, 0x20 and 0x30"} {
		if f, ok := s.Scan("page.html", []byte(clean)); ok {
			t.Errorf("%q flagged %+v", clean, f)
		}
	}
}

// groupedHexReference is groupedHex as first written, one pass over every
// byte: the reference the skipping search must agree with.
func groupedHexReference(data []byte, keys *chunks) (Finding, bool) {
	count, from := 0, 0
	for i := 0; i <= len(data); i++ {
		if i < len(data) && hexish[data[i]] {
			if isHex[data[i]] {
				count++
			}
			continue
		}
		if count >= 32 {
			if f, ok := readGroupedHex(data[from:i], keys); ok {
				f.Offset += from
				return f, true
			}
		}
		count, from = 0, i+1
	}
	return Finding{}, false
}

// FuzzGroupedHex: the skipping search finds what a look at every byte
// finds, at the same offset.
func FuzzGroupedHex(f *testing.F) {
	der := "30 2e 02 01 00 30 05 06 03 2b 65 70 04 22 04 20 " + strings.Repeat("ab ", 32)
	for _, s := range []string{der, "x" + der, strings.Repeat("q", 31) + der, "0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20", "a face bead " + strings.Repeat("deadbeef:", 9), ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gok := groupedHex(data, nil)
		want, wok := groupedHexReference(data, nil)
		if got != want || gok != wok {
			t.Fatalf("groupedHex = %+v %v, reference %+v %v", got, gok, want, wok)
		}
	})
}

// FuzzEncodedRuns: the skipping search finds what a look at every byte
// finds, at the same offset.
func FuzzEncodedRuns(f *testing.F) {
	key := "MC4CAQAwBQYDK2VwBCIEI" + strings.Repeat("A", 43)
	for _, s := range []string{key, "x " + key, strings.Repeat("q ", 20) + key, strings.ReplaceAll(key, "A", "A\\n"), key[:30] + "\\/" + key[30:], key + "\\/", key + "%2F\"", "302e020100300506032b657004220420" + strings.Repeat("ab", 32), ""} {
		f.Add([]byte(s))
	}
	f.Add([]byte(base64.StdEncoding.EncodeToString([]byte(`x {"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg"} y`))))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The text of runs too: what jwkText finds in it.
		text := func(b []byte) (Finding, bool) { return jwkText(b) }
		got, gok := encodedRuns(data, nil, text)
		want, wok := encodedRunsIn(data, nil, text)
		if got != want || gok != wok {
			t.Fatalf("encodedRuns = %+v %v, reading every byte %+v %v", got, gok, want, wok)
		}
	})
}

// TestFindingString holds the article of each kind of finding to how
// the kind is read aloud.
func TestFindingString(t *testing.T) {
	for kind, want := range map[string]string{
		"PEM private key":                             "a PEM private key",
		"AWS secret access key":                       "an AWS secret access key",
		"EC private key":                              "an EC private key",
		"URL with a password in its user information": "a URL with a password in its user information",
		"the signing key in use (hex)":                "the signing key in use (hex)",
		"private JSON Web Key":                        "a private JSON Web Key",
	} {
		if got := (Finding{Kind: kind}).String(); got != want {
			t.Errorf("Finding{Kind: %q}.String() = %q, want %q", kind, got, want)
		}
	}
}
