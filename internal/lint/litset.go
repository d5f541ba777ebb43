package lint

import "math/bits"

// litSet tells, in one pass over a text, which of up to 64 ASCII strings
// it holds: what a run of strings.Contains calls would, at the cost of
// one. Each byte of the text is looked up in a table of the strings'
// first bytes, and the next in one of their second bytes; only strings
// that start so are compared.
type litSet struct {
	lits   []string
	single uint64 // the strings of one byte
	first  [256]uint64
	second [256]uint64
	// firstFold and secondFold are first and second with each
	// lower-case letter's upper case too, for inLower.
	firstFold  [256]uint64
	secondFold [256]uint64
}

// newLitSet indexes lits, which must be ASCII and non-empty, at most 64.
func newLitSet(lits ...string) *litSet {
	if len(lits) > 64 {
		panic("lint: more than 64 literals in a set")
	}
	ls := &litSet{lits: lits}
	for i, lit := range lits {
		bit := uint64(1) << i
		ls.first[lit[0]] |= bit
		ls.firstFold[lit[0]] |= bit
		ls.firstFold[upperByte(lit[0])] |= bit
		if len(lit) == 1 {
			ls.single |= bit
			continue
		}
		ls.second[lit[1]] |= bit
		ls.secondFold[lit[1]] |= bit
		ls.secondFold[upperByte(lit[1])] |= bit
	}
	return ls
}

// bit is the set's bit for its string lit.
func (ls *litSet) bit(lit string) uint64 {
	for i, l := range ls.lits {
		if l == lit {
			return 1 << i
		}
	}
	panic("lint: " + lit + " is not in the set")
}

// in returns the set of the strings that s holds, byte for byte: bit i
// says strings.Contains(s, lits[i]).
func (ls *litSet) in(s string) uint64 { return ls.scan(s, false) }

// inLower returns the set of the strings that s, lower-cased as ASCII
// (A to Z as a to z), holds; the strings must hold no upper-case letter.
// For ASCII s, bit i says strings.Contains(strings.ToLower(s), lits[i]).
func (ls *litSet) inLower(s string) uint64 { return ls.scan(s, true) }

// scan is in, or inLower when fold is set.
func (ls *litSet) scan(s string, fold bool) uint64 {
	first, second := &ls.first, &ls.second
	if fold {
		first, second = &ls.firstFold, &ls.secondFold
	}
	var found uint64
	for i := 0; i < len(s); i++ {
		m := first[s[i]] &^ found
		if m == 0 {
			continue
		}
		found |= m & ls.single
		if i+1 == len(s) {
			break
		}
		for m &= second[s[i+1]]; m != 0; m &= m - 1 {
			b := bits.TrailingZeros64(m)
			lit := ls.lits[b]
			if len(s)-i < len(lit) {
				continue
			}
			if at := s[i : i+len(lit)]; fold && equalLower(at, lit) || !fold && at == lit {
				found |= 1 << b
			}
		}
	}
	return found
}

func upperByte(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalLower reports whether s, lower-cased as ASCII, is lit.
func equalLower(s, lit string) bool {
	for i := 0; i < len(lit); i++ {
		if lowerByte(s[i]) != lit[i] {
			return false
		}
	}
	return true
}
