package strtab

import (
	"strconv"
	"testing"
)

// TestTable checks that each string gets one number, in the order they
// are added, and is found by it as the table grows.
func TestTable(t *testing.T) {
	tab := New(0)
	const n = 5000
	for round := range 2 {
		for i := range n {
			s := "agents/agent-" + strconv.Itoa(i) + "/.well-known/agent-card.json"
			if got := tab.Add(s); got != i {
				t.Fatalf("round %d: %q is number %d, want %d", round, s, got, i)
			}
		}
	}
	if got := tab.Add(""); got != n || tab.Len() != n+1 {
		t.Errorf(`"" is number %d of %d`, got, tab.Len())
	}
	for i := range n {
		s := "agents/agent-" + strconv.Itoa(i) + "/.well-known/agent-card.json"
		if j, ok := tab.Find(s); !ok || j != i || tab.At(i) != s {
			t.Errorf("%q: found %d, %v; number %d is %q", s, j, ok, i, tab.At(i))
		}
	}
	for _, s := range []string{"agents/agent-5000/.well-known/agent-card.json", "agents/agent-1/.well-known/agent-card.jso", "x"} {
		if j, ok := tab.Find(s); ok {
			t.Errorf("%q found as %d (%q)", s, j, tab.At(j))
		}
	}
}

// BenchmarkAdd adds 100,000 paths of a site to a new table.
func BenchmarkAdd(b *testing.B) {
	paths := make([]string, 100000)
	for i := range paths {
		paths[i] = "/srv/site/public/agents/agent-" + strconv.Itoa(i) + "/.well-known/agent-card.json"
	}
	for b.Loop() {
		tab := New(0)
		for _, p := range paths {
			tab.Add(p)
		}
	}
}
