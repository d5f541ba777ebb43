package prefilter

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTableSameAsContains checks a table's scan and mark against
// strings.Contains over every literal: many literals sharing their first
// two and four bytes (as "you are now" and "you will act as" do), of one
// to nine bytes, over text made of their pieces.
func TestTableSameAsContains(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "b", "y", "o", "u", " ", "you ", "you a", "ab", "ba", "\xff"}
	random := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 300 {
		t0 := newTable()
		var lits []string
		for id := range 1 + rng.IntN(60) {
			lit := random(1 + rng.IntN(4))
			lit = lit[:min(len(lit), 1+rng.IntN(9))]
			lits = append(lits, lit)
			t0.add(lit, id)
		}
		for range 40 {
			text := random(rng.IntN(16))
			want := make([]bool, len(lits))
			for id, lit := range lits {
				want[id] = strings.Contains(text, lit)
			}
			got := make([]bool, len(lits))
			mark(t0, text, got)
			scanned := make([]bool, len(lits))
			scan(t0, text, func(id int) bool {
				scanned[id] = true
				return false
			})
			for id := range lits {
				if got[id] != want[id] || scanned[id] != want[id] {
					t.Fatalf("literal %q in %q: mark says %v, scan %v, strings.Contains %v", lits[id], text, got[id], scanned[id], want[id])
				}
			}
		}
	}
}
