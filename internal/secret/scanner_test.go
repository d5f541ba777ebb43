package secret

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestScanJSONDepth: a private JWK is found in a JSON file at any depth,
// structurally up to maxJSONDepth and as text below it.
func TestScanJSONDepth(t *testing.T) {
	s, err := NewScanner(nil)
	if err != nil {
		t.Fatal(err)
	}
	const jwk = `{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg"}`
	for _, depth := range []int{0, 5, maxJSONDepth - 1, maxJSONDepth, maxJSONDepth + 1, 200, 5000} {
		for name, doc := range map[string]string{
			"objects": strings.Repeat(`{"a":`, depth) + jwk + strings.Repeat("}", depth),
			"arrays":  strings.Repeat(`[`, depth) + jwk + strings.Repeat("]", depth),
		} {
			if f, ok := s.Scan("x.json", []byte(doc)); !ok || f.Kind != "private JSON Web Key" {
				t.Errorf("%s, depth %d: %+v %v", name, depth, f, ok)
			}
		}
	}
	// Structurally, a public JWK beside an unrelated "d" is no private
	// key; strings inside brackets do not count towards the depth.
	doc := `{"a":"` + strings.Repeat("[{", 100) + `","jwk":{"kty":"OKP","x":"LDCm"},"d":4}`
	if f, ok := s.Scan("x.json", []byte(doc)); ok {
		t.Errorf("public JWK beside a d member: flagged %+v", f)
	}
}

// TestScanAdversarialInputs: inputs built to make a scanner slow are read
// in time linear in their size (a quadratic scan of these takes hours).
func TestScanAdversarialInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	k := testKeys()
	s, err := NewScanner([]crypto.Signer{k.ed, k.ec, k.rsa}, "0123456789abcdef-literal")
	if err != nil {
		t.Fatal(err)
	}
	derLike := bytes.Repeat([]byte{0x30, 0x82, 0xff, 0xf0, 2, 1, 0, 0x30}, 1<<17)
	inputs := map[string]struct {
		name string
		data []byte
	}{
		"10 MB of A":             {"x.html", bytes.Repeat([]byte("A"), 10<<20)},
		"1 MB of &amp;":          {"x.html", bytes.Repeat([]byte("&amp;"), 1<<18)},
		"1 MB of [ and kty":      {"x.json", append(bytes.Repeat([]byte("["), 1<<20), `"kty"`...)},
		"nested arrays, valid":   {"x.json", []byte(strings.Repeat(`[`, 9000) + `"kty"` + strings.Repeat(`]`, 9000))},
		"DER headers in base64":  {"x.html", []byte(base64.StdEncoding.EncodeToString(derLike))},
		"DER headers in hex":     {"x.html", []byte(hex.EncodeToString(derLike[:1<<19]))},
		`runs joined by \n`:      {"x.html", bytes.Repeat([]byte(`ab\n`), 1<<20)},
		"runs joined by =":       {"x.html", bytes.Repeat([]byte(`ab=`), 1<<20)},
		"runs joined by %2B":     {"x.html", bytes.Repeat([]byte(`%2B`), 1<<20)},
		"blanks then colons":     {"x.html", append(bytes.Repeat([]byte(" "), 1<<20), bytes.Repeat([]byte(":"), 1<<20)...)},
		"kty members then colon": {"x.html", append(bytes.Repeat([]byte(`"kty": `), 1<<17), bytes.Repeat([]byte("x :"), 1<<18)...)},
		"BEGIN armour":           {"x.html", bytes.Repeat([]byte("-----BEGIN "), 1<<17)},
		"unterminated refs":      {"x.html", bytes.Repeat([]byte("&#x1234567"), 1<<17)},
		"key prefixes":           {"x.html", bytes.Repeat(k.ed.Seed()[:2], 1<<20)},
		"1 MB of %0A":            {"x.html", bytes.Repeat([]byte("%0A"), 1<<18)},
		"escapes, twice":         {"x.html", bytes.Repeat([]byte("%25%0A+\\u0041\\/"), 1<<16)},
		"base64 of text":         {"x.json", []byte(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("kty: 'x' %0A \\u006b YWJj"), 1<<16)))},
		"base64 of base64":       {"x.html", []byte(base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("-----BEGIN "), 1<<16)))))},
	}
	start := time.Now()
	for name, in := range inputs {
		t0 := time.Now()
		if f, ok := s.Scan(in.name, in.data); ok {
			t.Errorf("%s: flagged %+v", name, f)
		}
		t.Logf("%s: %d KB in %v", name, len(in.data)>>10, time.Since(t0).Round(time.Millisecond))
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("adversarial inputs took %v", d)
	}
}

// TestScannerFindsEveryFragment: any 31 bytes in a row of a key's secret
// numbers are found, whatever comes before them.
func TestScannerFindsEveryFragment(t *testing.T) {
	k := testKeys()
	s, err := NewScanner([]crypto.Signer{k.rsa})
	if err != nil {
		t.Fatal(err)
	}
	d := k.rsa.D.Bytes()
	const n = 2*chunkSize - 1
	for at := 0; at+n <= len(d); at++ {
		for pad := range chunkSize {
			data := append(bytes.Repeat([]byte{' '}, pad), d[at:at+n]...)
			if _, ok := s.Scan("x.bin", data); !ok {
				t.Fatalf("D[%d:%d] after %d bytes: not found", at, at+n, pad)
			}
		}
	}
}

// TestNewScannerOddKeys: keys the build would not make are still read, or
// refused with an error, never a panic.
func TestNewScannerOddKeys(t *testing.T) {
	//lint:ignore SA1019 a three-prime key on purpose: crypto/x509 still parses one, so the scanner must read it
	k3, err := rsa.GenerateMultiPrimeKey(rand.Reader, 3, 2048)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScanner([]crypto.Signer{k3})
	if err != nil {
		t.Fatalf("3-prime RSA key: %v", err)
	}
	for i, p := range k3.Primes {
		if f, ok := s.Scan("x.txt", []byte(hex.EncodeToString(p.Bytes()))); !ok || f.Kind != "the signing key in use (hex)" {
			t.Errorf("prime %d: %+v %v", i, f, ok)
		}
	}
	if _, ok := s.Scan("x.txt", []byte(hex.EncodeToString(k3.D.Bytes()))); !ok {
		t.Error("D of a 3-prime key: not found")
	}
	rk := testKeys().rsa
	for name, key := range map[string]crypto.Signer{
		"RSA without primes": &rsa.PrivateKey{PublicKey: rk.PublicKey, D: rk.D},
		"RSA without D":      &rsa.PrivateKey{PublicKey: rk.PublicKey, Primes: rk.Primes},
		"short Ed25519":      ed25519.PrivateKey(make([]byte, 10)),
		"RSA with a prime 1": &rsa.PrivateKey{PublicKey: rk.PublicKey, D: rk.D, Primes: []*big.Int{big.NewInt(1), rk.Primes[1]}},
	} {
		if _, err := NewScanner([]crypto.Signer{key}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// An RSA key whose primes do not match its modulus (Precompute gives
	// up on it) still has its numbers looked for.
	odd := &rsa.PrivateKey{PublicKey: rk.PublicKey, D: rk.D, Primes: []*big.Int{rk.Primes[0], k3.Primes[1]}}
	s, err = NewScanner([]crypto.Signer{odd})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Scan("x.txt", []byte(base64.StdEncoding.EncodeToString(rk.D.Bytes()))); !ok {
		t.Error("D of a key with mismatched primes: not found")
	}
}

// TestScanLiteralAsWritten: a literal holding an entity reference is found
// as written, though the file holds '&'.
func TestScanLiteralAsWritten(t *testing.T) {
	s, err := NewScanner(nil, "tok&amp;0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := s.Scan("x.html", []byte("<p>tok&amp;0123456789abcdef</p>")); !ok {
		t.Errorf("not found: %+v", f)
	}
	if f, ok := s.Scan("x.html", []byte("<p>tok&amp;0123456789abcdeX</p>")); ok {
		t.Errorf("flagged another string: %+v", f)
	}
}

// TestScanConcurrently: one Scanner serves many goroutines (run with
// -race) and gives each the same answers.
func TestScanConcurrently(t *testing.T) {
	k := testKeys()
	s, err := NewScanner([]crypto.Signer{k.ed, k.rsa})
	if err != nil {
		t.Fatal(err)
	}
	leak := []byte("<p>" + hex.EncodeToString(k.ed.Seed()) + "</p>")
	clean := []byte(`{"kty":"OKP","x":"LDCm","sig":"` + base64.RawURLEncoding.EncodeToString(make([]byte, 64)) + `"}`)
	// The text in base64 runs, which the scanner remembers when clean: the
	// same header beside a key's PEM file in base64, and alone.
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"EdDSA","jku":"https://agents.example.com/.well-known/jwks.json","typ":"JOSE"}`))
	pemFile := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8(t, k.rsa)})
	leak64 := []byte(`{"protected":"` + header + `","note":"` + base64.StdEncoding.EncodeToString(pemFile) + `"}`)
	clean64 := []byte(`{"protected":"` + header + `"}`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if _, ok := s.Scan("a.html", leak); !ok {
					t.Error("leak not found")
				}
				if f, ok := s.Scan("jwks.json", clean); ok {
					t.Errorf("flagged %+v", f)
				}
				if f, ok := s.Scan("b.json", leak64); !ok || f.Kind != "base64-encoded PEM private key" {
					t.Errorf("leak in base64: %+v %v", f, ok)
				}
				if f, ok := s.Scan("c.json", clean64); ok {
					t.Errorf("flagged %+v", f)
				}
			}
		})
	}
	wg.Wait()
}
