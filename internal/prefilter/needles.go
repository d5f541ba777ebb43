package prefilter

import "bytes"

// needles finds whether folded ASCII text holds any of a set of strings
// in one pass over the text: each position's two bytes are looked up in
// a table of the strings' first two bytes, and only the strings that
// start so are compared.
type needles struct {
	// single marks the bytes that are a string of the set by themselves.
	single [2]uint64
	// pairs marks the first two bytes of the longer strings.
	pairs  [128 * 128 / 64]uint64
	byPair map[uint16][][]byte
}

// newNeedles indexes set, whose strings are folded; a string with a byte
// outside ASCII is left out, since no text fold reads holds it.
func newNeedles(set [][]byte) *needles {
	n := &needles{byPair: map[uint16][][]byte{}}
	for _, s := range set {
		if len(s) == 0 || bytes.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }) {
			continue
		}
		if len(s) == 1 {
			n.single[s[0]/64] |= 1 << (s[0] % 64)
			continue
		}
		k := pairKey(s[0], s[1])
		n.pairs[k/64] |= 1 << (k % 64)
		n.byPair[k] = append(n.byPair[k], s)
	}
	return n
}

func pairKey(a, b byte) uint16 { return uint16(a)<<7 | uint16(b) }

// in reports whether text, folded ASCII, holds one of the strings.
func (n *needles) in(text []byte) bool {
	for i, c := range text {
		if n.single[c/64]&(1<<(c%64)) != 0 {
			return true
		}
		if i+1 == len(text) {
			break
		}
		k := pairKey(c, text[i+1])
		if n.pairs[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, s := range n.byPair[k] {
			if bytes.HasPrefix(text[i:], s) {
				return true
			}
		}
	}
	return false
}
