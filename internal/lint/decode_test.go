package lint

import (
	"math/rand/v2"
	"testing"
)

// letterDotsRef is letterDots as first written, every byte read.
func letterDotsRef(s string) bool {
	for i := 0; i+3 < len(s); i++ {
		if isLetterByte(s[i]) && s[i+1] == '.' && isLetterByte(s[i+2]) && s[i+3] == '.' {
			return true
		}
	}
	return false
}

// dotTexts are letters with dots between them, and dots that are not.
var dotTexts = []string{"", ".", "a.", "a.b", "a.b.", "I.G.N.O.R.E", "x a.b.", "a.b.c", "1.2.3.", "a..b.", ".a.b.", "v1.2.", "e.g. this", "é.a.b."}

// TestLetterDotsSameAsRef: letterDots, reading from the dots, finds what
// it did reading every byte.
func TestLetterDotsSameAsRef(t *testing.T) {
	for _, s := range append(dotTexts, gateTexts(t)...) {
		if got, want := letterDots(s), letterDotsRef(s); got != want {
			t.Fatalf("letterDots(%q) = %v, as first written %v", s, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(19, 20))
	found := 0
	for range 30000 {
		s := randomText(rng, []string{".", "a", "B", "1", " ", "..", "é", "x."}, 12)
		got, want := letterDots(s), letterDotsRef(s)
		if got != want {
			t.Fatalf("letterDots(%q) = %v, as first written %v", s, got, want)
		}
		if want {
			found++
		}
	}
	if found < 1000 {
		t.Fatalf("only %d random texts hold letters with dots", found)
	}
}

// FuzzLetterDots holds letterDots to letterDotsRef on any text.
func FuzzLetterDots(f *testing.F) {
	for _, s := range dotTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := letterDots(s), letterDotsRef(s); got != want {
			t.Fatalf("letterDots(%q) = %v, as first written %v", s, got, want)
		}
	})
}
