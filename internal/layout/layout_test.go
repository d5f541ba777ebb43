package layout

import "testing"

func TestPaths(t *testing.T) {
	for got, want := range map[string]string{
		RootCard:                        ".well-known/agent-card.json",
		RootLegacy:                      ".well-known/agent.json",
		JWKS:                            ".well-known/jwks.json",
		Catalog:                         ".well-known/ai-catalog.json",
		RootCardPath:                    "/.well-known/agent-card.json",
		AgentCard("a"):                  "agents/a/.well-known/agent-card.json",
		AgentFile("a", LegacyFile):      "agents/a/.well-known/agent.json",
		AgentFile("a", IndexFile):       "agents/a/index.html",
		AgentPage("a"):                  "agents/a/",
		ExtendedFile("a", "", false):    "agents/a/extended-agent-card.json",
		ExtendedFile("a", "pro", false): "agents/a/extended-agent-card.pro.json",
		ExtendedFile("a", "", true):     "agents/a/extended-agent.json",
		ExtendedFile("a", "pro", true):  "agents/a/extended-agent.pro.json",
		ServerCard("s"):                 "mcp/s/server-card.json",
		MCPPage("s"):                    "mcp/s/",
		NestedCatalog(2):                "catalog/2.json",
		URL("https://x.example", JWKS):  "https://x.example/.well-known/jwks.json",
	} {
		if got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

func TestNames(t *testing.T) {
	for name, want := range map[string]struct {
		extended bool
		public   string
	}{
		"extended-agent-card.json":     {true, CardFile},
		"extended-agent-card.pro.json": {true, CardFile},
		"extended-agent.json":          {true, LegacyFile},
		"extended-agent.pro.json":      {true, LegacyFile},
		"agent-card.json":              {false, CardFile},
	} {
		if IsExtendedName(name) != want.extended || PublicOf(name) != want.public {
			t.Errorf("%s: IsExtendedName %v, PublicOf %s", name, IsExtendedName(name), PublicOf(name))
		}
	}
	for rel, want := range map[string]bool{
		"mcp/s/server-card.json": true, "mcp//server-card.json": false, "mcp/../server-card.json": false,
		"mcp/s/t/server-card.json": false, "x/s/server-card.json": false,
	} {
		if IsServerCardPath(rel) != want {
			t.Errorf("IsServerCardPath(%q) = %v", rel, !want)
		}
	}
}
