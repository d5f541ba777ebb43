package secret

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"math/big"
	mrand "math/rand"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestScanLeavesRealisticPagesAlone: ordinary content that must pass Scan and InText.
func TestScanLeavesRealisticPagesAlone(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub, _ := ec.PublicKey.Bytes()
	u := base64.RawURLEncoding.EncodeToString
	pubJWK := fmt.Sprintf(`{"kty":"EC","crv":"P-256","x":"%s","y":"%s","kid":"k1","use":"sig"}`, u(pub[1:33]), u(pub[33:]))
	spki, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "example.com"}, NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	cert, _ := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ec.PublicKey, ec)
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	r := mrand.New(mrand.NewSource(1))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Intn(256))
	}
	img.Set(0, 0, color.White)
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, img)
	hdr := u([]byte(`{"typ":"dpop+jwt","alg":"ES256","jwk":` + pubJWK + `}`))
	payload := u([]byte(`{"sub":"1234567890","name":"John Doe","iat":1516239022,"htm":"POST","htu":"https://server.example.com/token","d":"x"}`))
	jwt := hdr + "." + payload + "." + u(make([]byte, 64))
	s256 := sha256.Sum256([]byte("x"))
	s512 := sha512.Sum512([]byte("x"))
	var rnd strings.Builder
	for i := 0; i < 2000; i++ {
		b := make([]byte, 12+r.Intn(200))
		r.Read(b)
		rnd.WriteString(base64.StdEncoding.EncodeToString(b) + " ")
		if i%7 == 0 {
			rnd.WriteString(url.QueryEscape(base64.StdEncoding.EncodeToString(b)) + "\n")
		}
	}
	phpJWKS, _ := json.Marshal(map[string]any{"keys": []any{json.RawMessage(pubJWK)}, "jwks_uri": "https://x/y"})
	php := strings.ReplaceAll(string(phpJWKS), "/", `\/`)
	b64doc := base64.StdEncoding.EncodeToString([]byte("# Keys\n\nA JWK such as " + pubJWK + " has kty, crv, x and y. A private one would add d.\n"))
	cases := map[string]string{
		"data-uri":  `<img src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(pngBuf.Bytes()) + `" alt="x">`,
		"jwt":       "Authorization: Bearer " + jwt,
		"sha":       base64.StdEncoding.EncodeToString(s256[:]) + " " + hex.EncodeToString(s512[:]) + " " + base64.StdEncoding.EncodeToString(s512[:]),
		"sri":       `<script src="x.js" integrity="sha384-` + base64.StdEncoding.EncodeToString(s512[:48]) + `" crossorigin="anonymous"></script>`,
		"pcturl":    `<a href="https://login.example.com/authorize?redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Fa%3D1%26b%3D%22x%22&state=` + url.QueryEscape(base64.StdEncoding.EncodeToString(s512[:])) + `">x</a> mailto:a@b?body=Hello%0AWorld%0A%3D%3D`,
		"php-json":  php + "\n" + `{"name":"Jos\u00e9","query":"\u0022quoted\u0022","path":"C:\\Users\\x","t":"\u003cb\u003e"}`,
		"jwk-doc":   "A public key: " + pubJWK + ". Its kty is EC. The member \"kty\": names the family; the private key adds d.",
		"pem-pub":   string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})) + string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert})),
		"x5c":       `{"kty":"EC","x5c":["` + base64.StdEncoding.EncodeToString(cert) + `"]}`,
		"random":    rnd.String(),
		"b64-doc":   "content: " + b64doc,
		"jwk-u":     strings.ReplaceAll(pubJWK, `"`, `\u0022`),
		"jwk-pct":   url.QueryEscape(pubJWK),
		"jwk-b64":   base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(pubJWK)))),
		"jwk-esc2":  template.HTMLEscapeString(pubJWK),
		"pctpct":    strings.Repeat("%25", 100) + " 100%% done %2525",
		"backslash": strings.Repeat(`\\`, 500) + `\u0041\u0042 \/`,
		// A page that shows the site's public keys and, near them, a
		// request of its own whose members happen to be named as a
		// private JWK's are ("q", "p", "d", "k"): other objects.
		"jwks-and-query": `{"keys":[` + pubJWK + `,{"kty":"OKP","crv":"Ed25519","x":"` + u(pub[1:33]) + `"}]}` + "\n\nSearch with `{\"q\": \"weather in Paris\"}`, page with `{\"p\": \"2\"}`, " +
			"`{\"d\": \"2026-01-01\", \"k\": \"5\"}`.",
		"query-then-jwk": `POST /search {"q": "weather", "filters": {"k": "10"}}` + "\nKeys: " + pubJWK,
	}
	s := otherKeyScanner(t)
	for name, c := range cases {
		for _, file := range []string{"docs/x/index.html", "x.json"} {
			data := []byte(c)
			if file == "x.json" {
				data, _ = json.Marshal(map[string]string{"description": c})
			}
			if f, ok := s.Scan(file, data); ok {
				t.Errorf("Scan %s %s: false positive %v at %d", name, file, f, f.Offset)
			}
		}
		if f, ok := InText(c); ok {
			t.Errorf("InText %s: false positive %v", name, f)
		}
	}
}
