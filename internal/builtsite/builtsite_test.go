package builtsite

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestClassify(t *testing.T) {
	for rel, want := range map[string]Kind{
		".well-known/agent-card.json":                   RootCard,
		".well-known/agent.json":                        RootLegacy,
		".well-known/jwks.json":                         JWKS,
		".well-known/ai-catalog.json":                   Catalog,
		".well-known/other.json":                        Other,
		"agents/a/.well-known/agent-card.json":          AgentCard,
		"agents/a/.well-known/agent.json":               AgentLegacy,
		"agents/a/agent-card.json":                      StrayCard,
		"agent.json":                                    StrayCard,
		"x/y/z/agent-card.json":                         StrayCard,
		"catalog/1.json":                                NestedCatalog,
		"catalog/agent.json":                            NestedCatalog,
		"catalog/1/2.json":                              Other,
		"mcp/s/server-card.json":                        ServerCard,
		"mcp/s/t/server-card.json":                      Other,
		"agents/a/extended-agent-card.json":             ExtendedCard,
		"agents/a/extended-agent.pro.json":              ExtendedCard,
		"agents/a/.well-known/extended-agent.json":      Other,
		"agents/a/index.html":                           Other,
		"agents/a/.well-known/upstream-agent-card.json": UpstreamCard,
		"agents/a/.well-known/upstream-jwks.json":       UpstreamJWKS,
		".well-known/upstream-agent-card.json":          Other,
	} {
		if got := Classify(rel); got != want {
			t.Errorf("Classify(%q) = %d, want %d", rel, got, want)
		}
	}
}

func TestListAndPairs(t *testing.T) {
	dir := t.TempDir()
	for _, rel := range []string{
		".well-known/agent-card.json", ".well-known/agent.json", ".well-known/jwks.json", ".well-known/ai-catalog.json",
		"agents/b/.well-known/agent-card.json", "agents/b/.well-known/agent.json", "agents/b/index.html",
		"agents/a/.well-known/agent.json", "agents/a/deep/agent-card.json",
		"catalog/1.json", "mcp/s/server-card.json", "index.html",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "agents", "c", ".well-known", "agent-card.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, ".well-known", "agent-card.json"), link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	// A folder that is a link is listed too, as a link, never walked.
	if err := os.Symlink(filepath.Join(dir, "agents", "b"), filepath.Join(dir, "agents", "d")); err != nil {
		t.Fatal(err)
	}
	files, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Path)
		got = append(got, filepath.ToSlash(rel))
		isLink := f.Path == link || f.Path == filepath.Join(dir, "agents", "d")
		if f.Regular() == isLink || (f.Kind == Link) != isLink {
			t.Errorf("%s: Regular() = %v, Kind %d", rel, f.Regular(), f.Kind)
		}
	}
	// filepath.WalkDir's order, index.html and other files left out.
	want := []string{
		".well-known/agent-card.json", ".well-known/agent.json", ".well-known/ai-catalog.json", ".well-known/jwks.json",
		"agents/a/.well-known/agent.json", "agents/a/deep/agent-card.json",
		"agents/b/.well-known/agent-card.json", "agents/b/.well-known/agent.json",
		"agents/c/.well-known/agent-card.json", "agents/d",
		"catalog/1.json", "mcp/s/server-card.json",
	}
	if !slices.Equal(got, want) {
		t.Errorf("List:\n got %q\nwant %q", got, want)
	}
	pairs := Pairs(files)
	var dirs []string
	for _, pr := range pairs {
		rel, _ := filepath.Rel(dir, pr.Dir)
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	// Links are no card of a pair: their readers refuse them.
	if want := []string{"agents/a/.well-known", "agents/b/.well-known", ".well-known"}; !slices.Equal(dirs, want) {
		t.Errorf("Pairs: %q, want %q", dirs, want)
	}
	if a := pairs[0]; a.Card != nil || a.Legacy == nil || a.Root {
		t.Errorf("agents/a: %+v", a)
	}
	if r := pairs[2]; !r.Root || r.Card == nil || r.Legacy == nil {
		t.Errorf("root: %+v", r)
	}
}
