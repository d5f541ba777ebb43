package lint

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/secret"
	"golang.org/x/text/unicode/norm"
)

// Text aimed at a model is found in a folded copy of each string: hidden
// characters dropped, look-alike letters of other scripts and styled
// letters read as the Latin letters they imitate, digits inside words read
// as the letters they stand in for ("ign0re"), letter case and apostrophes
// dropped, every run of other characters one space, and the end of a
// sentence (".", "!", "?", ";", ":" before a space, a line break) a word
// of its own, ".". So "IGNORE   previous\u200b instructions", "ignоre"
// with a Cyrillic о and "𝐢𝐠𝐧𝐨𝐫𝐞" all read "ignore", and a pattern can ask
// for an order at the start of a sentence ("Forget everything.").

// fold is s as the injection patterns read it.
func fold(s string) string {
	if ascii.Is(s) {
		return foldASCII(s, false)
	}
	return foldOther(s)
}

// foldPaddedOf is ". " + fold(s) + " .", as matchPadded reads it; allASCII
// says whether s is all ASCII.
func foldPaddedOf(s string, allASCII bool) string {
	if allASCII {
		return foldASCII(s, true)
	}
	return ". " + foldOther(s) + " ."
}

// foldOther is fold for text that is not all ASCII.
func foldOther(s string) string {
	if strings.ContainsFunc(s, narrowSpace) {
		s = joinNarrowSpaces(s)
	}
	// Compatibility forms (ℐ, ⁱ, ⒤, 🄸, full-width) become the letters
	// they show, and accents come apart from their letters (dropped below).
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	gap, stop, digits := true, false, false
	for i, r := range s {
		if r == '\'' || r == 0x2019 || r == 0x2018 || r == '`' || r == 0x00B4 || unicode.Is(unicode.Cf, r) || isFiller(r) || unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(secret.AsLatin(r))
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if gap && b.Len() > 0 {
				if stop {
					b.WriteString(" . ")
				} else {
					b.WriteByte(' ')
				}
			}
			digits = digits || unicode.IsDigit(r)
			b.WriteRune(r)
			gap, stop = false, false
			continue
		}
		gap = true
		switch r {
		case 0x3002, 0xFF01, 0xFF1F, 0xFF1B, 0x061F, 0x0964, 0x2029, 0x2028: // 。！？；؟ । and separators
			stop = true
		default:
			if r < utf8.RuneSelf {
				stop = stop || endsSentence(byte(r), s[i+1:])
			}
		}
	}
	if digits {
		return leet(b.String())
	}
	return b.String()
}

// narrowSpace reports whether r is a space narrower than a word space,
// which can split a word where no one sees it.
func narrowSpace(r rune) bool {
	return r == 0x2009 || r == 0x200A || r == 0x2006 || r == 0x2008 || r == 0x205F || r == 0x202F
}

// joinNarrowSpaces drops the narrow spaces between two letters:
// "Ign\u2009ore" is "Ignore".
func joinNarrowSpaces(s string) string {
	rs := []rune(s)
	out := rs[:0:0]
	for i, r := range rs {
		if narrowSpace(r) && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// foldASCII is fold for ASCII text; padded, ". " + fold(s) + " .".
func foldASCII(s string, padded bool) string { return foldASCIIScan(s, padded, nil) }

// asciiScan is what foldASCIIScan finds in a text besides its fold, when
// asked (foldPaddedScan): the trigrams of the folded text (tg, which
// must be empty), the set of the bytes read as gaps between words, and
// how many words between spaces are one byte other than ".".
type asciiScan struct {
	tg   *trigrams
	gaps asciiSet
	ones int
}

// foldASCIIScan is foldASCII, which also fills sc when it is not nil,
// in one loop that calls nothing and keeps few values (so that what it
// reads and writes stays in registers), writing to room it makes first,
// as much as it can write: twice len(s) and the padding. (Each byte of a
// word is written once; a gap, of at least one byte, is written as at
// most three, " . ", only before a word, of at least one byte more.)
//
// b starts with the padding, ". ", taken off at the end when not asked
// for; state is 0 in a word, gapState between words, and stopState
// between two sentences; v holds the last bytes of the word being
// written above a 1 bit put before its first (so that v has a run of
// three once v >= 1<<24); space is where the last space is; all is the
// letters and digits written and-ed together (a digit lacks the 0x40
// bit of the lower-case letters).
func foldASCIIScan(s string, padded bool, sc *asciiScan) string {
	var scratch trigrams // for a scan thrown away
	if sc == nil {
		sc = &asciiScan{tg: &scratch}
	}
	b := make([]byte, 2*len(s)+4)
	b[0], b[1] = '.', ' '
	j := 2 // how much of b is written
	tg := sc.tg
	const gapState, stopState = 1, 2
	state := uint8(gapState)
	all := byte(0xff)
	var v uint64
	space, ones := -1, 0
	var gaps asciiSet
	for i := 0; i < len(s); i++ {
		c := s[i]
		f := asciiFolded[c]
		if f > asciiDropped {
			if state != 0 {
				if j > 2 {
					if state == stopState {
						b[j], b[j+1], b[j+2] = ' ', '.', ' '
						j += 3
					} else {
						b[j] = ' '
						j++
					}
				}
				state, v = 0, 1
			}
			all &= f
			b[j] = f
			j++
			if v = v<<8 | uint64(f); v >= 1<<24 {
				h := trigramHash(uint32(v))
				tg[h>>6] |= 1 << (h & 63)
			}
			continue
		}
		if f == asciiDropped {
			continue
		}
		gaps[c>>6&1] |= 1 << (c & 63)
		if state == 0 {
			state = gapState
		}
		switch c {
		case ' ':
			if i-space == 2 && s[i-1] != '.' {
				ones++
			}
			space = i
		case '!', '?', ';', '<', '>', '(':
			state = stopState
		case '.', ':':
			// Before white space: not "example.com", "v1.2", "https:".
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\n' || s[i+1] == '\r' {
				state = stopState
			}
		case '\n':
			// An empty line, not a line wrapped.
			k := i + 1
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
				k++
			}
			if k < len(s) && s[k] == '\n' {
				state = stopState
			}
		}
	}
	if len(s)-space == 2 && s[len(s)-1] != '.' {
		ones++
	}
	b[j], b[j+1] = ' ', '.'
	j += 2
	if !padded {
		b, j = b[2:], j-4
	}
	// b is not written to again: the string may share its memory (as
	// strings.Builder's does). leet reads the padding's "." as words
	// without letters, and leaves them.
	folded := unsafe.String(unsafe.SliceData(b), j)
	if all&0x40 == 0 {
		// leet reads digits as letters: the trigrams are the text's as
		// it ends.
		folded = leet(folded)
		*tg = trigrams{}
		tg.add(folded)
	}
	sc.gaps, sc.ones = gaps, ones
	return folded
}

// What foldASCII makes of each byte: a letter or digit, lower-cased; a
// gap between words; or nothing (apostrophes and backquotes).
const (
	asciiGap     = 0
	asciiDropped = 1
)

var asciiFolded = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c == '\'' || c == '`':
			t[c] = asciiDropped
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			t[c] = byte(c)
		}
	}
	return t
}()

// mayEndSentence holds the bytes endsSentence may say end a sentence.
var mayEndSentence = func() (t [256]bool) {
	for _, c := range []byte("!?;<>(\n.:") {
		t[c] = true
	}
	return t
}()

// endsSentence reports whether c, followed by rest, ends a sentence: "!",
// "?", ";", "<" or ">", "." or ":" before white space (not "example.com", "v1.2",
// "https:"), or an empty line (one line break is how text is wrapped).
func endsSentence(c byte, rest string) bool {
	switch c {
	case '!', '?', ';', '<', '>', '(':
		return true // and the edges of an HTML tag, and an aside
	case '\n':
		return strings.HasPrefix(strings.TrimLeft(rest, " \t\r"), "\n")
	case '.', ':':
		return rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
	}
	return false
}

// leet reads the digits of folded words that also hold letters as the
// letters they imitate: "ign0re" is "ignore", "1nstruct10ns"
// "instructions"; words of digits alone ("2024") stay.
func leet(folded string) string {
	var b []byte // nil until a word changes
	for start := 0; start <= len(folded); {
		end := strings.IndexByte(folded[start:], ' ')
		if end < 0 {
			end = len(folded)
		} else {
			end += start
		}
		if w := folded[start:end]; hasLeetDigit(w) && strings.ContainsFunc(w, unicode.IsLetter) {
			if b == nil {
				b = append(make([]byte, 0, len(folded)), folded[:start]...)
			}
			for i := 0; i < len(w); i++ {
				b = append(b, leetLetter[w[i]])
			}
		} else if b != nil {
			b = append(b, w...)
		}
		if end < len(folded) && b != nil {
			b = append(b, ' ')
		}
		start = end + 1
	}
	if b == nil {
		return folded
	}
	return string(b)
}

// hasLeetDigit reports whether w holds one of the digits leet reads
// (and 8, which it leaves).
func hasLeetDigit(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '0', '1', '3', '4', '5', '7', '8':
			return true
		}
	}
	return false
}

// leetLetter is each byte as leet reads it: the digits 0, 1, 3, 4, 5 and
// 7 as the letters they stand in for inside words, o, i, e, a, s and t.
var leetLetter = func() (t [256]byte) {
	for c := range 256 {
		t[c] = byte(c)
	}
	for _, p := range []string{"0o", "1i", "3e", "4a", "5s", "7t"} {
		t[p[0]] = p[1]
	}
	return t
}()

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// asciiSet is a set of ASCII bytes.
type asciiSet [2]uint64

func (a *asciiSet) add(c byte)           { a[c>>6&1] |= 1 << (c & 63) }
func (a asciiSet) meets(b asciiSet) bool { return a[0]&b[0] != 0 || a[1]&b[1] != 0 }

// mayHold reports whether text whose gap bytes are a (foldPaddedScan) may
// hold c, a byte fold reads as a gap: false says it does not. A nil a
// knows nothing, and says it may.
func (a *asciiSet) mayHold(c byte) bool { return a == nil || a[c>>6&1]&(1<<(c&63)) != 0 }

// foldPaddedScan is foldPaddedOf(s, true) for ASCII s, read once for
// more: it puts the trigrams of the padded folded text in tg (which must
// be empty), as tg.add would, and returns the set of the bytes of s
// that fold reads as gaps between words (all but letters, digits,
// apostrophes and backquotes), and how many of the words of s between
// spaces (strings.Split(s, " ")) are one byte other than ".": four in a
// row are what spacedLettersHalved looks for.
func foldPaddedScan(s string, tg *trigrams) (string, asciiSet, int) {
	sc := asciiScan{tg: tg}
	folded := foldASCIIScan(s, true, &sc)
	return folded, sc.gaps, sc.ones
}

// markerSet is markerBytes as a set.
var markerSet = func() (a asciiSet) {
	for c := range utf8.RuneSelf {
		if markerBytes[c] {
			a.add(byte(c))
		}
	}
	return a
}()
