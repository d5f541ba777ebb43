package secret

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestContainsFold: containsFold, which looks for a word's rarest letter
// eight bytes at a time, finds what a plain search does, Unicode case partners
// (K, the Kelvin sign; ſ, the long s) included.
func TestContainsFold(t *testing.T) {
	plain := func(data []byte, word string) bool {
		for i := 0; i+len(word) <= len(data); i++ {
			if data[i]|0x20 == word[0] && bytes.EqualFold(data[i:i+len(word)], []byte(word)) {
				return true
			}
		}
		return false
	}
	pieces := []string{"a", "A", "c", "C", "e", "s", "S", "ſ", "\u212a", "k", "K", "t", "T", "y", "x", "\xc5", "\xff", " ", "acce", "ACC"}
	words := []string{"access", "kty", "ask", "ak", "as", "a"}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 100000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		data := []byte(b.String())
		for _, w := range words {
			if got, want := containsFold(data, w), plain(data, w); got != want {
				t.Fatalf("containsFold(%q, %q) = %v, want %v", data, w, got, want)
			}
		}
	}
}
