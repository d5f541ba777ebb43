package lint

import (
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// A quick proof that text holds none of a set of strings, for the gates
// of the injection rules (which strings a marker, a role frame, an
// encoding or a harm needs, which patterns a gate word may start): most
// text holds none, and a set of the three-character runs of its folded
// words, made once, tells so for every set of strings at the cost of a
// few lookups per string, where each gate would read the whole text.
//
// Why it never rules out a string the text holds. The set holds every
// run of three letters or digits of ". " + fold(s) + " .". (1) A string
// matched against that padded text (a pattern's literal) is a sequence
// of bytes of it: each of the string's runs of letters and digits is one
// of the text too, and so are its three-character pieces. (2) A string
// matched against ASCII s itself, in letter case or not: each of its runs
// of ASCII letters is in s, and foldASCII writes the letters of s
// lower-cased, in order, with nothing between two that are next to each
// other (only bytes that are not letters make gaps or are dropped, and
// leet rewrites digits only): the run, lower-cased, is in the folded
// text. The sentences strings.Split(folded, " . ") joined by spaces (what
// harmRe reads) hold the same words as the padded text. So a string one
// of whose pieces is not in the set is in neither; the set is hashed, so
// that a piece's bit being set says only that it may be.

// trigrams is the set, 4,096 bits of a hash of each piece.
type trigrams [64]uint64

// trigramHash hashes the three bytes of a piece, as v's low 24 bits, to
// 12 bits.
func trigramHash(v uint32) uint16 { return uint16((v & 0xFFFFFF) * 0x9E3779B1 >> 20) }

// foldedAlnum holds the bytes fold writes in words: a to z and 0 to 9.
var foldedAlnum = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	return t
}()

// add puts every run of three bytes of folded words of text (a to z, 0
// to 9) in the set.
func (t *trigrams) add(text string) {
	var v uint32
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !foldedAlnum[c] {
			n = 0
			continue
		}
		v = v<<8 | uint32(c)
		if n++; n >= 3 {
			h := trigramHash(v)
			t[h>>6] |= 1 << (h & 63)
		}
	}
}

// probe is one string of a gate and the pieces of it the set is asked
// for.
type probe struct {
	lit    string
	hashes []uint16 // nil: no run of three
	// exact says whether, with no run of three, strings.Contains on the
	// text the string is matched against tells (the string has no
	// letters, which fold may have changed, or is matched against the
	// folded text).
	exact bool
}

// probes are the strings of one gate: those with a run of three by the
// piece of them text least often holds (their key, the first asked for),
// and the others.
type probes struct {
	keys  []uint16  // distinct
	byKey [][]probe // the strings of each key
	// mask, for a gate of many keys, is the set of them: a text's set
	// is then read against it, word by word, not key by key.
	mask  *trigrams
	index map[uint16]int // of keys, with mask
	rest  []probe
}

// manyKeys is how many keys a gate has for its keys to be looked up
// through mask.
const manyKeys = 48

// letterRarity ranks the letters from the commonest in English text
// to the rarest; a digit ranks among the rare.
const letterRarity = "etaoinsrhldcumfpgwybvkxjqz"

func rarity(c byte) int {
	if i := strings.IndexByte(letterRarity, c); i >= 0 {
		return i
	}
	return 20
}

// newProbes makes the probes of lits. onS says the strings are matched
// against s as written (ASCII, in letter case or lower-cased): only their
// runs of ASCII letters are looked for, lower-cased. Otherwise they are
// matched against folded text, and their runs of a to z and 0 to 9 are.
func newProbes(lits []string, onS bool) *probes {
	ps := &probes{}
	for _, lit := range lits {
		p := probe{lit: lit}
		letters := false
		var v uint32
		n, key, best := 0, uint16(0), -1
		for i := 0; i < len(lit); i++ {
			c := lit[i]
			in := foldedAlnum[c]
			if onS {
				c = lowerByte(c)
				in = c >= 'a' && c <= 'z'
				letters = letters || in
			}
			if !in {
				n = 0
				continue
			}
			v = v<<8 | uint32(c)
			if n++; n >= 3 {
				h := trigramHash(v)
				p.hashes = append(p.hashes, h)
				if r := rarity(byte(v)) + rarity(byte(v>>8)) + rarity(byte(v>>16)); r > best {
					key, best = h, r
				}
			}
		}
		if p.hashes == nil {
			p.exact = !(onS && letters)
			ps.rest = append(ps.rest, p)
			continue
		}
		k := slices.Index(ps.keys, key)
		if k < 0 {
			k = len(ps.keys)
			ps.keys = append(ps.keys, key)
			ps.byKey = append(ps.byKey, nil)
		}
		ps.byKey[k] = append(ps.byKey[k], p)
	}
	if len(ps.keys) > manyKeys {
		ps.mask, ps.index = &trigrams{}, map[uint16]int{}
		for k, h := range ps.keys {
			ps.mask[h>>6] |= 1 << (h & 63)
			ps.index[h] = k
		}
	}
	return ps
}

// has reports whether piece h's bit is set.
func (t *trigrams) has(h uint16) bool { return t[h>>6]&(1<<(h&63)) != 0 }

// may reports whether the text the set was made of may hold p's string:
// false means it surely does not.
func (t *trigrams) may(p *probe) bool {
	for _, h := range p.hashes {
		if !t.has(h) {
			return false
		}
	}
	return true
}

// keyed calls f with each string of ps with a run of three that the
// text, whose set t is, may hold, until f returns true, and reports
// whether it did.
func (ps *probes) keyed(t *trigrams, f func(*probe) bool) bool {
	try := func(k int) bool {
		for i := range ps.byKey[k] {
			if p := &ps.byKey[k][i]; t.may(p) && f(p) {
				return true
			}
		}
		return false
	}
	if ps.mask == nil {
		for k, h := range ps.keys {
			if t.has(h) && try(k) {
				return true
			}
		}
		return false
	}
	for w := range t {
		for m := t[w] & ps.mask[w]; m != 0; m &= m - 1 {
			if try(ps.index[uint16(w*64+bits.TrailingZeros64(m))]) {
				return true
			}
		}
	}
	return false
}

// mayHoldAny reports whether text, whose set t is, may hold one of ps's
// strings: false means it holds none. raw is the text the strings are
// matched against, or "" when it is not at hand (a string without a run
// of three then may be held).
func (ps *probes) mayHoldAny(t *trigrams, raw string) bool { return ps.mayHoldAnyOf(t, raw, nil) }

// mayHoldAnyOf is mayHoldAny; present, when not nil, is the set of the
// bytes of ASCII raw that fold reads as gaps, which tells for a string of
// one such byte whether raw holds it.
func (ps *probes) mayHoldAnyOf(t *trigrams, raw string, present *asciiSet) bool {
	if ps.keyed(t, func(*probe) bool { return true }) {
		return true
	}
	for i := range ps.rest {
		p := &ps.rest[i]
		if present != nil && raw != "" && p.exact && len(p.lit) == 1 && p.lit[0] < utf8.RuneSelf && asciiFolded[p.lit[0]] == asciiGap {
			if present.mayHold(p.lit[0]) {
				return true
			}
			continue
		}
		if !p.exact || raw == "" || strings.Contains(raw, p.lit) {
			return true
		}
	}
	return false
}

// holdsAny reports whether text, whose set t is, holds one of ps's
// strings, which are matched against it byte for byte: the pieces rule
// most out, strings.Contains tells for the rest.
func (ps *probes) holdsAny(t *trigrams, text string) bool {
	if ps.keyed(t, func(p *probe) bool { return strings.Contains(text, p.lit) }) {
		return true
	}
	for i := range ps.rest {
		if strings.Contains(text, ps.rest[i].lit) {
			return true
		}
	}
	return false
}
