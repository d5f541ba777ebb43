package mcp_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/agentcards/agentcards/internal/mcp"
)

// TestMarshalOrder: a snapshot lists tools and prompts by name and
// resources by URI, a resource's one unique key (two resources may share
// a name), so that a server listing the same things in another order
// gives the same bytes.
func TestMarshalOrder(t *testing.T) {
	resources := []mcp.Resource{
		{URI: "file:///b/readme.md", Name: "readme"},
		{URI: "file:///c/guide.md", Name: "guide"},
		{URI: "file:///a/readme.md", Name: "readme"},
	}
	snap := func(order []int) []byte {
		t.Helper()
		s := &mcp.Snapshot{
			ProtocolVersion: "2025-11-25",
			ServerInfo:      mcp.Implementation{Name: "docs"},
			Tools:           []mcp.Tool{{Name: "zeta", InputSchema: []byte(`{"type":"object"}`)}, {Name: "alpha", InputSchema: []byte(`{"type":"object"}`)}},
			Prompts:         []mcp.Prompt{{Name: "summarize"}, {Name: "explain"}},
		}
		for _, i := range order {
			s.Resources = append(s.Resources, resources[i])
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := snap([]int{0, 1, 2})
	parsed, err := mcp.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range parsed.Resources {
		uris = append(uris, r.URI)
	}
	if want := []string{"file:///a/readme.md", "file:///b/readme.md", "file:///c/guide.md"}; !slices.Equal(uris, want) {
		t.Errorf("resources in the order %v, want by URI %v", uris, want)
	}
	if parsed.Tools[0].Name != "alpha" || parsed.Prompts[0].Name != "explain" {
		t.Errorf("tools and prompts not by name: %s, %s", parsed.Tools[0].Name, parsed.Prompts[0].Name)
	}
	for _, order := range [][]int{{2, 1, 0}, {1, 0, 2}, {2, 0, 1}} {
		if !bytes.Equal(snap(order), out) {
			t.Errorf("resources listed in the order %v give other bytes", order)
		}
	}
}
