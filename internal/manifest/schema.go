package manifest

import (
	"bytes"
	"embed"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/lintrule"
)

// SchemaID is where the JSON Schema of agents.toml is published; an
// agents.toml names it in Taplo's `#:schema` directive so that editors
// (Even Better TOML in VS Code, and other Taplo-based ones) complete keys
// and show what they mean.
const SchemaID = "https://raw.githubusercontent.com/agentcards/agentcards/main/internal/manifest/agents.schema.json"

// sources are this package's type declarations: the schema's descriptions
// are their doc comments, so that the Go types stay the one description
// of the manifest.
//
//go:embed manifest.go mcp.go extended.go remote.go
var sources embed.FS

// required lists, per type, the keys the validator demands (a test holds
// the two together).
var required = map[reflect.Type][]string{
	reflect.TypeFor[Manifest]():              {"site"},
	reflect.TypeFor[Site]():                  {"baseUrl"},
	reflect.TypeFor[Agent]():                 {"id", "name", "description", "version", "supportedInterfaces", "skills"},
	reflect.TypeFor[Interface]():             {"url", "protocolBinding", "protocolVersion"},
	reflect.TypeFor[Skill]():                 {"id", "name", "description", "tags"},
	reflect.TypeFor[SecurityScheme]():        {"type"},
	reflect.TypeFor[Extension]():             {"uri"},
	reflect.TypeFor[AuthorizationCodeFlow](): {"authorizationUrl", "tokenUrl", "scopes"},
	reflect.TypeFor[ClientCredentialsFlow](): {"tokenUrl", "scopes"},
	reflect.TypeFor[DeviceCodeFlow]():        {"deviceAuthorizationUrl", "tokenUrl", "scopes"},
	reflect.TypeFor[MCPServer]():             {"id", "name", "description", "version"},
	reflect.TypeFor[RemoteAgent]():           {"id", "snapshot", "gateway"},
}

// fieldRules are the validator's own rules for single keys, by type and
// toml key: patterns, enumerations and formats.
func fieldRules() map[reflect.Type]map[string]map[string]any {
	url := map[string]any{"format": "uri", "pattern": "^https?://"}
	return map[reflect.Type]map[string]map[string]any{
		reflect.TypeFor[Site]():      {"baseUrl": url, "publisher": {"pattern": domainRE.String()}},
		reflect.TypeFor[Provider]():  {"url": url},
		reflect.TypeFor[Agent]():     {"id": {"pattern": slugRE.String()}, "documentationUrl": url, "iconUrl": url, "representativeQueries": {"minItems": 2, "maxItems": 5}, "updatedAt": {"format": "date-time"}},
		reflect.TypeFor[Extended]():  {"documentationUrl": url, "iconUrl": url},
		reflect.TypeFor[Interface](): {"url": url, "protocolBinding": {"enum": Bindings}, "protocolVersion": {"pattern": versionRE.String()}},
		reflect.TypeFor[Skill]():     {"id": {"pattern": skillIDRE.String()}},
		reflect.TypeFor[SecurityScheme](): {
			"type":              {"enum": slices.Sorted(maps.Keys(schemeFields))},
			"location":          {"enum": APIKeyLocations},
			"oauth2MetadataUrl": url, "openIdConnectUrl": url,
		},
		reflect.TypeFor[AuthorizationCodeFlow](): {"authorizationUrl": url, "tokenUrl": url, "refreshUrl": url},
		reflect.TypeFor[ClientCredentialsFlow](): {"tokenUrl": url, "refreshUrl": url},
		reflect.TypeFor[DeviceCodeFlow]():        {"deviceAuthorizationUrl": url, "tokenUrl": url, "refreshUrl": url},
		reflect.TypeFor[MCPServer]():             {"id": {"pattern": slugRE.String()}, "websiteUrl": url},
		reflect.TypeFor[RemoteAgent]():           {"id": {"pattern": slugRE.String()}, "gateway": url},
	}
}

// refusedKeys are keys the types have only so that the validator can
// refuse them with a message; the schema refuses them too (false).
var refusedKeys = map[reflect.Type][]string{
	reflect.TypeFor[Extended]():            {"id"},
	reflect.TypeFor[OverlayCapabilities](): {"extendedAgentCard"},
	reflect.TypeFor[RemoteHeader]():        {"value"},
}

// mapKeys are the rules for the keys of a table of names, by the field
// that holds it.
var mapKeys = map[string]string{
	"securitySchemes": schemeKeyRE.String(),
	"tiers":           slugRE.String(),
	"silence":         lintRulePattern(),
	"interfaces":      "^(JSONRPC|GRPC|HTTP\\+JSON)$",
}

// mapValues are the patterns of the string values of a table of names,
// by the field that holds it.
var mapValues = map[string]string{
	"skillIds": skillIDRE.String(),
}

// lintRulePattern matches the id of a lint rule.
func lintRulePattern() string {
	ids := lintrule.IDs()
	for i, id := range ids {
		ids[i] = regexp.QuoteMeta(id)
	}
	return "^(" + strings.Join(ids, "|") + ")$"
}

// Schema is the JSON Schema (draft-07, which Taplo reads) of agents.toml,
// made from the manifest's Go types, their doc comments and the
// validator's rules. It describes the shape; the validator's messages
// remain the authority on everything the schema cannot say.
func Schema() ([]byte, error) {
	g := &schemaGen{defs: map[string]any{}, docs: fieldDocs()}
	root := g.object(reflect.TypeFor[Manifest]())
	root["$schema"] = "http://json-schema.org/draft-07/schema#"
	root["$id"] = SchemaID
	root["title"] = "agents.toml"
	root["description"] = "The agents an agentcards site publishes (https://github.com/agentcards/agentcards, README \"The manifest\")."
	root["definitions"] = g.defs
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// schemaGen makes the schema of one type after another, each struct type
// once, in definitions.
type schemaGen struct {
	defs map[string]any
	docs map[string]string // "Type.Field" -> doc comment
}

// of is the schema of a value of type t, under the toml key key.
func (g *schemaGen) of(t reflect.Type, key string) map[string]any {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == requirementType:
		return map[string]any{
			"type":                 "object",
			"description":          "One way to authenticate: scheme name = [scopes] ([] for a scheme without scopes).",
			"additionalProperties": map[string]any{"type": "array", "items": map[string]any{"type": "string", "minLength": 1}},
		}
	case t.Kind() == reflect.Struct:
		name := t.Name()
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = nil // being made: a type that holds itself refers to it
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": "#/definitions/" + name}
	case t.Kind() == reflect.String:
		return map[string]any{"type": "string", "minLength": 1}
	case t.Kind() == reflect.Bool:
		return map[string]any{"type": "boolean"}
	case t.Kind() == reflect.Slice:
		return map[string]any{"type": "array", "minItems": 1, "items": g.of(t.Elem(), "")}
	case t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Interface:
		return map[string]any{"type": "object", "minProperties": 1, "description": "Any TOML table, carried into the card as JSON."}
	case t.Kind() == reflect.Map:
		s := map[string]any{"type": "object", "minProperties": 1, "additionalProperties": g.of(t.Elem(), "")}
		if p, ok := mapKeys[key]; ok {
			s["propertyNames"] = map[string]any{"pattern": p}
		}
		if p, ok := mapValues[key]; ok {
			s["additionalProperties"].(map[string]any)["pattern"] = p
		}
		return s
	}
	panic("manifest: no schema for " + t.String())
}

// object is the schema of a struct type: its toml keys, no others.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	rules := fieldRules()[t]
	for i := range t.NumField() {
		f := t.Field(i)
		key := f.Tag.Get("toml")
		if key == "" || key == "-" {
			continue
		}
		s := g.of(f.Type, key)
		if doc := g.docs[t.Name()+"."+f.Name]; doc != "" {
			if _, ref := s["$ref"]; ref {
				s = map[string]any{"allOf": []any{s}}
			}
			s["description"] = doc
		}
		for k, v := range rules[key] {
			s[k] = v
		}
		props[key] = s
		if slices.Contains(refusedKeys[t], key) {
			props[key] = false
		}
	}
	out := map[string]any{"type": "object", "additionalProperties": false, "properties": props}
	if doc := g.docs[t.Name()]; doc != "" {
		out["description"] = doc
	}
	if req := required[t]; len(req) > 0 {
		out["required"] = req
	}
	return out
}

// fieldDocs reads the doc comments of this package's types and their
// fields from its embedded sources.
func fieldDocs() map[string]string {
	docs := map[string]string{}
	entries, _ := sources.ReadDir(".")
	for _, e := range entries {
		src, err := sources.ReadFile(e.Name())
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Name(), src, parser.ParseComments)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				docs[ts.Name.Name] = docText(doc)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fld := range st.Fields.List {
					for _, n := range fld.Names {
						docs[ts.Name.Name+"."+n.Name] = docText(fld.Doc)
					}
				}
			}
		}
	}
	return docs
}

// docText is a doc comment as one paragraph of text.
func docText(c *ast.CommentGroup) string {
	if c == nil {
		return ""
	}
	return strings.Join(strings.Fields(c.Text()), " ")
}
