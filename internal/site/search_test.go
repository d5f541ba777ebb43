package site

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// searchWordsRef is searchWords as it was first written, with
// strings.FieldsFunc and a map of bools: the reference the faster one is
// held to.
func searchWordsRef(parts []string) string {
	seen := map[string]bool{}
	var words []string
	for _, p := range parts {
		for _, w := range strings.FieldsFunc(strings.ToLower(p), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '.' && r != '_'
		}) {
			w = strings.Trim(w, "-._")
			if w != "" && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	return strings.Join(words, " ")
}

// TestSearchWordsMatchesReference: searchWords gives what the reference
// gives, over random text made of word characters, separators, upper case,
// non-ASCII letters and digits, and invalid UTF-8.
func TestSearchWordsMatchesReference(t *testing.T) {
	pieces := []string{"a", "B", "zz", "Ünïcode", "ΣΑΣ", "٣", "-", ".", "_", " ", "\t", "\n", ",", "!", "…", "\xff", "\xe2\x82", "İ", "ǅ", "Ⅻ", "Ⓐ", "x-y", "1.2", "__", "日本"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		parts := make([]string, r.IntN(4))
		for i := range parts {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			parts[i] = b.String()
		}
		if got, want := searchWords(parts), searchWordsRef(parts); got != want {
			t.Fatalf("searchWords(%q) = %q, want %q", parts, got, want)
		}
	}
}

// BenchmarkSearchWords: the words of an agent like the benchmark's.
func BenchmarkSearchWords(b *testing.B) {
	desc := strings.Repeat("The agent books flights, hotels and trains; it compares fares (economy, business) and holds seats for 24 hours. ", 6)
	parts := []string{"agent-42", "Travel Agent 42", desc, "travel", "booking", "fares"}
	for range 5 {
		parts = append(parts, "Book a flight", "Finds and books the cheapest flight that fits the dates, with seats held while you decide.")
	}
	b.ReportAllocs()
	for b.Loop() {
		searchWords(parts)
	}
}
