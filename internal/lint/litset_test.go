package lint

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLitSet compares litSet with strings.Contains, over random text made
// of the strings' own pieces.
func TestLitSet(t *testing.T) {
	lits := []string{"<", "[", "ou are", "ool ", " gur ", "gur ", "tnega", "ab", "abc", "b", "system prompt", "\"role\""}
	ls := newLitSet(lits...)
	alphabet := []string{"o", "u", " ", "a", "r", "e", "g", "U", "R", "T", "N", "b", "c", "<", "[", "A", "B", "\"", "\u00e9", "system", "PROMPT", "role"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		got, gotLower := ls.in(s), ls.inLower(s)
		for i, lit := range lits {
			if want := strings.Contains(s, lit); (got&(1<<i) != 0) != want {
				t.Fatalf("in(%q) says %v for %q", s, !want, lit)
			}
			if want := strings.Contains(asciiLower(s), lit); (gotLower&(1<<i) != 0) != want {
				t.Fatalf("inLower(%q) says %v for %q", s, !want, lit)
			}
		}
	}
}

// asciiLower lower-cases the ASCII letters of s only.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// FuzzLitSet: litSet says what strings.Contains does.
func FuzzLitSet(f *testing.F) {
	f.Add("you are a tool < [ here on", "ou are")
	f.Fuzz(func(t *testing.T, s, lit string) {
		if lit == "" || !isASCII(lit) || strings.ToLower(lit) != lit {
			return
		}
		ls := newLitSet("x", lit, "yz")
		if got, want := ls.in(s)&2 != 0, strings.Contains(s, lit); got != want {
			t.Fatalf("in(%q) says %v for %q", s, got, lit)
		}
		if got, want := ls.inLower(s)&2 != 0, strings.Contains(asciiLower(s), lit); got != want {
			t.Fatalf("inLower(%q) says %v for %q", s, got, lit)
		}
	})
}
