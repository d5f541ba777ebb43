package aicatalog

import (
	"os"
	"strings"
	"testing"
)

const good = `{
  "specVersion": "1.0",
  "host": {"displayName": "Example", "identifier": "example.com", "documentationUrl": "https://example.com/"},
  "entries": [
    {"identifier": "urn:air:example.com:a2a:one", "displayName": "One", "type": "application/a2a-agent-card+json",
     "url": "https://example.com/agents/one/.well-known/agent-card.json", "tags": ["a", "b"], "version": "1.0.0",
     "representativeQueries": ["q1", "q2"], "updatedAt": "2026-11-20T09:30:00Z"},
    {"identifier": "urn:air:example.com:ai-catalog:1", "displayName": "More", "type": "application/ai-catalog+json",
     "url": "https://example.com/catalog/1.json"}
  ]
}`

func TestParseGood(t *testing.T) {
	for _, src := range []string{good, readFile(t, "../../testdata/golden/example-site/.well-known/ai-catalog.json")} {
		c, problems, err := Parse([]byte(src))
		if err != nil || len(problems) != 0 {
			t.Fatalf("err %v, problems %v", err, problems)
		}
		if len(c.Entries) < 2 || c.Entries[0].TypeLower != AgentCardType {
			t.Errorf("entries %+v", c.Entries)
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestParseProblems: each departure from the schema or the spec is found,
// at its JSON pointer.
func TestParseProblems(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"no type", `"type": "application/a2a-agent-card+json",`, ``, `/entries/0: missing property 'type'`},
		{"mediaType instead of type", `"type": "application/a2a-agent-card+json"`, `"mediaType": "application/a2a-agent-card+json"`, `/entries/0: missing property 'type'`},
		{"identifier not a URN", `urn:air:example.com:a2a:one`, `https://example.com/agents/one/`, `/entries/0/identifier: 'https://example.com/agents/one/' does not match pattern`},
		{"url and data", `"tags": ["a", "b"]`, `"data": {}`, `/entries/0: an entry carries exactly one of url`},
		{"neither url nor data", `"url": "https://example.com/catalog/1.json"`, `"description": "d"`, `/entries/1: an entry carries exactly one of url`},
		{"top-level member not in the spec", `"specVersion": "1.0",`, `"specVersion": "1.0", "extra": 1,`, `additional properties 'extra' not allowed`},
		{"host member not in the spec", `"identifier": "example.com",`, `"identifier": "example.com", "url": "https://example.com",`, `/host: additional properties 'url' not allowed`},
		{"one representative query", `["q1", "q2"]`, `["q1"]`, `/entries/0/representativeQueries: minItems`},
		{"updatedAt not a date-time", `2026-11-20T09:30:00Z`, `yesterday`, `/entries/0/updatedAt: 'yesterday' is not valid date-time`},
		{"spec version", `"specVersion": "1.0"`, `"specVersion": "2.0"`, `/specVersion: value must be '1.0'`},
		{"identifier twice", `urn:air:example.com:ai-catalog:1`, `urn:air:example.com:a2a:one`, ``},
		{"url not http", `https://example.com/catalog/1.json`, `file:///etc/passwd`, `/entries/1/url: "file:///etc/passwd": a catalog entry is fetched over https`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(good, tc.old, tc.new, 1)
			if src == good {
				t.Fatal("the change did not apply")
			}
			_, problems, err := Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, p := range problems {
				all = append(all, p.String())
			}
			want := tc.want
			if want == "" {
				want = "/entries/1/identifier: identifier urn:air:example.com:a2a:one is also entry 0's"
			}
			if !strings.Contains(strings.Join(all, "\n"), want) {
				t.Errorf("want %q among:\n%s", want, strings.Join(all, "\n"))
			}
		})
	}
}

// TestParseRefuses: what no client reads the same way is not a catalog.
func TestParseRefuses(t *testing.T) {
	for _, src := range []string{
		`[]`,
		`{"specVersion": "1.0"}`,
		`{"entries": [], "entries": []}`,
		`{"entries": [{"url": "https://a.example", "URL": "https://b.example"}]}`,
		"{\"entries\": [], \"specVersion\": \"\xff\"}",
	} {
		if _, _, err := Parse([]byte(src)); err == nil {
			t.Errorf("Parse(%q) took it", src)
		}
	}
}

// TestProblemsCapped: a catalog of thousands of bad entries gives at most
// maxProblems schema problems and a line saying there are more (the list
// was once de-duplicated in time growing with its square).
func TestProblemsCapped(t *testing.T) {
	raw := `{"specVersion":"1.0","entries":[{}` + strings.Repeat(`,{}`, 20000) + `]}`
	_, problems, err := Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) == 0 || len(problems) > maxProblems+1+3 {
		t.Fatalf("%d problems", len(problems))
	}
	found := false
	for _, p := range problems {
		found = found || strings.Contains(p.Msg, "more problems, not listed")
	}
	if !found {
		t.Error("no line says more problems were left out")
	}
}
