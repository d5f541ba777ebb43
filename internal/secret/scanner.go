package secret

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// chunkSize is the length of the pieces a key's secret bytes are cut into:
// any leaked run of at least 2*chunkSize-1 bytes of a secret holds a whole
// piece, wherever it starts.
const chunkSize = 16

// chunks holds the aligned chunkSize-byte pieces of some secrets, with a
// table of their first two bytes to skip most positions at once.
type chunks struct {
	first [1 << 16]bool
	set   map[[chunkSize]byte]bool
}

func newChunks(secrets [][]byte) *chunks {
	c := &chunks{set: map[[chunkSize]byte]bool{}}
	for _, s := range secrets {
		for i := 0; i+chunkSize <= len(s); i += chunkSize {
			var k [chunkSize]byte
			copy(k[:], s[i:])
			c.set[k] = true
			c.first[int(k[0])<<8|int(k[1])] = true
		}
	}
	return c
}

// in reports whether b holds one of the pieces, at any offset.
func (c *chunks) in(b []byte) bool {
	if len(c.set) == 0 {
		return false
	}
	for i := 0; i+chunkSize <= len(b); i++ {
		if c.first[int(b[i])<<8|int(b[i+1])] {
			var k [chunkSize]byte
			copy(k[:], b[i:])
			if c.set[k] {
				return true
			}
		}
	}
	return false
}

// Scanner finds key material in files about to be published: what InText
// finds, except the AWS heuristic (too loose for whole pages), plus the
// secret bytes of particular private keys (raw, base64, base64url or hex,
// at any alignment, and any fragment of 31 bytes or more) and literal
// strings such as the value of $AGENTCARDS_SIGNING_KEY. It is safe for
// concurrent use.
type Scanner struct {
	keys     *chunks
	literals [][]byte
}

// NewScanner makes a Scanner for the given private keys (Ed25519, ECDSA or
// RSA) and literal strings; literals shorter than 16 bytes are ignored.
func NewScanner(keys []crypto.Signer, literals ...string) (*Scanner, error) {
	var secrets [][]byte
	for _, k := range keys {
		switch k := k.(type) {
		case ed25519.PrivateKey:
			secrets = append(secrets, k.Seed())
		case *ecdsa.PrivateKey:
			d, err := k.Bytes()
			if err != nil {
				return nil, fmt.Errorf("secret: %v", err)
			}
			secrets = append(secrets, d)
		case *rsa.PrivateKey:
			secrets = append(secrets, k.D.Bytes())
			for _, p := range k.Primes {
				secrets = append(secrets, p.Bytes())
			}
			k.Precompute()
			secrets = append(secrets, k.Precomputed.Dp.Bytes(), k.Precomputed.Dq.Bytes(), k.Precomputed.Qinv.Bytes())
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
	return s, nil
}

// Scan reports the first key material in one output file; name (its path)
// only decides how the file is read: as JSON when it ends in .json. Entity
// references are decoded first wherever the file holds '&' (html/template
// writes '+' as &#43; and '"' as &#34;).
func (s *Scanner) Scan(name string, data []byte) (Finding, bool) {
	// A JSON file is read as values: an object is a private JWK only with
	// kty and a private member of its own, and every string is text. Other
	// files (and JSON that does not decode) are text throughout.
	textJWK := true
	if strings.HasSuffix(name, ".json") && bytes.Contains(data, []byte("kty")) {
		var v any
		if json.Unmarshal(data, &v) == nil {
			if kind, ok := jwkValue(v, 0); ok {
				return Finding{Kind: kind}, true
			}
			textJWK = false
		}
	}
	// Text detectors read the file with character references decoded: all
	// they look for is letters, digits, '+', '/', '-', quotes and blanks,
	// which decoding only brings back.
	text := data
	if bytes.IndexByte(data, '&') >= 0 {
		text = unescape(data)
	}
	if f, ok := s.view(text, textJWK); ok {
		return f, true
	}
	if s.keys.in(data) {
		return Finding{Kind: "the signing key in use (raw bytes)"}, true
	}
	return Finding{}, false
}

// unescape decodes the character references HTML escapers write: numeric
// ones (&#43; &#x2F;) and &amp; &lt; &gt; &quot; &apos;. Others stay as
// they are.
func unescape(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for {
		i := bytes.IndexByte(data, '&')
		if i < 0 {
			return append(out, data...)
		}
		out = append(out, data[:i]...)
		data = data[i:]
		end := bytes.IndexByte(data[:min(len(data), 10)], ';')
		if end < 0 {
			out = append(out, '&')
			data = data[1:]
			continue
		}
		ref := string(data[1:end])
		switch {
		case ref == "amp":
			out = append(out, '&')
		case ref == "lt":
			out = append(out, '<')
		case ref == "gt":
			out = append(out, '>')
		case ref == "quot":
			out = append(out, '"')
		case ref == "apos":
			out = append(out, '\'')
		case len(ref) > 1 && ref[0] == '#':
			base, digits := 10, ref[1:]
			if digits[0] == 'x' || digits[0] == 'X' {
				base, digits = 16, digits[1:]
			}
			n, err := strconv.ParseUint(digits, base, 32)
			if err != nil || n > utf8.MaxRune {
				out = append(out, data[:end+1]...)
			} else {
				out = utf8.AppendRune(out, rune(n))
			}
		default:
			out = append(out, data[:end+1]...)
		}
		data = data[end+1:]
	}
}

// view runs every text detector but AWS's over one view of a file; the
// private-JWK text detector only when textJWK is set.
func (s *Scanner) view(data []byte, textJWK bool) (Finding, bool) {
	for _, l := range s.literals {
		if i := bytes.Index(data, l); i >= 0 {
			return Finding{Kind: "the signing key in use ($AGENTCARDS_SIGNING_KEY)", Offset: i}, true
		}
	}
	if f, ok := pemArmour(data); ok {
		return f, true
	}
	if f, ok := putty(data); ok {
		return f, true
	}
	if textJWK {
		if f, ok := jwkText(data); ok {
			return f, true
		}
	}
	return encodedRuns(data, s.keys)
}

// maxJSONDepth bounds the walk of a JSON file's values.
const maxJSONDepth = 64

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
	case map[string]any:
		if _, ok := x["kty"]; ok {
			for _, m := range PrivateJWKMembers {
				if _, ok := x[m]; ok {
					return "private JSON Web Key", true
				}
			}
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
