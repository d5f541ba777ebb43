package sign

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
)

// sameCanonical checks that CanonicalValue of the decoded document equals
// Canonicalize of its text.
func sameCanonical(t *testing.T, doc []byte) {
	t.Helper()
	v, err := card.Decode(doc, card.Strict)
	if err != nil {
		return // not a card a verifier reads
	}
	want, err := Canonicalize(doc)
	if err != nil {
		return
	}
	got, err := CanonicalValue(v)
	if err != nil {
		t.Fatalf("CanonicalValue: %v for %s", err, doc)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("from the tree:\n%s\nfrom the text:\n%s", got, want)
	}
}

func TestCanonicalValueMatchesText(t *testing.T) {
	for _, doc := range canonicalSeeds(t) {
		sameCanonical(t, doc)
	}
}

func canonicalSeeds(t testing.TB) [][]byte {
	seeds := [][]byte{
		[]byte(`{"b":1,"a":[1.0,1e2,-0,0.000001,1e-7,123456789012345680000,"x\u0000\u001f\"\\\/\b\f\n\r\t\u2028é😀"],"€":{"😀":1,"ﬀ":2,"\ud7ff":3},"":null,"t":true,"f":false}`),
		[]byte(`{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000001,1e-7]}`),
	}
	files, _ := filepath.Glob("../../testdata/*/*.json")
	more, _ := filepath.Glob("../../testdata/*/*/*.json")
	for _, f := range append(files, more...) {
		if b, err := os.ReadFile(f); err == nil && json.Valid(b) {
			seeds = append(seeds, b)
		}
	}
	return seeds
}

// FuzzCanonicalValue: writing the canonical form from the decoded tree
// never differs from canonicalizing the text.
func FuzzCanonicalValue(f *testing.F) {
	for _, s := range canonicalSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc []byte) { sameCanonical(t, doc) })
}
