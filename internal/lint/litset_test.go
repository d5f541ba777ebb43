package lint

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/ascii"
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
		if lit == "" || !ascii.Is(lit) || strings.ToLower(lit) != lit {
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

// TestCredentialStemSet: hasCredentialStem says what containsFoldAny
// does, the stems being lower-case letters.
func TestCredentialStemSet(t *testing.T) {
	for _, w := range credentialStems {
		for i := 0; i < len(w); i++ {
			if w[i] < 'a' || w[i] > 'z' {
				t.Fatalf("stem %q holds %q, not a lower-case letter", w, w[i])
			}
		}
	}
	pieces := append([]string{"", "_", "-", "@", "[", "`", "{", "\x7f", "Ö", "1"}, credentialStems...)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(5) {
			p := pieces[rng.IntN(len(pieces))]
			if len(p) > 2 && rng.IntN(2) == 0 {
				p = p[:rng.IntN(len(p))] // half a stem
			}
			if rng.IntN(2) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		s := b.String()
		if got, want := hasCredentialStem(s), containsFoldAny(s, credentialStems); got != want {
			t.Fatalf("hasCredentialStem(%q) = %v, containsFoldAny %v", s, got, want)
		}
	}
}
