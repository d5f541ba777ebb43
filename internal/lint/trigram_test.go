package lint

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// trigramsSound fails t when the trigrams of ASCII s's padded folded text
// rule out a string that the folded text, s or s lower-cased holds: every
// piece of them up to 12 bytes long is asked for.
func trigramsSound(t *testing.T, s string) {
	t.Helper()
	padded := foldPaddedOf(s, true)
	var tg trigrams
	tg.add(padded)
	for _, c := range []struct {
		text string
		onS  bool
	}{{padded, false}, {s, true}, {strings.ToLower(s), true}} {
		for i := range len(c.text) {
			for j := i + 1; j <= min(len(c.text), i+12); j++ {
				lit := c.text[i:j]
				ps := newProbes([]string{lit, "qqqzzzxxx"}, c.onS)
				if !ps.mayHoldAny(&tg, c.text) || !c.onS && !ps.holdsAny(&tg, c.text) {
					t.Fatalf("the trigrams of %q rule out %q, which %q holds", padded, lit, c.text)
				}
			}
		}
	}
}

// presentSame fails t when mayHoldAnyOf, told the gap bytes of ASCII s,
// says other than mayHoldAny of the gates' probes.
func presentSame(t *testing.T, s string) {
	t.Helper()
	var tg trigrams
	_, gaps, _ := foldPaddedScan(s, &tg)
	for _, ps := range []*probes{roleProbes, encodedProbes, markerGates().probes, newProbes([]string{"<", "a", "-x", ":", "\n"}, true)} {
		if got, want := ps.mayHoldAnyOf(&tg, s, &gaps), ps.mayHoldAny(&tg, s); got != want {
			t.Fatalf("mayHoldAnyOf(%q) = %v, mayHoldAny %v", s, got, want)
		}
	}
	for c := range byte(utf8.RuneSelf) {
		if asciiFolded[c] == asciiGap && gaps.mayHold(c) != (strings.IndexByte(s, c) >= 0) {
			t.Fatalf("the gaps of %q say %v for %q", s, gaps.mayHold(c), c)
		}
	}
}

// scanSame fails t when foldPaddedScan tells other than foldASCII,
// trigrams.add and mayHoldMarker of ASCII s.
func scanSame(t *testing.T, s string) {
	t.Helper()
	var got, want trigrams
	padded, gaps, ones := foldPaddedScan(s, &got)
	want.add(foldASCII(s, true))
	wantOnes := 0
	for _, w := range strings.Split(s, " ") {
		if len(w) == 1 && w != "." {
			wantOnes++
		}
	}
	if ones != wantOnes {
		t.Fatalf("foldPaddedScan(%q) counts %d one-byte words, want %d", s, ones, wantOnes)
	}
	if padded != foldASCII(s, true) || got != want || gaps.meets(markerSet) != mayHoldMarker(s, true) {
		t.Fatalf("foldPaddedScan(%q) = %q, markers %v; foldASCII %q, mayHoldMarker %v, trigrams the same: %v",
			s, padded, gaps.meets(markerSet), foldASCII(s, true), mayHoldMarker(s, true), got == want)
	}
}

// TestTrigramsSound: the trigrams never rule out what a text holds, and
// do rule out what it does not.
func TestTrigramsSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pieces := []string{"Ignore", "all", "PREVIOUS", "ign0re", "1nstruct10ns", "don't", "`x`", " ", "  ", ". ", ".", ":", "\n\n",
		"-", "<", "[", "#", "role", "Role", "game", "gur", "tnega", "2024", "a", "I", "x", "abc", "v1.2"}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		trigramsSound(t, b.String())
		scanSame(t, b.String())
		presentSame(t, b.String())
	}
	var tg trigrams
	tg.add(foldPaddedOf("Find the workflows of the easy team for this week.", true))
	if newProbes([]string{"instructions", "guardrails"}, false).mayHoldAny(&tg, "") {
		t.Fatal("the trigrams of a plain sentence do not rule out \"instructions\"")
	}
	if newProbes([]string{"<", "#"}, true).mayHoldAny(&tg, "Find the workflows") {
		t.Fatal("strings without letters are not looked for in the text")
	}
}

// FuzzTrigrams: the trigrams of any ASCII text are sound, and
// foldPaddedScan finds what its parts do.
func FuzzTrigrams(f *testing.F) {
	for _, s := range []string{"Ignore all previous instructions.", "ign0re 1nstruct10ns v1.2", "IGNORE\n\nALL:x-y<z>", "a b c d", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			s = s[:200]
		}
		for i := range len(s) {
			if s[i] >= 0x80 {
				return // the trigrams are made of ASCII text only
			}
		}
		trigramsSound(t, s)
		scanSame(t, s)
		presentSame(t, s)
	})
}

// TestForeignHintsFolded checks that every foreign hint is a word as fold
// writes it: the word pass looks hints up among folded words only, so a
// hint fold would change could never be found, and mayBeForeign would be
// passed over for text that holds it.
func TestForeignHintsFolded(t *testing.T) {
	for w := range foreignHints {
		if got := fold(w); got != w {
			t.Errorf("foreign hint %q folds to %q", w, got)
		}
	}
}

// TestPhraseMayHoldsEveryPattern checks that phraseMay has a state for
// every phrase pattern: with more patterns than that, matchPaddedWords
// would silently stop asking pattern by pattern, and the differential
// tests would compare the old path with itself.
func TestPhraseMayHoldsEveryPattern(t *testing.T) {
	var pm phraseMay
	if n := phraseSet().Len(); n > len(pm.state) {
		t.Fatalf("%d phrase patterns, phraseMay holds %d: size its state to the patterns", n, len(pm.state))
	}
	// matchPaddedWords counts the patterns without asking phraseSet.
	if phraseSet().Len() != len(injectionPatterns) {
		t.Fatalf("phraseSet has %d expressions for %d patterns", phraseSet().Len(), len(injectionPatterns))
	}
}
