package site

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/layout"
)

// urnRE is the entry identifier as the AI Catalog spec and ARD's
// conformance tool take it: urn:air:<publisher>:<namespace>:<name>.
var urnRE = regexp.MustCompile(`^urn:air:([a-zA-Z0-9.-]+)(?::([a-zA-Z0-9._:-]+))?:([a-zA-Z0-9._-]+)$`)

// knownTypes are the entry types a site of agentcards may list.
var knownTypes = map[string]bool{CardMediaType: true, CatalogMediaType: true}

// TestCatalogConformance validates every catalog of a flat and of a nested
// site against ARD's JSON Schema (formats asserted) and the rules of the AI
// Catalog spec (aicatalog.Parse), and checks what agentcards promises
// beyond them.
func TestCatalogConformance(t *testing.T) {
	flat := filepath.Join(t.TempDir(), "public")
	buildExample(t, flat, "ed25519")
	smallGroups(t)
	p := newProject(t, 7)
	p.toml = strings.Replace(p.toml, "\n[[agents]]\n", "\n[[agents]]\nupdatedAt = \"2026-11-20T09:30:00Z\"\nrepresentativeQueries = [\"First query\", \"Second query\"]\n", 1)
	nested := filepath.Join(t.TempDir(), "public")
	if _, err := p.build(nested); err != nil {
		t.Fatal(err)
	}
	for _, site := range []struct {
		dir             string
		agents, nesting int
	}{{flat, 3, 0}, {nested, 7, 2}} {
		catalogs, _ := filepath.Glob(filepath.Join(site.dir, layout.CatalogFolder, "*.json"))
		catalogs = append([]string{filepath.Join(site.dir, layout.WellKnown, layout.CatalogFile)}, catalogs...)
		if len(catalogs) != 1+site.nesting {
			t.Fatalf("%s: %d catalogs, want %d", site.dir, len(catalogs), 1+site.nesting)
		}
		ids := map[string]string{}
		cards := 0
		for _, path := range catalogs {
			rel, _ := filepath.Rel(site.dir, path)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, problems, err := aicatalog.Parse(raw); err != nil || len(problems) > 0 {
				t.Errorf("%s does not satisfy ARD's schema or the spec: %v %v", rel, err, problems)
			}
			var cat struct {
				SpecVersion string `json:"specVersion"`
				Host        struct {
					Identifier string `json:"identifier"`
				} `json:"host"`
				Entries []map[string]any `json:"entries"`
			}
			if err := json.Unmarshal(raw, &cat); err != nil {
				t.Fatal(err)
			}
			if cat.Host.Identifier != "agents.example.com" {
				t.Errorf("%s: host identifier %q, want the publishing domain", rel, cat.Host.Identifier)
			}
			for i, e := range cat.Entries {
				id, _ := e["identifier"].(string)
				m := urnRE.FindStringSubmatch(id)
				if m == nil {
					t.Errorf("%s entry %d: identifier %q is not urn:air:<publisher>:<namespace>:<name>", rel, i, id)
					continue
				}
				if m[1] != cat.Host.Identifier {
					t.Errorf("%s entry %d: publisher %q is not the host's %q", rel, i, m[1], cat.Host.Identifier)
				}
				if other, dup := ids[id]; dup {
					t.Errorf("%s entry %d: identifier %q also in %s", rel, i, id, other)
				}
				ids[id] = rel
				typ, _ := e["type"].(string)
				if !knownTypes[typ] {
					t.Errorf("%s entry %d: type %q", rel, i, typ)
				}
				if typ == CardMediaType {
					cards++
					if m[2] != "a2a" {
						t.Errorf("%s entry %d: namespace %q, want a2a", rel, i, m[2])
					}
				}
				// The url names a file of the site, served over https.
				u, err := url.Parse(e["url"].(string))
				if err != nil || u.Scheme != "https" || u.Host != "agents.example.com" {
					t.Errorf("%s entry %d: url %v", rel, i, e["url"])
				} else if _, err := os.Stat(filepath.Join(site.dir, filepath.FromSlash(u.Path))); err != nil {
					t.Errorf("%s entry %d: url %s names no file of the site", rel, i, u)
				}
				if q, ok := e["representativeQueries"].([]any); ok && (len(q) < 2 || len(q) > 5) {
					t.Errorf("%s entry %d: %d representativeQueries", rel, i, len(q))
				}
			}
		}
		if cards != site.agents {
			t.Errorf("%s: %d agent entries in all, want %d", site.dir, cards, site.agents)
		}
	}
	// The manifest's own queries and time reach the entry.
	piece, _ := os.ReadFile(filepath.Join(nested, layout.CatalogFolder, "1.json"))
	for _, want := range []string{`"updatedAt": "2026-11-20T09:30:00Z"`, `"First query"`} {
		if !bytes.Contains(piece, []byte(want)) {
			t.Errorf("catalog/1.json lacks %s", want)
		}
	}
}
