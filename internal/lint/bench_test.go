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

// BenchmarkLinterShapes lints both shapes of one card of the benchmark
// site with a new Linter, as `agentcards verify` does for each agent of a
// built site: its agent-card.json (testdata/bench-card.json), then its
// agent.json (testdata/bench-agent.json), whose strings the Linter then
// remembers from the first.
func BenchmarkLinterShapes(b *testing.B) {
	var docs []map[string]any
	size := 0
	for _, name := range []string{"testdata/bench-card.json", "testdata/bench-agent.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		doc, err := card.Decode(data, card.Strict)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, doc)
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		lr := &lint.Linter{}
		for _, doc := range docs {
			if fs := lr.Card(doc); len(fs) > 1 {
				b.Fatal(fs)
			}
		}
	}
}
