// Package ascii answers whether text is all ASCII, the question the
// linter, the leak check and the prefilter ask before taking their fast
// paths for such text. It needs only the standard library.
package ascii

import "unicode/utf8"

// Is reports whether s holds only ASCII bytes (below 0x80).
func Is(s string) bool {
	// Eight bytes at a time: with one bounds check for the eight (t), the
	// compiler reads them in one load.
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8]
		x := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		if x&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
