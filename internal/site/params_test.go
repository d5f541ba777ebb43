package site

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// rowsText is a table's rows, one "name: type" (with " *" when required,
// then " - description" when there is one) a line.
func rowsText(rows []paramRow) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.Name + ": " + r.Type)
		if r.Required {
			b.WriteString(" *")
		}
		if r.Description != "" {
			b.WriteString(" - " + r.Description)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestSchemaRowsReferences: parameters defined through local references
// ($defs, definitions, JSON pointers into properties, escaped or
// percent-encoded tokens, a reference at the top, in items, in anyOf, or
// in an allOf of one) are in the table; a reference to another document
// or to nothing is named, never followed; a schema that holds itself
// gives a finite table that says where it recurs.
func TestSchemaRowsReferences(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"$defs", `{"type":"object","properties":{"addr":{"$ref":"#/$defs/Address"}},"required":["addr"],
			"$defs":{"Address":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"zip":{"type":"string"}},"required":["city"]}}}`,
			"addr: object *\naddr.city: string * - City name\naddr.zip: string\n"},
		{"definitions, description beside the reference", `{"type":"object","properties":{"to":{"$ref":"#/definitions/Place","description":"Where to"}},
			"definitions":{"Place":{"type":"object","description":"A place","properties":{"name":{"type":"string"}}}}}`,
			"to: object - Where to\nto.name: string\n"},
		{"pointer into properties", `{"type":"object","properties":{"from":{"type":"string","description":"Start"},"to":{"$ref":"#/properties/from"}}}`,
			"from: string - Start\nto: string - Start\n"},
		{"escaped and percent-encoded tokens", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x~1y~0z"},"b":{"$ref":"#/%24defs/with%20space"}},
			"$defs":{"x/y~z":{"type":"integer"},"with space":{"type":"boolean"}}}`,
			"a: integer\nb: boolean\n"},
		{"reference at the top", `{"$ref":"#/$defs/Args","$defs":{"Args":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}}`,
			"q: string *\n"},
		{"items and anyOf", `{"type":"object","properties":{"stops":{"type":"array","items":{"$ref":"#/$defs/Stop"}},"home":{"anyOf":[{"$ref":"#/$defs/Stop"},{"type":"null"}]}},
			"$defs":{"Stop":{"type":"object","properties":{"city":{"type":"string"}}}}}`,
			"home: object | null\nstops: array of object\nstops[].city: string\n"},
		{"allOf of one", `{"type":"object","properties":{"p":{"allOf":[{"$ref":"#/definitions/P"}],"description":"The P"}},
			"definitions":{"P":{"type":"object","properties":{"n":{"type":"number"}}}}}`,
			"p: object - The P\np.n: number\n"},
		{"other documents and missing targets", `{"type":"object","properties":{"r":{"$ref":"https://example.com/s.json#/$defs/X","description":"Remote"},"a":{"$ref":"#anchor"},"m":{"$ref":"#/$defs/Missing"},"l":{"type":"array","items":{"$ref":"other.json"}}}}`,
			"a: reference to #anchor\nl: array of reference to other.json\nm: reference to #/$defs/Missing (not in the schema)\nr: reference to https://example.com/s.json#/$defs/X - Remote\n"},
		{"self-reference", `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},
			"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"parent":{"$ref":"#/$defs/Node"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`,
			"root: object\nroot.children: array of object (recursive: see root)\nroot.name: string\nroot.parent: object (recursive: see root)\n"},
		{"type that holds itself", `{"type":"object","properties":{"l":{"$ref":"#/$defs/L"}},"$defs":{"L":{"type":"array","items":{"$ref":"#/$defs/L"}}}}`,
			"l: array of #/$defs/L (recursive)\n"},
		{"reference to the whole schema", `{"type":"object","properties":{"name":{"type":"string"},"next":{"$ref":"#"}}}`,
			"name: string\nnext: object (recursive: see the top level)\n"},
		{"references in a loop", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`,
			"a: reference to #/$defs/A (recursive)\n"},
		{"depth bounded as without references", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},
			"$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}}},"B":{"type":"object","properties":{"c":{"$ref":"#/$defs/C"}}},"C":{"type":"object","properties":{"d":{"type":"string"}}}}}`,
			"a: object\na.b: object\na.b.c: object\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, other, note := schemaRows(json.RawMessage(tc.schema))
			if other != "" || note != "" {
				t.Errorf("other %q, note %q", other, note)
			}
			if got := rowsText(rows); got != tc.want {
				t.Errorf("rows:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestSchemaRowsBounded: a schema that names its definitions many times
// over (each of 40 properties refers to a definition of 40, and so on)
// gives a table of at most maxParamRows rows, quickly, and says it stops.
func TestSchemaRowsBounded(t *testing.T) {
	var props []string
	for i := range 40 {
		props = append(props, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/D"}`, i))
	}
	p := strings.Join(props, ",")
	schema := `{"type":"object","properties":{` + p + `},"$defs":{"D":{"type":"object","properties":{` + p + `}}}}`
	rows, _, note := schemaRows(json.RawMessage(schema))
	if len(rows) != maxParamRows || !strings.Contains(note, "stops at 500 rows") {
		t.Errorf("%d rows, note %q", len(rows), note)
	}
}

// TestSchemaRowsTextBounded: a small schema whose alternatives multiply
// long references (120 alternatives of 120 alternatives of a 2,000-byte
// URI), or whose one long description many rows share, gives a table of
// bounded text: each type clipped, the table stopped at maxTableBytes.
func TestSchemaRowsTextBounded(t *testing.T) {
	alts := func(ref string) string {
		return `{"anyOf":[` + strings.TrimSuffix(strings.Repeat(`{"$ref":"`+ref+`"},`, 120), ",") + `]}`
	}
	fanOut := `{"type":"object","$defs":{"A":{"$ref":"https://x.example/` + strings.Repeat("a", 2000) + `"},"B":` + alts("#/$defs/A") + `},` +
		`"properties":{"p":` + alts("#/$defs/B") + `}}`
	var props []string
	for i := range 40 {
		props = append(props, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/D"}`, i))
	}
	p := strings.Join(props, ",")
	shared := `{"type":"object","properties":{` + p + `},"$defs":{"D":{"type":"object","description":"` + strings.Repeat("d", 100000) + `","properties":{` + p + `}}}}`
	for name, schema := range map[string]string{"fan-out": fanOut, "shared description": shared} {
		rows, _, note := schemaRows(json.RawMessage(schema))
		total := 0
		for _, r := range rows {
			total += r.size()
			if n := utf8.RuneCountInString(r.Type); n > maxTypeLength {
				t.Errorf("%s: a type of %d characters", name, n)
			}
		}
		if total > maxTableBytes {
			t.Errorf("%s: %d bytes of table", name, total)
		}
		if name == "shared description" && note == "" {
			t.Errorf("%s: no note that the table stops", name)
		}
	}
}
