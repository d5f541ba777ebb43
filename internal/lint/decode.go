package lint

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Readings of encoded text a model decodes on its own: base64, hex, ROT13,
// text written backwards, percent-encoding, \u escapes and letters with
// dots between them.

// base64Texts decodes the runs of s that are base64 (24 characters or
// more) of readable text: a sentence, not an image or a key.
func base64Texts(s string) []string {
	if len(s) < 24 {
		return nil
	}
	var out []string
	for start, end := range longRuns(s, base64Byte, 24) {
		if d, ok := decodeBase64Text(s[start:end]); ok {
			out = append(out, d)
		}
	}
	return out
}

// Classes of bytes, for longRuns.
const (
	hexByte = 1 << iota
	base64Byte
)

// byteClass holds the classes of each byte.
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		if isHexByte(byte(c)) {
			t[c] |= hexByte
		}
		if isBase64Byte(byte(c)) {
			t[c] |= base64Byte
		}
	}
	return t
}()

// longRuns yields the start and end of each run of min or more bytes of
// s in class, in order. Any such run holds a byte at a multiple of min
// (less one), so only those bytes are read until one is in the class.
func longRuns(s string, class uint8, min int) func(yield func(int, int) bool) {
	return func(yield func(int, int) bool) {
		for p := min - 1; p < len(s); {
			if byteClass[s[p]]&class == 0 {
				p += min
				continue
			}
			start, end := p, p+1
			for start > 0 && byteClass[s[start-1]]&class != 0 {
				start--
			}
			for end < len(s) && byteClass[s[end]]&class != 0 {
				end++
			}
			if end-start >= min && !yield(start, end) {
				return
			}
			p = end + min
		}
	}
}

func isBase64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '='
}

// decodeBase64Text decodes run as standard or URL-safe base64, padded or
// not, and keeps it if it reads as text: printable, with spaces between
// words.
func decodeBase64Text(run string) (string, bool) {
	run = strings.TrimRight(run, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		d, err := enc.DecodeString(run)
		if err != nil || !utf8.Valid(d) {
			continue
		}
		text := string(d)
		printable, spaces := 0, 0
		for _, r := range text {
			if unicode.IsPrint(r) {
				printable++
			}
			if r == ' ' {
				spaces++
			}
		}
		if n := utf8.RuneCountInString(text); printable*10 >= n*9 && spaces >= 2 {
			return text, true
		}
	}
	return "", false
}

// decodedVariants are the readings of s that a model would decode on its
// own: hex, ROT13, text written backwards, percent-encoding, \u escapes,
// letters written with dots between them ("I.G.N.O.R.E"). allASCII says
// whether s is all ASCII; tg, when not nil, is the trigrams of s's padded
// folded text.
func decodedVariants(s string, allASCII bool, tg *trigrams) []string {
	return decodedVariantsOf(s, allASCII, tg, nil)
}

// decodedVariantsOf is decodedVariants; present, when not nil, is the set
// of the bytes of ASCII s that fold reads as gaps.
func decodedVariantsOf(s string, allASCII bool, tg *trigrams, present *asciiSet) []string {
	var out []string
	if d := hexTexts(s); d != nil {
		out = append(out, d...)
	}
	// ROT13 and reversed English give themselves away by their
	// commonest words: "gur", "naq", "lbh"; "eht", "dna", "uoy". Each
	// sentence or labelled part ("Hint: ...") is read on its own: plain
	// text around an encoded part is no reason to leave it encoded.
	// Text without the pieces of any of rotWords and revWords holds
	// none of them: encodedWords would find neither.
	if (tg == nil || encodedProbes.mayHoldAny(tg, s)) && hasLongLetterRuns(s) {
		rot, rev := encodedWords(s, allASCII)
		for _, part := range encodedParts(s, rot || rev) {
			if r := rot13(part); rot && englishness(r) > englishness(part)+1 {
				out = append(out, r)
			}
			if r := reversed(part); rev && englishness(r) > englishness(part)+1 {
				out = append(out, r)
			}
		}
	}
	if present.mayHold('%') && strings.Contains(s, "%") {
		if d, err := url.QueryUnescape(s); err == nil && d != s {
			out = append(out, d)
		}
	}
	if present.mayHold('\\') && strings.Contains(s, `\u`) {
		if d, ok := unescapeU(s); ok {
			out = append(out, d)
		}
	}
	if present.mayHold('.') && strings.Count(s, ".") >= 6 && letterDots(s) {
		if d, ok := undotted(s); ok {
			out = append(out, d)
		}
	}
	return out
}

// rotWords and revWords give ROT13 and reversed English away, in
// lower case.
var (
	rotWords        = []string{" gur ", " naq ", " lbh ", " guvf ", " hfre ", "gur "}
	revWords        = []string{" eht ", " dna ", " uoy ", " siht ", " resu ", "tnega", " lla "}
	encodedWordsAll = append(append([]string(nil), rotWords...), revWords...)
	encodedSet      = newLitSet(encodedWordsAll...)
	encodedProbes   = newProbes(encodedWordsAll, true)
	rotMask         = uint64(1)<<len(rotWords) - 1
)

// encodedWords reports whether s, lower-cased, holds one of rotWords,
// and one of revWords; allASCII says whether s is all ASCII.
func encodedWords(s string, allASCII bool) (rot, rev bool) {
	if !allASCII {
		l := strings.ToLower(s)
		return containsAny(l, rotWords...), containsAny(l, revWords...)
	}
	m := encodedSet.inLower(s)
	return m&rotMask != 0, m&^rotMask != 0
}

// partBreak ends a sentence or a label: ". ", ": ", "; ", "! ", "? ".
var partBreak = lazyRegexp(`[.:;!?]\s+`)

// encodedParts are s and, when it has more than one, each of its
// sentences and labelled parts; none when look is false.
func encodedParts(s string, look bool) []string {
	if !look {
		return nil
	}
	parts := partBreak().Split(s, 16)
	if len(parts) == 1 {
		return parts
	}
	return append([]string{s}, parts...)
}

// hexTexts decodes runs of 16 or more hex digits that read as text.
func hexTexts(s string) []string {
	var out []string
	for start, end := range longRuns(s, hexByte, 16) {
		run := s[start:end]
		run = run[:len(run)&^1]
		if d, err := hex.DecodeString(run); err == nil && utf8.Valid(d) && readsAsText(string(d)) {
			out = append(out, string(d))
		}
	}
	return out
}

func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// readsAsText reports whether d is printable with spaces between words.
func readsAsText(d string) bool {
	printable, spaces := 0, 0
	for _, r := range d {
		if unicode.IsPrint(r) {
			printable++
		}
		if r == ' ' {
			spaces++
		}
	}
	return printable*10 >= utf8.RuneCountInString(d)*9 && spaces >= 2
}

// hasLongLetterRuns reports whether s holds three words of three or more
// ASCII letters: the least text worth decoding.
func hasLongLetterRuns(s string) bool {
	n, run := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isLetterByte(s[i]) {
			run++
			continue
		}
		if run >= 3 {
			if n++; n == 3 {
				return true
			}
		}
		run = 0
	}
	return false
}

// commonWords are English words almost any sentence of orders holds.
var commonWords = map[string]bool{"the": true, "you": true, "to": true, "and": true, "this": true, "user": true, "all": true,
	"before": true, "never": true, "always": true, "ignore": true, "instructions": true, "agent": true, "of": true, "for": true,
	"send": true, "call": true, "do": true, "not": true, "tell": true, "ask": true, "your": true, "previous": true,
	"without": true, "with": true, "from": true, "assistant": true, "model": true, "prior": true, "files": true, "data": true,
	"funds": true, "transfer": true, "email": true, "now": true, "any": true, "is": true}

// englishness counts the common English words of s.
func englishness(s string) int {
	n := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if commonWords[w] {
			n++
		}
	}
	return n
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

func reversed(s string) string {
	rs := []rune(s)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return string(rs)
}

var uEscape = lazyRegexp(`\\u[0-9a-fA-F]{4}`)

func unescapeU(s string) (string, bool) {
	changed := false
	out := uEscape().ReplaceAllStringFunc(s, func(m string) string {
		n, err := strconv.ParseUint(m[2:], 16, 32)
		if err != nil {
			return m
		}
		changed = true
		return string(rune(n))
	})
	return out, changed
}

var dotted = lazyRegexp(`\b(?:[A-Za-z]\.){3,}[A-Za-z]?\.?`)

// undotted joins letters written with dots between them.
func undotted(s string) (string, bool) {
	changed := false
	out := dotted().ReplaceAllStringFunc(s, func(m string) string {
		changed = true
		return strings.ReplaceAll(m, ".", "")
	})
	return out, changed
}

// letterDots reports whether s holds letters written with dots between
// them: "I.G.N".
func letterDots(s string) bool {
	// From each dot that may be the first of the two.
	for from := 1; from+2 < len(s); {
		d := strings.IndexByte(s[from:len(s)-2], '.')
		if d < 0 {
			return false
		}
		i := from + d // s[i-1] a letter, s[i+1] a letter, s[i+2] a dot?
		if isLetterByte(s[i-1]) && isLetterByte(s[i+1]) && s[i+2] == '.' {
			return true
		}
		from = i + 1
	}
	return false
}
