package templates_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/layout"
)

// TestTemplatesFollowLayout: the paths the templates and scripts spell
// (the badge's card and JWKS, which signature.js fetches, the links to
// cards, catalogs and pages) are the layout's.
func TestTemplatesFollowLayout(t *testing.T) {
	const root, id = "{{$.Root}}", "{{.ID}}"
	want := map[string][]string{
		"agent.html": {
			`data-card="` + root + layout.AgentCard(id) + `"`,
			`data-jwks="` + root + layout.JWKS + `"`,
			`data-root-card="` + root + layout.RootCard + `"`,
			`href="` + root + layout.AgentFile(id, layout.LegacyFile) + `"`,
			`href="` + root + layout.JWKS + `"`,
			"served at <code>" + layout.RootCardPath + "</code>",
		},
		"layout.html": {
			`href="{{.Root}}` + layout.KeysPage + `"`,
			`href="{{.Root}}` + layout.CatalogPage + `"`,
			`href="{{.Root}}` + layout.JWKS + `"`,
			`href="{{.Root}}` + layout.Catalog + `"`,
			`href="{{.Root}}` + layout.FaviconFile + `"`,
		},
		"keys.html": {`href="{{.Root}}` + layout.JWKS + `"`},
		"catalog.html": {
			`href="{{.Root}}` + layout.Catalog + `"`,
			`href="{{$.Root}}` + layout.AgentPage(id) + `"`,
			`href="{{$.Root}}` + layout.AgentCard(id) + `"`,
			`href="{{$.Root}}` + layout.MCPPage(id) + `"`,
			`href="{{$.Root}}` + layout.ServerCard(id) + `"`,
		},
		"mcp.html": {
			`href="` + root + layout.ServerCard(id) + `"`,
			`href="` + root + layout.Catalog + `"`,
			`href="` + root + layout.AgentPage(id) + `"`,
			`href="` + root + layout.AgentCard(id) + `"`,
		},
		"index.html": {`href="` + root + layout.AgentPage(id) + `"`},
		"404.html":   {"<code>/" + layout.AgentsFolder + "/&lt;id&gt;/" + layout.WellKnown + "/</code>"},
		"search.js":  {"'" + layout.MCPFolder + "/' : '" + layout.AgentsFolder + "/'"},
		// The badge takes both paths from the page's data- attributes.
		"signature.js": {"getAttribute('data-jwks')", "getAttribute('data-card')"},
	}
	for name, wants := range want {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(text), w) {
				t.Errorf("%s does not hold %s", name, w)
			}
		}
	}
}
