package secret

import (
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"math/rand/v2"
	urlpkg "net/url"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAWSGate proves mayHoldAWS from the syntax of aws's expressions:
// each needs 40 characters in a row whose every UTF-8 byte is in
// awsBytes (the case folding of (?i) included).
func TestAWSGate(t *testing.T) {
	for _, re := range []string{awsNamedRE.String(), awsSecretRE.String()} {
		parsed, err := syntax.Parse(re, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		parsed = parsed.Simplify()
		if parsed.Op != syntax.OpConcat {
			t.Fatalf("%s: not a concatenation at the top: %v", re, parsed.Op)
		}
		inSet := func(c *syntax.Regexp) bool {
			if c.Op != syntax.OpCharClass {
				return false
			}
			for i := 0; i < len(c.Rune); i += 2 {
				if c.Rune[i+1]-c.Rune[i] > 0x400 {
					return false
				}
				for r := c.Rune[i]; r <= c.Rune[i+1]; r++ {
					for _, b := range []byte(string(r)) {
						if !awsBytes[b] {
							return false
						}
					}
				}
			}
			return true
		}
		// Repeats simplify to nested concatenations: flatten them.
		var flat []*syntax.Regexp
		var walk func(re *syntax.Regexp)
		walk = func(re *syntax.Regexp) {
			if re.Op != syntax.OpConcat {
				flat = append(flat, re)
				return
			}
			for _, sub := range re.Sub {
				walk(sub)
			}
		}
		walk(parsed)
		longest, run := 0, 0
		for _, sub := range flat {
			if run = run + 1; !inSet(sub) {
				run = 0
			}
			longest = max(longest, run)
		}
		if longest < 40 {
			t.Errorf("%s: at most %d characters of awsBytes in a row, not 40", re, longest)
		}
	}
}

// TestContainsKty: containsKty, which looks for k and K at memory speed,
// finds what containsKtyReference does, short and long texts, Unicode case
// partners (K, the Kelvin sign) included.
func TestContainsKty(t *testing.T) {
	pieces := []string{"k", "K", "t", "T", "y", "Y", "\u212a", "kt", "ty", "x", " ", "\xff", strings.Repeat("a", 700)}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		data := []byte(b.String())
		if got, want := containsKty(data), containsKtyReference(data); got != want {
			t.Fatalf("containsKty(%q) = %v, want %v", data, got, want)
		}
	}
}

// gatePieces build texts near every gate's edge: runs one short of what a
// detector needs and just long enough, the letters (?i) folds, base64 of
// keys and of text holding them, the escapes the percent and JSON views
// read and those they leave, and prose.
func gatePieces(t testing.TB) []string {
	k := testKeys()
	b64, url := base64.StdEncoding.EncodeToString, base64.RawURLEncoding.EncodeToString
	edDER := pkcs8(t, k.ed)
	edPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: edDER}))
	jwk := `{"kty":"OKP","d":"` + url(k.ed.Seed()) + `"}`
	forty := "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	return []string{
		" ", "\n", "\\n", "\t", "=", "\"", ":", "-", "----", "-----", "BEGIN ", "PRIVATE KEY", "-----BEGIN PRIVATE KEY-----",
		"PuTTY-User-Key-File-", "PuTTY-User-Key-File", "Private-Lines:", "kty", "KtY", "\"kty\": \"oct\", ", "\"d\": \"x\"", "k: 'v'",
		"secret_access_key = ", "ſecret_acceſſ_\u212aey=", "SecretAccessKey\": \"", "AKIAIOSFODNN7EXAMPLE", "ASIA",
		forty, forty[:39], forty[:38] + "\u212a", forty[:39] + "ſ", "ſ", "\u212a",
		edPEM, b64([]byte(edPEM)), url([]byte(edPEM))[:70], b64(edDER), hex.EncodeToString(edDER)[:40], hex.EncodeToString(edDER),
		wrap(b64(edDER), 16, " "), `{kty: \"oct\", k: \"x\"}`, "0x30, 0x2e, 0x02, ", "aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ", "find-workflows-0", "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM",
		"Plans trips and books hotels. ", "https://agent-0.example.com/a2a", "&#43;", "&amp;", "&#x2F;", "%2F", "\\/", "é", "\xff", "東京",
		"%0A", "%0d", "%22", "%2b", "%25", "%20", "%41", "%", "+", "BEGIN+", "\\u006b", "\\u0064", "\\u0026", "\\u00", "\\ud83d\\ude00", "\\\\",
		urlpkg.QueryEscape(edPEM), urlpkg.PathEscape(edPEM)[:90], urlpkg.QueryEscape(b64([]byte(edPEM))), b64([]byte(jwk)), urlpkg.QueryEscape(jwk),
		`{"\u006bty":"oct","\u006b":"x"}`, b64([]byte(b64([]byte(edPEM)))),
	}
}

// TestInTextSameAsReference: InText, which runs each detector only where
// its gate lets it, finds what every detector run on every text finds
// (inTextReference, reading the views): the same kind at the same offset,
// on the strings of a card and on texts built at the gates' edges; and it
// finds something wherever InText did before it read the views.
func TestInTextSameAsReference(t *testing.T) {
	check := func(s string) {
		t.Helper()
		got, gok := InText(s)
		want, wok := inTextReference([]byte(s), 0, true)
		if got != want || gok != wok {
			t.Fatalf("InText(%q) = %+v %v, reference %+v %v", s, got, gok, want, wok)
		}
		if old, ook := inTextReference([]byte(s), 0, false); ook && !gok {
			t.Fatalf("InText(%q) finds nothing; before the views it found %+v", s, old)
		}
	}
	for _, s := range cardStrings {
		check(s)
	}
	pieces := gatePieces(t)
	for _, p := range pieces {
		check(p)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
	}
}

// TestScanSameAsReference: Scan, with its gates, finds what
// scanReference (reading what files decode to) does, in HTML and JSON
// files alike, and something wherever Scan did before it read them.
func TestScanSameAsReference(t *testing.T) {
	k := testKeys()
	s, err := NewScanner([]crypto.Signer{k.ed}, "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI")
	if err != nil {
		t.Fatal(err)
	}
	pieces := append(gatePieces(t), base64.StdEncoding.EncodeToString(k.ed.Seed()), hex.EncodeToString(k.ed.Seed()), "{\"kty\":", "[", "]", "}")
	rng := rand.New(rand.NewPCG(7, 8))
	for range 10000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		for _, name := range []string{"a/index.html", "a/agent-card.json"} {
			data := []byte(b.String())
			checkScan(t, s, name, data)
		}
	}
}

// checkScan holds Scan to scanReference on one file: the same finding as
// with views, and one wherever there was one without.
func checkScan(t *testing.T, s *Scanner, name string, data []byte) {
	t.Helper()
	got, gok := s.Scan(name, data)
	want, wok := s.scanReference(name, data, true)
	if got != want || gok != wok {
		t.Fatalf("Scan(%q, %q) = %+v %v, reference %+v %v", name, data, got, gok, want, wok)
	}
	if old, ook := s.scanReference(name, data, false); ook && !gok {
		t.Fatalf("Scan(%q, %q) finds nothing; before the views it found %+v", name, data, old)
	}
}

// FuzzInTextGated: InText finds what inTextReference finds, at the same
// offset, on any text, and something wherever it did before the views.
func FuzzInTextGated(f *testing.F) {
	for _, s := range append(gatePieces(f), cardStrings...) {
		f.Add(s)
	}
	f.Add("aws_secret_access_key = " + strings.Repeat("A", 40))
	f.Add("ſecret_acceſſ_key: " + strings.Repeat("\u212a", 40) + "!")
	f.Add(strings.Repeat("ab-", 40) + "-----BEGIN EC PRIVATE KEY-----")
	f.Fuzz(func(t *testing.T, s string) {
		got, gok := InText(s)
		want, wok := inTextReference([]byte(s), 0, true)
		if got != want || gok != wok {
			t.Fatalf("InText = %+v %v, reference %+v %v", got, gok, want, wok)
		}
		if old, ook := inTextReference([]byte(s), 0, false); ook && !gok {
			t.Fatalf("InText finds nothing; before the views it found %+v", old)
		}
	})
}

// FuzzScanGated: Scan finds what scanReference finds, for HTML and JSON
// files alike, and something wherever it did before the views.
func FuzzScanGated(f *testing.F) {
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(i * 7)
	}
	ed := ed25519.NewKeyFromSeed(seed)
	s, err := NewScanner([]crypto.Signer{ed}, "0123456789abcdef0123")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range append(gatePieces(f), base64.StdEncoding.EncodeToString(seed), hex.EncodeToString(seed), "x 0123456789abcdef0123 &amp;") {
		f.Add("index.html", []byte(p))
		f.Add("agent-card.json", []byte(`{"description": "`+strings.ReplaceAll(p, `"`, `\"`)+`"}`))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if !utf8.ValidString(name) {
			return
		}
		checkScan(t, s, name, data)
	})
}

// TestGateSets: mayHoldLong stands for the gates of putty, aws and layers
// (each set within wordBytes, each run at least minSegment long), and
// b64Bytes are the bytes b64 maps.
func TestGateSets(t *testing.T) {
	for name, g := range map[string]struct {
		set *[256]bool
		n   int
	}{"putty": {&puttyBytes, len(puttyHeader)}, "aws": {&awsBytes, 40}, "layers": {&b64Bytes, minSegment}} {
		if g.n < minSegment {
			t.Errorf("%s needs a run of %d, shorter than mayHoldLong's %d", name, g.n, minSegment)
		}
		for c := range 256 {
			if g.set[c] && !wordBytes[c] {
				t.Errorf("%s's set holds %q, which wordBytes lacks", name, byte(c))
			}
		}
	}
	for c := range 256 {
		if b64Bytes[c] != (b64[c] != 0) {
			t.Errorf("b64Bytes[%q] = %v, b64 maps it to %q", byte(c), b64Bytes[c], b64[c])
		}
	}
	for _, c := range []byte(puttyHeader) {
		if !puttyBytes[c] {
			t.Errorf("puttyBytes lacks %q", c)
		}
	}
}
