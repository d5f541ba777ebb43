package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
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

// Bounds on a parameter table. Through local references a small schema
// can name one definition many times, and itself, so a table counts what
// it does.
const (
	// maxParamDepth is how deeply nested members the parameter table names.
	maxParamDepth = 3
	// maxParamRows is the most rows one table shows.
	maxParamRows = 500
	// maxRefHops is the longest chain of references followed from one
	// schema (a $ref to a $ref to ...).
	maxRefHops = 32
	// maxTypeDepth is how deeply a type is spelled out ("array of array
	// of ...").
	maxTypeDepth = 8
	// maxSchemaSteps bounds the schemas one table looks at in all.
	maxSchemaSteps = 20000
	// maxTypeLength bounds a type as written ("one of: …" of many
	// alternatives, a long reference), in characters, "…" included.
	maxTypeLength = 300
	// maxTableBytes bounds the text of one table: a description, name or
	// default that many rows share through references is written into
	// each of them.
	maxTableBytes = 512 << 10
)

// paramTable makes the rows of one schema's table. It resolves the
// schema's local references, JSON pointers into the schema itself
// ("#/$defs/Address", "#/definitions/Address", "#/properties/from"), and
// never fetches anything.
type paramTable struct {
	root  map[string]any
	rows  []paramRow
	steps int
	bytes int // the text of the rows so far
	// full is set when rows were left out: the table reached
	// maxParamRows, or its look at the schema maxSchemaSteps.
	full bool
}

// schemaRows is a JSON Schema's properties as table rows, its local
// references resolved, and a note when the table stops short. What a
// table cannot show (a schema without properties that says more than "an
// object") comes back as indented JSON instead.
func schemaRows(raw json.RawMessage) (rows []paramRow, other, note string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var schema map[string]any
	if dec.Decode(&schema) != nil {
		return nil, string(raw), ""
	}
	t := &paramTable{root: schema}
	top, refs, _ := t.deref(schema)
	props, _ := top["properties"].(map[string]any)
	if len(props) == 0 {
		rest := maps.Clone(schema)
		delete(rest, "type")
		delete(rest, "$schema")
		delete(rest, "properties")
		if len(rest) == 0 {
			return nil, "", ""
		}
		return nil, indentJSON(schema), ""
	}
	t.addRows("", top, 0, opened(map[string]string{"#": "the top level"}, refs, "the top level"))
	if t.full {
		note = fmt.Sprintf("The table stops at %d rows; the snapshot holds the whole schema.", len(t.rows))
	}
	return t.rows, "", note
}

// addRows appends the rows of an object schema's properties, under
// prefix. open maps each reference expanded on the way here to the row
// that expanded it, so that a schema that holds itself ends in a row that
// says where it began instead of going on.
func (t *paramTable) addRows(prefix string, schema map[string]any, depth int, open map[string]string) {
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
		if len(t.rows) >= maxParamRows || t.steps > maxSchemaSteps {
			t.full = true
			return
		}
		p, refs, note := t.deref(asObject(props[name]))
		row := paramRow{Name: prefix + name, Type: clip(note, maxTypeLength), Required: required[name]}
		if row.Type == "" {
			row.Type = t.schemaType(p, refs, 0)
		}
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
		_, isObject := p["properties"].(map[string]any)
		var items map[string]any
		var itemRefs []string
		if it, ok := p["items"].(map[string]any); ok && !isObject && note == "" {
			items, itemRefs, _ = t.deref(it)
		}
		seen := recursion(open, refs)
		if seen == "" {
			seen = recursion(open, itemRefs)
		}
		if seen != "" {
			row.Type += " (recursive: see " + seen + ")"
		}
		if t.bytes += row.size(); t.bytes > maxTableBytes {
			t.full = true
			return
		}
		t.rows = append(t.rows, row)
		if seen != "" || note != "" || depth+1 >= maxParamDepth {
			continue
		}
		if isObject {
			t.addRows(row.Name+".", p, depth+1, opened(open, refs, row.Name))
		} else if _, ok := items["properties"].(map[string]any); ok {
			t.addRows(row.Name+"[].", items, depth+1, opened(opened(open, refs, row.Name), itemRefs, row.Name+"[]"))
		}
	}
}

// recursion is the row that expanded one of refs, "" when none did.
func recursion(open map[string]string, refs []string) string {
	for _, r := range refs {
		if where, ok := open[r]; ok {
			return where
		}
	}
	return ""
}

// opened is open with refs added as expanded by row.
func opened(open map[string]string, refs []string, row string) map[string]string {
	if len(refs) == 0 {
		return open
	}
	out := maps.Clone(open)
	for _, r := range refs {
		if _, ok := out[r]; !ok {
			out[r] = row
		}
	}
	return out
}

// asObject is a schema as an object; a boolean schema or anything else
// is the empty one.
func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// deref follows a schema's local reference to the schema it names, with
// the referring schema's own members (a description, a default) laid
// over it, as a description beside a $ref reads. An allOf of one schema
// counts as a reference: older generators (pydantic) write a described
// reference so. refs are the references followed, each spelled one way.
// note, when set, is the type to show for a reference not followed: one
// to another document (never fetched), one the schema does not hold, or
// one that only leads back to itself.
func (t *paramTable) deref(p map[string]any) (s map[string]any, refs []string, note string) {
	s = p
	for range maxRefHops {
		t.steps++
		var next map[string]any
		var drop string
		if ref, ok := s["$ref"].(string); ok {
			key, target, local := t.lookup(ref)
			switch {
			case !local:
				return s, refs, "reference to " + ref
			case target == nil:
				return s, refs, "reference to " + ref + " (not in the schema)"
			case slices.Contains(refs, key):
				return s, refs, "reference to " + ref + " (recursive)"
			}
			refs = append(refs, key)
			next, drop = target, "$ref"
		} else if all, ok := s["allOf"].([]any); ok && len(all) == 1 && asObject(all[0]) != nil {
			next, drop = asObject(all[0]), "allOf"
		} else {
			return s, refs, ""
		}
		merged := maps.Clone(next)
		for k, v := range s {
			if k != drop {
				merged[k] = v
			}
		}
		s = merged
	}
	return s, refs, fmt.Sprintf("more than %d references in a row", maxRefHops)
}

// lookup finds what a reference names in the table's schema. local is
// false for anything but a JSON pointer into this schema ("#" or
// "#/..."): another document, or a named anchor, is never followed.
// target is nil when the pointer names nothing, or no schema object. key
// is the pointer spelled one way (its tokens unescaped, then escaped
// again).
func (t *paramTable) lookup(ref string) (key string, target map[string]any, local bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", nil, false
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	if frag != "" && frag[0] != '/' {
		return "", nil, false
	}
	var b strings.Builder
	b.WriteByte('#')
	var cur any = t.root
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != tok {
					cur = nil
				} else {
					cur = c[i]
				}
			default:
				cur = nil
			}
		}
	}
	target, _ = cur.(map[string]any)
	return b.String(), target, true
}

// schemaType says what type a property schema allows: "string",
// "number | null", "array of string", "one of: …". refs are the
// references followed to reach p, so that a type that holds itself is
// named once.
func (t *paramTable) schemaType(p map[string]any, refs []string, depth int) string {
	return clip(t.spellType(p, refs, depth), maxTypeLength)
}

// spellType is schemaType before it is clipped to maxTypeLength.
func (t *paramTable) spellType(p map[string]any, refs []string, depth int) string {
	t.steps++
	if depth > maxTypeDepth || t.steps > maxSchemaSteps {
		return "…"
	}
	switch ty := p["type"].(type) {
	case string:
		if ty == "array" {
			if items, ok := p["items"].(map[string]any); ok {
				if it := t.refType(items, refs, depth+1); it != "" && it != "any" {
					return "array of " + it
				}
			}
		}
		return ty
	case []any:
		var parts []string
		for _, x := range ty {
			if s, ok := x.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " | ")
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := p[k].([]any); ok {
			var parts []string
			length := 0
			for _, a := range alts {
				if am, ok := a.(map[string]any); ok {
					part := t.refType(am, refs, depth+1)
					parts = append(parts, part)
					if length += len(part) + 3; length > maxTypeLength {
						break // clipped anyway: the rest is never read
					}
				}
			}
			return strings.Join(parts, " | ")
		}
	}
	if _, ok := p["enum"]; ok {
		return "enum"
	}
	if _, ok := p["const"]; ok {
		return "constant " + compactJSON(p["const"])
	}
	if _, ok := p["properties"].(map[string]any); ok {
		return "object"
	}
	return "any"
}

// refType is the type of a schema that may be a reference, reached
// through refs.
func (t *paramTable) refType(p map[string]any, refs []string, depth int) string {
	s, more, note := t.deref(p)
	if note != "" {
		return note
	}
	for _, r := range more {
		if slices.Contains(refs, r) {
			return r + " (recursive)"
		}
	}
	return t.schemaType(s, append(slices.Clip(refs), more...), depth)
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

// size is how much text a row puts on the page.
func (r paramRow) size() int {
	n := len(r.Name) + len(r.Type) + len(r.Description) + len(r.Default)
	for _, e := range r.Enum {
		n += len(e)
	}
	return n
}
