package secret

// findToken is tokenRE().FindString(s), passing over text without a run
// of minTokenLen characters that tokens are written in: prose.
func findToken(s string) string {
	if !hasRunOf(s, &tokenBytes, minTokenLen) {
		return ""
	}
	return tokenRE().FindString(s)
}

// tokenBytes holds the characters of every match of tokenRE, and
// minTokenLen is the length of its shortest match (xox[baprs]- and ten
// more).
var (
	tokenBytes  = byteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=~.")
	minTokenLen = 15
)

// base64URLBytes are the characters of base64url: every Discord bot
// token's first part is a letter and 23 to 27 more of them, which prose
// seldom holds, so text without 24 in a row is passed over without the
// expression.
var base64URLBytes = byteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

func byteSet(chars string) (t [256]bool) {
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = true
	}
	return t
}

// hasRunOf reports whether s holds n bytes of set in a row.
func hasRunOf[T string | []byte](s T, set *[256]bool, n int) bool {
	_, _, ok := runFrom(s, n-1, set, n)
	return ok
}

// runFrom finds the first run of at least n bytes of set in s that ends
// after p (start and end, the whole run). Such a run holds a byte at p,
// or at p plus a multiple of n: only those bytes are read until one is in
// the set. (On short text, reading the whole run around such a byte costs
// less than nextRun's bookkeeping.)
func runFrom[T string | []byte](s T, p int, set *[256]bool, n int) (start, end int, ok bool) {
	for p < len(s) {
		if !set[s[p]] {
			p += n
			continue
		}
		start, end = p, p+1
		for start > 0 && set[s[start-1]] {
			start--
		}
		for end < len(s) && set[s[end]] {
			end++
		}
		if end-start >= n {
			return start, end, true
		}
		p = end + n
	}
	return 0, 0, false
}

// nextRun finds the first run of at least n bytes of set in s that starts
// at i or later, given that s[i-1] is not in set (or i is 0); it returns
// where the run starts (it ends at the first byte after start not in set)
// and whether there is one.
//
// It reads s as Boyer-Moore-Horspool reads a text for a pattern: a run of
// n that starts at i or later and no later than where the window of n at
// i ends holds that last byte, so only that byte is read at first; when
// it is in set, the bytes before it, down to one that is not, which no
// run of n can then start at or before; the window moves on past that
// byte. Text of short words separated by other bytes costs a few reads
// per window.
func nextRun(s []byte, i int, set *[256]bool, n int) (start int, ok bool) {
	known := -1 // s[i:known+1] are all in set
	for {
		q := i + n - 1
		if uint(q) >= uint(len(s)) {
			return 0, false
		}
		if !set[s[q]] {
			i, known = q+1, -1
			continue
		}
		lo := max(i, known+1)
		w := s[lo:q] // the bytes before q not yet known to be in set
		k := len(w)
		for k > 0 && set[w[k-1]] {
			k--
		}
		if k == 0 {
			return i, true // s[i:q+1] are all in set
		}
		// s[lo+k-1] is not in set, and every run of n starting at or
		// before it would hold it.
		i, known = lo+k, q
	}
}

// runEnd is where the run of set that holds s[i] ends.
func runEnd(s []byte, i int, set *[256]bool) int {
	for i < len(s) && set[s[i]] {
		i++
	}
	return i
}
