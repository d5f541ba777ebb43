package lint_test

import (
	"os"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/lint"
)

// BenchmarkCard lints one card of the benchmark site (testdata/bench/gen:
// a ~100-word description, five skills with tags and examples), as a
// build does for every agent it signs.
func BenchmarkCard(b *testing.B) {
	data, err := os.ReadFile("testdata/bench-card.json")
	if err != nil {
		b.Fatal(err)
	}
	doc, err := card.Decode(data, card.Strict)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if fs := lint.Card(doc); len(fs) > 1 {
			b.Fatal(fs)
		}
	}
}

// BenchmarkDecodeAndCard is what a build pays for each card it signs: the
// strict decode of the encoded card, then the rules.
func BenchmarkDecodeAndCard(b *testing.B) {
	data, err := os.ReadFile("testdata/bench-card.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		doc, err := card.Decode(data, card.Strict)
		if err != nil {
			b.Fatal(err)
		}
		lint.Card(doc)
	}
}
