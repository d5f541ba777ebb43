package lint

import (
	"math/rand/v2"
	"testing"
)

// TestWordIndex: a word index answers as the map it is made of, for its
// words and for others near them.
func TestWordIndex(t *testing.T) {
	m := map[string]int{}
	for w, c := range wordClasses {
		m[w] = int(c)
	}
	for w := range byGate {
		m[w+"!"] = len(w)
	}
	ix := newWordIndex(m)
	rng := rand.New(rand.NewPCG(9, 10))
	var probes []string
	for w := range m {
		probes = append(probes, w, w[:len(w)-1], w+"s", string(w[0]))
	}
	probes = append(probes, "", "\xff", "a b")
	for range 2000 {
		b := make([]byte, 1+rng.IntN(8))
		for i := range b {
			b[i] = "abcdeilnorstuy!"[rng.IntN(15)]
		}
		probes = append(probes, string(b))
	}
	for _, p := range probes {
		want, wantOK := m[p]
		if got, ok := ix.get(p); got != want || ok != wantOK {
			t.Fatalf("get(%q) = %d, %v; the map says %d, %v", p, got, ok, want, wantOK)
		}
	}
}
