package aicatalog

import (
	"os"
	"testing"
)

// FuzzParse: no input makes Parse panic; a catalog it takes has as many
// entries as its entries array, and problems only when something is off.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	if golden, err := os.ReadFile("../../testdata/golden/example-site/.well-known/ai-catalog.json"); err == nil {
		f.Add(golden)
	}
	f.Add([]byte(`{"entries": [{"identifier": "x", "data": {}, "url": 1}, 3, null], "host": {"logoUrl": "::"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, problems, err := Parse(data)
		if err != nil {
			if c != nil || problems != nil {
				t.Fatal("a catalog and an error")
			}
			return
		}
		for _, p := range problems {
			if p.Msg == "" {
				t.Fatalf("a problem without a message at %q", p.Path)
			}
		}
		again, problems2, _ := Parse(data)
		if len(again.Entries) != len(c.Entries) || len(problems2) != len(problems) {
			t.Fatal("Parse is not deterministic")
		}
	})
}
