package remote

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// edited is the card unsigned (above) after edit.
func edited(t *testing.T, edit func(c map[string]any)) string {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal([]byte(unsigned), &c); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(c)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snap is a snapshot of text signed by the key of seed (0: unsigned).
func snap(t *testing.T, text string, seed byte) *Snapshot {
	t.Helper()
	if seed == 0 {
		s, err := New("https://partner.example.com/.well-known/agent-card.json", time.Now(), []byte(text), "", nil, KeysNone)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cardText, jwks := signedAt(t, text, seed, jwksURL)
	s, err := New("https://partner.example.com/.well-known/agent-card.json", time.Now(), cardText, jwksURL, jwks, KeysFromOrigin)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDiff: each kind of change is said in its own words, and what carries
// no meaning (member order, whitespace) is no change.
func TestDiff(t *testing.T) {
	base := snap(t, unsigned, 1)
	kid1 := base.Verification.KIDs[0]
	kid2 := snap(t, unsigned, 2).Verification.KIDs[0]
	skill := func(id, name string) map[string]any {
		return map[string]any{"id": id, "name": name, "description": "d", "tags": []any{"t"}}
	}
	v03 := `{"name":"Partner","description":"d","version":"1","protocolVersion":"0.3.0","url":"https://partner.example.com/a2a","preferredTransport":"JSONRPC","additionalInterfaces":[{"url":"https://partner.example.com/a2a","transport":"JSONRPC"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"s","description":"d","tags":["t"]}]}`
	var reordered map[string]any
	json.Unmarshal([]byte(unsigned), &reordered)
	indented, _ := json.MarshalIndent(reordered, "", "    ")
	tests := []struct {
		name string
		old  *Snapshot
		new  *Snapshot
		want []string
	}{
		{"the same", base, snap(t, unsigned, 1), nil},
		{"re-serialized", snap(t, unsigned, 0), snap(t, string(indented), 0), nil},
		{"a skill added", base, snap(t, edited(t, func(c map[string]any) {
			c["skills"] = append(c["skills"].([]any), skill("book", "Book a trip"))
		}), 1), []string{`+ skill "book" (Book a trip)`}},
		{"a skill removed, one changed", snap(t, edited(t, func(c map[string]any) {
			c["skills"] = append(c["skills"].([]any), skill("book", "Book a trip"))
		}), 1), snap(t, edited(t, func(c map[string]any) {
			s := c["skills"].([]any)[0].(map[string]any)
			s["description"], s["tags"], s["examples"] = "new", []any{"t", "u"}, []any{"e"}
		}), 1), []string{`- skill "book" (Book a trip)`, `~ skill "s" (s): description, examples, tags`}},
		{"name, description and version", base, snap(t, edited(t, func(c map[string]any) {
			c["name"], c["description"], c["version"] = "Partner Travel", strings.Repeat("x", 120), "2"
		}), 1), []string{`~ name: "Partner" -> "Partner Travel"`, `~ description: "d" -> "` + strings.Repeat("x", 98) + `…`, `~ version: "1" -> "2"`}},
		{"an interface moved, one added", base, snap(t, edited(t, func(c map[string]any) {
			c["supportedInterfaces"] = []any{
				map[string]any{"url": "https://evil.example.net/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
				map[string]any{"url": "https://partner.example.com/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "t1"},
			}
		}), 1), []string{
			`+ interface JSONRPC 1.0 https://evil.example.net/a2a`,
			`+ interface HTTP+JSON 1.0 https://partner.example.com/rest tenant t1`,
			`- interface JSONRPC 1.0 https://partner.example.com/a2a`,
		}},
		{"security", base, snap(t, edited(t, func(c map[string]any) {
			c["securitySchemes"] = map[string]any{"key": map[string]any{"apiKeySecurityScheme": map[string]any{"location": "header", "name": "X-Key"}}}
			c["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{"key": map[string]any{"list": []any{"a"}}}}}
		}), 1), []string{`+ security scheme "key"`, `~ security requirements: none -> [{"schemes":{"key":{"list":["a"]}}}]`}},
		{"a scheme changed, another removed", snap(t, edited(t, func(c map[string]any) {
			c["securitySchemes"] = map[string]any{"key": map[string]any{"apiKeySecurityScheme": map[string]any{"location": "header", "name": "X-Key"}}, "old": map[string]any{}}
		}), 1), snap(t, edited(t, func(c map[string]any) {
			c["securitySchemes"] = map[string]any{"key": map[string]any{"apiKeySecurityScheme": map[string]any{"location": "query", "name": "key"}}}
		}), 1), []string{`- security scheme "old"`, `~ security scheme "key"`}},
		{"other members", base, snap(t, edited(t, func(c map[string]any) {
			c["capabilities"] = map[string]any{"streaming": true}
			c["provider"] = map[string]any{"organization": "P", "url": "https://partner.example.com"}
			delete(c, "defaultOutputModes")
		}), 1), []string{`+ member "provider"`, `- member "defaultOutputModes"`, `~ member "capabilities"`}},
		{"a new key", base, snap(t, unsigned, 2), []string{
			`~ signed by: ` + kid1 + ` -> ` + kid2,
			`! JWKS: key "` + kid2 + `" added`,
			`! JWKS: key "` + kid1 + `" removed`,
		}},
		{"signed since", snap(t, unsigned, 0), base, []string{
			`~ signed by: no key -> ` + kid1,
			`! keys: none -> origin`,
			`! JWKS URL: "" -> "` + jwksURL + `"`,
			`! JWKS: key "` + kid1 + `" added`,
		}},
		{"an interface listed twice", base, snap(t, edited(t, func(c map[string]any) {
			i := c["supportedInterfaces"].([]any)
			c["supportedInterfaces"] = append(i, i[0])
		}), 1), []string{`~ card: changed in a way the lines above do not show`}},
		{"a v0.3 member on a v1.0 card", base, snap(t, edited(t, func(c map[string]any) {
			c["url"] = "https://evil.example.net/a2a"
		}), 1), []string{`+ member "url"`}},
		{"v0.3 to v1.0", snap(t, v03, 0), snap(t, unsigned, 0), []string{
			// v0.3's url, additionalInterfaces and card-level version are
			// read as interfaces, not as members
			`+ interface JSONRPC 1.0 https://partner.example.com/a2a`,
			`- interface JSONRPC 0.3.0 https://partner.example.com/a2a`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Diff(tt.old, tt.new)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, c.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestDiffKeyReplaced: a kid that now names other key material is
// called out.
func TestDiffKeyReplaced(t *testing.T) {
	a := snap(t, unsigned, 1)
	b := *a
	var doc map[string]any
	json.Unmarshal([]byte(snap(t, unsigned, 2).JWKS), &doc)
	doc["keys"].([]any)[0].(map[string]any)["kid"] = a.Verification.KIDs[0]
	jwks, _ := json.Marshal(doc)
	b.JWKS = string(jwks)
	changes, err := Diff(a, &b)
	if err != nil {
		t.Fatal(err)
	}
	want := `! JWKS: key "` + a.Verification.KIDs[0] + `" replaced (the same kid, other key material)`
	if len(changes) != 1 || changes[0].String() != want {
		t.Errorf("Diff = %v, want %s", changes, want)
	}
}
