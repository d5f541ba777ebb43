package card

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// MaxDepth is how deeply a card a verifier reads may nest objects and
// arrays. The manifest allows 32 levels (manifest.MaxDepth), so every card
// the build writes stays well inside it.
const MaxDepth = 64

// Limits says how strictly Decode reads.
type Limits struct {
	// Depth is how deeply objects and arrays may nest.
	Depth int
	// InexactNumbers accepts numbers that RFC 8785 cannot pin
	// (exactNumber), for readers that verify no signature over them.
	InexactNumbers bool
}

// Strict is how a verifier reads a card, a JWS header or a JWKS.
var Strict = Limits{Depth: MaxDepth}

// Decode reads a card strictly, as a verifier must before it trusts any of
// it: valid UTF-8 (encoding/json would silently turn invalid bytes into
// U+FFFD) with no unpaired surrogate escapes, exactly one JSON object,
// nesting at most lim.Depth, numbers that mean what their RFC 8785 form
// means (unless lim.InexactNumbers), no member name
// twice in one object, and no two member names in one object that differ
// only in letter case. Go's encoding/json matches member names without
// regard to case (and keeps the last), so {"url": ..., "URL": ...} would
// mean one thing to a Go client and another to the signer. Numbers are
// json.Number.
func Decode(data []byte, lim Limits) (map[string]any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	v, err := decodeDocument(data, lim)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

// path is where a value lies in a document, kept as a stack of members and
// indexes and written out only for an error: building every value's path
// as a string would cost time growing with the square of the input (a long
// member name above a long array).
type path struct {
	segs []pathSeg
}

type pathSeg struct {
	index int // >= 0 for an array element
	name  string
}

func (p *path) push(index int, name string) { p.segs = append(p.segs, pathSeg{index, name}) }
func (p *path) pop()                        { p.segs = p.segs[:len(p.segs)-1] }

// inSecurity reports a path through a security requirement or scheme
// (securityRequirements, securitySchemes, v0.3's security), whose members
// are never empty in meaning: a requirement with no scopes, or with no
// scheme at all ({"schemes": {}}), is an alternative way in, and a second
// member of a scheme (a oneof) changes it.
// Names are compared as a reader that takes them in any letter case, or
// as snake_case aliases, would (security_requirements, securityrequirements
// and SECURITYSCHEMES alike): a member one reader ignores may be another's
// security requirement.
func (p *path) inSecurity() bool {
	for _, s := range p.segs {
		switch strings.ReplaceAll(foldName(s.name), "_", "") {
		case "SECURITYREQUIREMENTS", "SECURITYSCHEMES", "SECURITY":
			return true
		}
	}
	return false
}

// String is the path as key.path[2].notation, or "(card)" at the top.
func (p *path) String() string {
	var b strings.Builder
	for _, s := range p.segs {
		if s.index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return orRoot(b.String())
}

// foldName maps every rune to the smallest rune of its simple case-folding
// orbit, so two names fold alike exactly when bytes.EqualFold (what
// encoding/json uses) calls them equal: "URL", "url" and "uRl" alike, and
// also "\u212aind" (KELVIN SIGN) and "kind".
func foldName(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		// The smallest rune of an ASCII letter's orbit is its upper case
		// ('K' < 'k' < U+212A KELVIN SIGN); other ASCII runes fold to
		// themselves.
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

// checkSurrogates refuses \u escapes of unpaired UTF-16 surrogates.
// encoding/json reads them as U+FFFD, so a card could carry "\ud800"
// where the signer wrote U+FFFD, and the signature would still verify,
// while JavaScript reads a different string.
func checkSurrogates(data []byte) error {
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			j := bytes.IndexByte(data[i:], '\\')
			if j < 0 {
				return nil
			}
			i += j
		}
		if i+1 >= len(data) {
			continue
		}
		if data[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		r := hexRune(data[i+2:])
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if i+11 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
				if lo := hexRune(data[i+8:]); lo >= 0xdc00 && lo < 0xe000 {
					i += 11
					continue
				}
			}
			return fmt.Errorf("a string holds an unpaired UTF-16 surrogate (%s): refused", data[i:i+6])
		case r >= 0xdc00 && r < 0xe000:
			return fmt.Errorf("a string holds an unpaired UTF-16 surrogate (%s): refused", data[i:i+6])
		}
		i += 5
	}
	return nil
}

// hexRune reads the four hex digits of a \u escape; -1 when they are not.
func hexRune(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return -1
		}
	}
	return r
}

// maxNumberLength bounds a number literal; real cards need a few digits.
const maxNumberLength = 40

// exactNumber refuses a number that RFC 8785 cannot pin: one whose value
// differs from that of its canonical form (the shortest decimal of the
// nearest double): 9007199254740993 canonicalizes to 9007199254740992 and
// 0.10000000000000001 to 0.1, so a signature over one would also verify the
// other, while a client reading numbers exactly would see another value.
// 0.1, 1.0 and 1e2 are fine: they mean what their canonical forms mean.
func exactNumber(n json.Number) error {
	s := n.String()
	if len(s) > maxNumberLength {
		return fmt.Errorf("number %s... is longer than %d characters: refused", s[:12], maxNumberLength)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("number %s is out of range: refused", s)
	}
	canonical, err := jcs.NumberToJSON(f)
	if err != nil {
		return fmt.Errorf("number %s: %v", s, err)
	}
	exact, ok1 := new(big.Rat).SetString(s)
	signed, ok2 := new(big.Rat).SetString(canonical)
	if !ok1 || !ok2 || exact.Cmp(signed) != 0 {
		return fmt.Errorf("number %s canonicalizes (RFC 8785) to %s, another value, so no signature can pin it: refused", s, canonical)
	}
	return nil
}
