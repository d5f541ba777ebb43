package secret

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"math/big"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// chunkSize is the length of the windows of a key's secret bytes that are
// looked for: every chunkSize-byte window of every secret is in the set,
// and a text is probed only at every chunkSize-th position, so any leaked
// run of at least 2*chunkSize-1 bytes of a secret is found, wherever it
// starts, at a sixteenth of the probes of a slide over every position.
const chunkSize = 16

// chunks holds every chunkSize-byte window of some secrets, with a table of
// their first two bytes to pass over most probes at once.
type chunks struct {
	first [1 << 16]bool
	set   map[[chunkSize]byte]struct{}
}

func newChunks(secrets [][]byte) *chunks {
	c := &chunks{set: map[[chunkSize]byte]struct{}{}}
	for _, s := range secrets {
		for i := 0; i+chunkSize <= len(s); i++ {
			k := [chunkSize]byte(s[i:])
			c.set[k] = struct{}{}
			c.first[int(k[0])<<8|int(k[1])] = true
		}
	}
	return c
}

// in reports whether b holds 2*chunkSize-1 bytes of one of the secrets in
// a row (or a whole window of one at a probed position).
func (c *chunks) in(b []byte) bool {
	if len(c.set) == 0 {
		return false
	}
	for ; len(b) >= chunkSize; b = b[chunkSize:] {
		if c.first[uint16(b[0])<<8|uint16(b[1])] {
			if _, ok := c.set[[chunkSize]byte(b)]; ok {
				return true
			}
		}
	}
	return false
}

// anywhere reports whether b holds a whole window of one of the secrets
// at any position: for short decoded pieces (a line of a hex dump holds 16
// bytes), where in's stride would miss it.
func (c *chunks) anywhere(b []byte) bool {
	if c == nil || len(c.set) == 0 {
		return false
	}
	for i := 0; i+chunkSize <= len(b); i++ {
		if c.first[int(b[i])<<8|int(b[i+1])] {
			if _, ok := c.set[[chunkSize]byte(b[i:])]; ok {
				return true
			}
		}
	}
	return false
}

// Scanner finds key material in files about to be published: what InText
// finds, except the AWS heuristic and the API tokens and credential files
// InText finds in base64 (too loose for whole pages), plus the secret
// bytes of particular private keys (raw, base64, base64url or hex, at any
// alignment, and any fragment of 31 bytes or more) and literal strings
// such as the value of $AGENTCARDS_SIGNING_KEY; all of it also in what a
// file decodes to, two layers deep: the text in its base64 and base64url
// runs (textSpans), and its percent and JSON views (throughViews). It is
// safe for concurrent use.
type Scanner struct {
	keys     *chunks
	literals [][]byte
	digest   []byte
	clean    cleanTexts
}

// cleanTexts remembers texts that base64 runs decoded to and that held
// nothing, by the depth of decoding they were read at: every card of a
// site carries the same few (the protected header of its signing key's
// signatures), which are then read once rather than once per card. Only
// texts of up to maxCleanText bytes are kept, up to maxCleanTexts at each
// depth.
type cleanTexts struct {
	mu  sync.RWMutex
	set [maxDepth]map[string]struct{}
}

const (
	maxCleanText  = 1024
	maxCleanTexts = 1024
)

// has reports whether t was found clean at depth.
func (c *cleanTexts) has(depth int, t []byte) bool {
	if len(t) > maxCleanText {
		return false
	}
	c.mu.RLock()
	_, ok := c.set[depth][string(t)]
	c.mu.RUnlock()
	return ok
}

// add remembers that t was found clean at depth.
func (c *cleanTexts) add(depth int, t []byte) {
	if len(t) > maxCleanText {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set[depth] == nil {
		c.set[depth] = map[string]struct{}{}
	}
	if len(c.set[depth]) < maxCleanTexts {
		c.set[depth][string(t)] = struct{}{}
	}
}

// Digest identifies what the scanner looks for (a SHA-256 over hashes of
// the keys' secret numbers and of the literals; nothing secret can be read
// back from it): a file found clean by one scanner must be scanned again
// by a scanner with another digest.
func (s *Scanner) Digest() []byte { return s.digest }

// NewScanner makes a Scanner for the given private keys (Ed25519, ECDSA or
// RSA) and literal strings; literals shorter than 16 bytes are ignored. A
// key of another type, or one without its secret parts, is an error.
func NewScanner(keys []crypto.Signer, literals ...string) (*Scanner, error) {
	var secrets [][]byte
	for _, k := range keys {
		switch k := k.(type) {
		case ed25519.PrivateKey:
			if len(k) != ed25519.PrivateKeySize {
				return nil, fmt.Errorf("secret: Ed25519 private key of %d bytes", len(k))
			}
			secrets = append(secrets, k.Seed())
		case *ecdsa.PrivateKey:
			d, err := k.Bytes()
			if err != nil {
				return nil, fmt.Errorf("secret: %v", err)
			}
			secrets = append(secrets, d)
		case *rsa.PrivateKey:
			s, err := rsaSecrets(k)
			if err != nil {
				return nil, err
			}
			secrets = append(secrets, s...)
		default:
			return nil, fmt.Errorf("secret: unsupported key type %T", k)
		}
	}
	s := &Scanner{keys: newChunks(secrets)}
	for _, l := range literals {
		if len(l) >= 16 {
			s.literals = append(s.literals, []byte(l))
		}
	}
	h := sha256.New()
	h.Write([]byte("agentcards secret scanner 2\n"))
	for _, b := range append(slices.Clone(secrets), s.literals...) {
		sum := sha256.Sum256(b)
		h.Write(sum[:])
	}
	s.digest = h.Sum(nil)
	return s, nil
}

// rsaSecrets are the secret numbers of an RSA key: D, the primes, and the
// CRT values (D mod p-1 for each prime p, and the inverse of the second
// prime modulo the first), computed here rather than by Precompute, which
// would change the caller's key and leaves them unset for a key it finds
// wrong.
func rsaSecrets(k *rsa.PrivateKey) ([][]byte, error) {
	if k.D == nil || k.D.Sign() <= 0 || len(k.Primes) < 2 {
		return nil, errors.New("secret: RSA private key without D or its primes")
	}
	out := [][]byte{k.D.Bytes()}
	one := big.NewInt(1)
	for _, p := range k.Primes {
		if p == nil || p.Cmp(one) <= 0 {
			return nil, errors.New("secret: RSA private key with a prime below 2")
		}
		pm1 := new(big.Int).Sub(p, one)
		out = append(out, p.Bytes(), new(big.Int).Mod(k.D, pm1).Bytes())
	}
	if qinv := new(big.Int).ModInverse(k.Primes[1], k.Primes[0]); qinv != nil {
		out = append(out, qinv.Bytes())
	}
	return out, nil
}

// Scan reports the first key material in one output file; name (its path)
// only decides how the file is read: as JSON when it ends in .json. Entity
// references are decoded first wherever the file holds '&' (html/template
// writes '+' as &#43; and '"' as &#34;).
func (s *Scanner) Scan(name string, data []byte) (Finding, bool) {
	// A JSON file is read as values: an object is a private JWK only with
	// kty and a private member of its own, and every string is text. Other
	// files, JSON that does not decode and JSON nested deeper than
	// maxJSONDepth are text throughout. Member names may be written with
	// \u escapes ("\u006bty"), which decoding reads.
	textJWK, structural := true, false
	// Without "kty" in any letter case (most files), a JSON file is no
	// JWK, and its text holds none either when it is the file itself,
	// without references to decode (jwkText would look for kty again) or
	// escapes to read.
	isJSON := strings.HasSuffix(name, ".json")
	escaped := isJSON && jsonEscaped(data)
	if isJSON && !escaped && bytes.IndexByte(data, '&') < 0 && !containsKty(data) {
		textJWK = false
	}
	if isJSON && (escaped || bytes.Contains(data, []byte("kty"))) && shallowJSON(data) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil && d.Decode(new(any)) == io.EOF {
			if kind, ok := jwkValue(v, 0); ok {
				return Finding{Kind: kind}, true
			}
			textJWK, structural = false, true
		}
	}
	// Text detectors read the file with character references decoded: all
	// they look for is letters, digits, '+', '/', '-', quotes and blanks,
	// which decoding only brings back. Literals are also looked for as
	// written.
	text := data
	if bytes.IndexByte(data, '&') >= 0 {
		buf := unescaped.Get().(*[]byte)
		defer func() {
			if cap(*buf) <= 1<<20 { // not a huge file's
				unescaped.Put(buf)
			}
		}()
		*buf = unescape((*buf)[:0], data)
		text = *buf
		if f, ok := s.literal(data); ok {
			return f, true
		}
	}
	if f, ok := s.view(text, textJWK, 0); ok {
		return f, true
	}
	if s.keys.in(data) {
		return Finding{Kind: "the signing key in use (raw bytes)"}, true
	}
	// Then the percent and JSON views of the text. The JSON view of a
	// JSON file read as values is what decoding read: no JWK is looked
	// for in it as text.
	pct := percentEscaped(text)
	if !isJSON || len(text) != len(data) {
		// (Read above for a JSON file's data, which text is unless
		// references were decoded: each decoded makes it shorter.)
		escaped = jsonEscaped(text)
	}
	return s.views(text, pct, escaped, !structural, 0)
}

// views looks through the percent and JSON views of text (throughViews;
// pct and json say whether text is percentEscaped and jsonEscaped), at a
// depth of decoding, each read as scanText reads it; jsonJWK says whether
// a private JWK is looked for as text in the JSON view.
func (s *Scanner) views(text []byte, pct, json, jsonJWK bool, depth int) (Finding, bool) {
	if depth >= maxDepth || !pct && !json {
		return Finding{}, false
	}
	return throughViews(text, pct, json, func(view []byte, json bool) (Finding, bool) {
		return s.scanText(view, !json || jsonJWK, depth+1)
	})
}

// scanText reads a text that a file decoded to, at depth, with every
// detector of view (the private-JWK text detector when jwk is set), then
// its views.
func (s *Scanner) scanText(text []byte, jwk bool, depth int) (Finding, bool) {
	if f, ok := s.view(text, jwk, depth); ok {
		return f, true
	}
	return s.views(text, percentEscaped(text), jsonEscaped(text), true, depth)
}

// HexShown reports the secret bytes of a key the scanner holds that raw,
// written in hex, shows a reader of the digits at either alignment: read
// from the first digit (raw itself) or from the second (each byte the low
// half of one byte of raw and the high half of the next). A short run of
// hex, such as a SHA-256 digest in a list of them, can carry no other key
// material: a private key in any format takes more bytes.
func (s *Scanner) HexShown(raw []byte) (Finding, bool) {
	if s.keys.anywhere(raw) {
		return Finding{Kind: "the signing key in use (hex)"}, true
	}
	if len(raw) < 2 {
		return Finding{}, false
	}
	var buf [64]byte // a digest's fits: no allocation per sum
	shifted := buf[:0]
	if len(raw)-1 > len(buf) {
		shifted = make([]byte, 0, len(raw)-1)
	}
	shifted = shifted[:len(raw)-1]
	for i := range shifted {
		shifted[i] = raw[i]<<4 | raw[i+1]>>4
	}
	if s.keys.anywhere(shifted) {
		return Finding{Kind: "the signing key in use (hex)"}, true
	}
	return Finding{}, false
}

// unescaped holds buffers for unescape: what Scan decodes lives only
// while it scans (a Finding holds no text), so one buffer serves file
// after file.
var unescaped = sync.Pool{New: func() any { return new([]byte) }}

// unescape appends to out data with its character references decoded as
// browsers decode them (html.UnescapeString): what html/template writes
// (&#43; &#34; &amp; &lt; ...) by hand, and, where data holds any other
// reference (HTML5's named ones, &plus; &sol; &colon;, or one without its
// ';'), all of data through html.UnescapeString.
func unescape(out, data []byte) []byte {
	start := len(out)
	out = slices.Grow(out, len(data))
	rest := data
	for {
		i := bytes.IndexByte(rest, '&')
		if i < 0 {
			return append(out, rest...)
		}
		out = append(out, rest[:i]...)
		rest = rest[i:]
		r, n := plainRef(rest)
		if n == 0 {
			return append(out[:start], html.UnescapeString(string(data))...)
		}
		out = utf8.AppendRune(out, r)
		rest = rest[n:]
	}
}

// plainRef reads the character reference b starts with ('&') when it is
// one html/template writes, which html.UnescapeString would read as the
// character it names: &amp; &lt; &gt; &quot; &apos;, or a number with its
// ';' that names a character other than NUL, a C1 control (which browsers
// read as Windows-1252) or a surrogate. n is the reference's length, 0
// for any other.
func plainRef(b []byte) (r rune, n int) {
	end := bytes.IndexByte(b[:min(len(b), 10)], ';')
	if end < 0 {
		return 0, 0
	}
	switch ref := b[1:end]; {
	case string(ref) == "amp":
		r = '&'
	case string(ref) == "lt":
		r = '<'
	case string(ref) == "gt":
		r = '>'
	case string(ref) == "quot":
		r = '"'
	case string(ref) == "apos":
		r = '\''
	case len(ref) > 1 && ref[0] == '#':
		var ok bool
		if r, ok = charRef(ref[1:]); !ok || r == 0 || r >= 0x80 && r <= 0x9f || utf16.IsSurrogate(r) {
			return 0, 0
		}
	default:
		return 0, 0
	}
	return r, end + 1
}

// charRef reads the number of a numeric character reference (what
// follows "&#": decimal digits, or x or X and hex digits), as
// strconv.ParseUint(digits, 10 or 16, 32) would; ok is false when that
// fails or the number is above utf8.MaxRune.
func charRef(digits []byte) (r rune, ok bool) {
	hex := digits[0] == 'x' || digits[0] == 'X'
	if hex {
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case hex && c|0x20 >= 'a' && c|0x20 <= 'f':
			d = int(c|0x20-'a') + 10
		default:
			return 0, false
		}
		if hex {
			n = n<<4 | d
		} else {
			n = n*10 + d
		}
		if n > utf8.MaxRune {
			return 0, false // (also past ParseUint's 32 bits)
		}
	}
	return rune(n), true
}

// view runs every text detector but AWS's over one view of a file, at a
// depth of decoding; the private-JWK text detector only when textJWK is
// set. Below maxDepth, the text that base64 runs decode to is read too
// (scanText, one layer deeper).
func (s *Scanner) view(data []byte, textJWK bool, depth int) (Finding, bool) {
	if f, ok := s.literal(data); ok {
		return f, true
	}
	if f, ok := armour(data, true, true); ok {
		return f, true
	}
	if textJWK {
		if f, ok := jwkText(data); ok {
			return f, true
		}
	}
	var text func([]byte) (Finding, bool)
	if depth < maxDepth {
		text = func(t []byte) (Finding, bool) {
			if s.clean.has(depth, t) {
				return Finding{}, false
			}
			f, ok := s.scanText(t, true, depth+1)
			if !ok {
				s.clean.add(depth, t)
			}
			return f, ok
		}
	}
	if f, ok := encodedRuns(data, s.keys, text); ok {
		return f, true
	}
	return groupedHex(data, s.keys)
}

// literal finds one of the Scanner's literal strings in data.
func (s *Scanner) literal(data []byte) (Finding, bool) {
	for _, l := range s.literals {
		if i := bytes.Index(data, l); i >= 0 {
			return Finding{Kind: "the signing key in use ($AGENTCARDS_SIGNING_KEY)", Offset: i}, true
		}
	}
	return Finding{}, false
}

// maxJSONDepth bounds the walk of a JSON file's values.
const maxJSONDepth = 64

// shallowJSON reports whether no array or object in data (read as JSON,
// without checking it is valid) lies deeper than maxJSONDepth.
func shallowJSON(data []byte) bool {
	depth := 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			if depth++; depth > maxJSONDepth {
				return false
			}
		case ']', '}':
			depth--
		}
	}
	return true
}

// jwkValue finds, in a decoded JSON value, an object that is a private JWK
// (kty and a private member) at any depth, or a string that holds one as
// text.
func jwkValue(v any, depth int) (string, bool) {
	if depth > maxJSONDepth {
		return "", false
	}
	switch x := v.(type) {
	case string:
		if _, ok := jwkText([]byte(x)); ok {
			return "private JSON Web Key", true
		}
		// Written with character references (&quot;kty&quot;), as a
		// page's text shows it.
		if strings.IndexByte(x, '&') >= 0 {
			if _, ok := jwkText(unescape(nil, []byte(x))); ok {
				return "private JSON Web Key", true
			}
		}
	case map[string]any:
		if IsPrivateJWK(x) {
			return "private JSON Web Key", true
		}
		for _, e := range x {
			if k, ok := jwkValue(e, depth+1); ok {
				return k, true
			}
		}
	case []any:
		for _, e := range x {
			if k, ok := jwkValue(e, depth+1); ok {
				return k, true
			}
		}
	}
	return "", false
}
