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

// hasRunOf reports whether s holds n bytes of set in a row. Such a run
// holds a byte at a multiple of n (less one): only those bytes are read
// until one is in the set.
func hasRunOf[T string | []byte](s T, set *[256]bool, n int) bool {
	for p := n - 1; p < len(s); {
		if !set[s[p]] {
			p += n
			continue
		}
		start, end := p, p+1
		for start > 0 && set[s[start-1]] {
			start--
		}
		for end < len(s) && set[s[end]] {
			end++
		}
		if end-start >= n {
			return true
		}
		p = end + n
	}
	return false
}
