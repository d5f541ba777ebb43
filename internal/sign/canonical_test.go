package sign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	// The SDK projection shares parts with the card: written as a pair,
	// both forms are still each one's own.
	proj, _ := card.SDKProjectionValue(v)
	wantProj, err := CanonicalValue(proj)
	if err != nil {
		t.Fatalf("CanonicalValue of the projection: %v for %s", err, doc)
	}
	pv, pw, err := CanonicalPair(v, proj)
	if err != nil || !bytes.Equal(pv, want) || !bytes.Equal(pw, wantProj) {
		t.Fatalf("CanonicalPair = %s, %s, %v; want %s, %s", pv, pw, err, want, wantProj)
	}
}

// TestCanonicalPairShares: what the second value shares with the first is
// copied, and only that: an array that is a shorter slice of one of the
// first's, or another array of the same length, is written anew.
func TestCanonicalPairShares(t *testing.T) {
	arr := []any{"x", "y", "z"}
	obj := map[string]any{"k": json.Number("1"), "s": arr}
	v := map[string]any{"a": arr, "b": obj, "c": []any{arr[:2]}}
	w := map[string]any{"a": arr[:2], "b": obj, "c": []any{"p", "q", "r"}, "d": []any{arr}, "e": map[string]any{"k": json.Number("2")}}
	cv, cw, err := CanonicalPair(v, w)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":["x","y"],"b":{"k":1,"s":["x","y","z"]},"c":["p","q","r"],"d":[["x","y","z"]],"e":{"k":2}}`
	if wv, _ := CanonicalValue(v); !bytes.Equal(cv, wv) || string(cw) != want {
		t.Fatalf("CanonicalPair =\n%s\n%s\nwant\n%s\n%s", cv, cw, wv, want)
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

// BenchmarkCanonicalPair writes a card like the build benchmark's (a
// security requirement without scopes, so its SDK projection differs) and
// its projection: as a pair, and as two separate forms.
func BenchmarkCanonicalPair(b *testing.B) {
	c := &card.V1{Name: "Agent", Description: strings.Repeat("The agent books flights and hotels. ", 20), Version: "1.0.0",
		SupportedInterfaces: []card.Interface{{URL: "https://a.example/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		SecuritySchemes:      map[string]card.SecuritySchemeV1{"key": {APIKey: &card.APIKeyV1{Location: "header", Name: "X-Key"}}},
		SecurityRequirements: []card.RequirementV1{{Schemes: map[string]card.StringList{"key": {List: []string{}}}}}}
	for i := range 5 {
		c.Skills = append(c.Skills, card.SkillV1{ID: fmt.Sprint("skill-", i), Name: "Skill", Description: strings.Repeat("Finds and books the cheapest flight. ", 4), Tags: []string{"a", "b", "c"}, Examples: []string{"Book a flight", "Find a hotel"}})
	}
	unsigned, err := card.Compact(c)
	if err != nil {
		b.Fatal(err)
	}
	tree, err := card.Decode(unsigned, card.Strict)
	if err != nil {
		b.Fatal(err)
	}
	proj, omitted := card.SDKProjectionValue(tree)
	if len(omitted) == 0 {
		b.Fatal("the projection is the card")
	}
	b.Run("pair", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := CanonicalPair(tree, proj); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("separate", func(b *testing.B) {
		for b.Loop() {
			if _, err := CanonicalValue(tree); err != nil {
				b.Fatal(err)
			}
			if _, err := CanonicalValue(proj); err != nil {
				b.Fatal(err)
			}
		}
	})
}
