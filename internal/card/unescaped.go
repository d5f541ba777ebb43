package card

// UnescapedRun is how many bytes s begins with that JSON holds as they
// are, in a string of any encoder (RFC 8259, RFC 8785) and as any strict
// reader takes them: neither a control character, '"' nor '\\'. It looks
// at eight bytes at a time.
func UnescapedRun(s string) int { return unescapedRun(s, false) }

// unescapedRun is UnescapedRun; with ascii set it also stops at the first
// byte of 0x80 or more, for writers that read what is not ASCII rune by
// rune.
func unescapedRun(s string, ascii bool) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var high uint64 // the bytes of 0x80 or more to stop at
	if ascii {
		high = highs
	}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // one bounds check for the eight loads, which the compiler joins
		x := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		q, bs := x^(ones*'"'), x^(ones*'\\')
		// A byte below 0x20, or a zero byte of q or bs (a quote or a
		// backslash), or one of 0x80 or more when asked. Each test may
		// also flag bytes after a real one, never misses one.
		if (x&high|(x-ones*0x20)&^x|(q-ones)&^q|(bs-ones)&^bs)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || ascii && c >= 0x80 {
			break
		}
	}
	return i
}
