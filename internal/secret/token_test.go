package secret

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestTokenGate proves findToken's gate from tokenRE's syntax: every
// character a match can hold is in tokenBytes, and no match is shorter
// than minTokenLen; then compares findToken with the expression over
// random text.
func TestTokenGate(t *testing.T) {
	re, err := syntax.Parse(tokenRE().String(), syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	var minLen func(re *syntax.Regexp) int
	minLen = func(re *syntax.Regexp) int {
		switch re.Op {
		case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpBeginLine, syntax.OpEndLine:
			return 0
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				if r > 0xff || !tokenBytes[r] || re.Flags&syntax.FoldCase != 0 {
					t.Fatalf("literal %q holds %q, which tokenBytes lacks (or ignores case)", string(re.Rune), r)
				}
			}
			return len(re.Rune)
		case syntax.OpCharClass:
			for i := 0; i < len(re.Rune); i += 2 {
				for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
					if r > 0xff || !tokenBytes[r] {
						t.Fatalf("class %v holds %q, which tokenBytes lacks", re, r)
					}
				}
			}
			return 1
		case syntax.OpCapture:
			return minLen(re.Sub[0])
		case syntax.OpConcat:
			n := 0
			for _, sub := range re.Sub {
				n += minLen(sub)
			}
			return n
		case syntax.OpAlternate:
			n := -1
			for _, sub := range re.Sub {
				if m := minLen(sub); n < 0 || m < n {
					n = m
				}
			}
			return n
		case syntax.OpStar, syntax.OpQuest:
			minLen(re.Sub[0])
			return 0
		case syntax.OpPlus:
			return minLen(re.Sub[0])
		case syntax.OpRepeat:
			return re.Min * minLen(re.Sub[0])
		}
		t.Fatalf("tokenRE holds %v, which the test does not read", re)
		return 0
	}
	if n := minLen(re); n != minTokenLen {
		t.Fatalf("the shortest match of tokenRE is %d characters, minTokenLen %d", n, minTokenLen)
	}
	pieces := []string{" ", "xoxb-", "1234567890", "abcdefghij", "sk-", "AKIA", "ABCDEFGHIJKLMNOP", ".", "eyJ", "_", "-", "/", "=", "~", ":", "\n", "é"}
	rng := rand.New(rand.NewPCG(13, 14))
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := findToken(s), tokenRE().FindString(s); got != want {
			t.Fatalf("findToken(%q) = %q, the expression %q", s, got, want)
		}
	}
}

// TestHasRunOf: hasRunOf, which reads one byte in n until one is in the
// set, finds a run of n exactly when a plain count does, wherever the run
// lies and however long the gaps around it.
func TestHasRunOf(t *testing.T) {
	plain := func(s string, set *[256]bool, n int) bool {
		run := 0
		for i := 0; i < len(s); i++ {
			if run = run + 1; !set[s[i]] {
				run = 0
			}
			if run >= n {
				return true
			}
		}
		return false
	}
	rng := rand.New(rand.NewPCG(7, 30))
	for range 20000 {
		b := make([]byte, rng.IntN(80))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = " .:\xff"[rng.IntN(4)]
			} else {
				b[i] = "aZ09_-+/="[rng.IntN(9)]
			}
		}
		for _, n := range []int{1, 2, 5, 15, 24} {
			for _, set := range []*[256]bool{&tokenBytes, &base64URLBytes} {
				if got, want := hasRunOf(string(b), set, n), plain(string(b), set, n); got != want {
					t.Fatalf("hasRunOf(%q, %d) = %v, want %v", b, n, got, want)
				}
			}
		}
	}
}
