package site

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// paramRow is one parameter of a tool's schema, as the page's table
// shows it; nested members are named parent.child (parent[].child inside
// an array).
type paramRow struct {
	Name, Type, Description, Default string
	Required                         bool
	Enum                             []string
}

// maxParamDepth is how deeply nested members the parameter table names.
const maxParamDepth = 3

// schemaRows is a JSON Schema's properties as table rows. What a table
// cannot show (a schema without properties that says more than "an
// object") comes back as indented JSON instead.
func schemaRows(raw json.RawMessage) (rows []paramRow, other string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var schema map[string]any
	if dec.Decode(&schema) != nil {
		return nil, string(raw)
	}
	props, _ := schema["properties"].(map[string]any)
	if len(props) == 0 {
		rest := maps.Clone(schema)
		delete(rest, "type")
		delete(rest, "$schema")
		delete(rest, "properties")
		if len(rest) == 0 {
			return nil, ""
		}
		return nil, indentJSON(schema)
	}
	addRows(&rows, "", schema, 0)
	return rows, ""
}

// addRows appends the rows of an object schema's properties, under prefix.
func addRows(rows *[]paramRow, prefix string, schema map[string]any, depth int) {
	props, _ := schema["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]any)
		row := paramRow{Name: prefix + name, Type: schemaType(p), Required: required[name]}
		if d, ok := p["description"].(string); ok {
			row.Description = d
		}
		if d, ok := p["default"]; ok {
			row.Default = compactJSON(d)
		}
		if e, ok := p["enum"].([]any); ok {
			for _, v := range e {
				row.Enum = append(row.Enum, compactJSON(v))
			}
		}
		*rows = append(*rows, row)
		if depth+1 >= maxParamDepth {
			continue
		}
		if _, ok := p["properties"].(map[string]any); ok {
			addRows(rows, row.Name+".", p, depth+1)
		} else if items, ok := p["items"].(map[string]any); ok {
			if _, ok := items["properties"].(map[string]any); ok {
				addRows(rows, row.Name+"[].", items, depth+1)
			}
		}
	}
}

// schemaType says what type a property schema allows: "string",
// "number | null", "array of string", "one of: …".
func schemaType(p map[string]any) string {
	switch t := p["type"].(type) {
	case string:
		if t == "array" {
			if items, ok := p["items"].(map[string]any); ok {
				if it := schemaType(items); it != "" && it != "any" {
					return "array of " + it
				}
			}
		}
		return t
	case []any:
		var parts []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " | ")
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := p[k].([]any); ok {
			var parts []string
			for _, a := range alts {
				if am, ok := a.(map[string]any); ok {
					parts = append(parts, schemaType(am))
				}
			}
			return strings.Join(parts, " | ")
		}
	}
	if ref, ok := p["$ref"].(string); ok {
		return ref
	}
	if _, ok := p["enum"]; ok {
		return "enum"
	}
	if _, ok := p["const"]; ok {
		return "constant " + compactJSON(p["const"])
	}
	return "any"
}

// compactJSON writes a JSON value compactly ("" for the empty string).
func compactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// indentJSON writes a JSON value indented, for a page.
func indentJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(v) != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
