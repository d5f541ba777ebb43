package manifest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite agents.schema.json")

const schemaFile = "agents.schema.json"

// TestSchemaFileIsGenerated: the committed schema is what Schema makes
// from the Go types (go test ./internal/manifest -run Schema -update
// rewrites it), so a key added to the types reaches it or this fails.
func TestSchemaFileIsGenerated(t *testing.T) {
	got, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(schemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the Go types give: run go test ./internal/manifest -run Schema -update", schemaFile)
	}
}

// TestSchemaHasEveryKey walks the manifest's types: every toml key of
// every struct is a property of its definition.
func TestSchemaHasEveryKey(t *testing.T) {
	var doc struct {
		Properties  map[string]any `json:"properties"`
		Definitions map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"definitions"`
	}
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	check := func(rt reflect.Type, props map[string]any) {
		for i := range rt.NumField() {
			key := rt.Field(i).Tag.Get("toml")
			if key == "" || key == "-" {
				continue
			}
			if _, ok := props[key]; !ok {
				t.Errorf("%s.%s (%s) is not in the schema", rt.Name(), rt.Field(i).Name, key)
			}
			walk(rt.Field(i).Type)
		}
	}
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		check(rt, doc.Definitions[rt.Name()].Properties)
	}
	seen[reflect.TypeFor[Manifest]()] = true
	check(reflect.TypeFor[Manifest](), doc.Properties)
}

// schemaValidator compiles the committed schema with format assertions.
func schemaValidator(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// asJSON reads TOML source as the JSON value an editor checks.
func asJSON(t *testing.T, src string) any {
	t.Helper()
	var v map[string]any
	if _, err := toml.Decode(src, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(withTimes(v))
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSchemaAcceptsValidManifests: the example, the manifests of the
// tests, and one of every key the validator takes, all pass the schema.
func TestSchemaAcceptsValidManifests(t *testing.T) {
	s := schemaValidator(t)
	manifests := map[string]string{"validAgent": validAgent, "securedAgent": securedAgent + extendedOverlayForSchema}
	for _, path := range []string{"../../agents.toml", "../../testdata/mcp/agents.toml"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		manifests[path] = string(b)
	}
	scripts, _ := filepath.Glob("../../testdata/script/*.txtar")
	for _, p := range scripts {
		if strings.Contains(p, "bad_") || strings.Contains(p, "attack") {
			continue
		}
		b, _ := os.ReadFile(p)
		for name, body := range txtarFiles(string(b)) {
			if !strings.HasSuffix(name, ".toml") || strings.Contains(name, "bad") {
				continue
			}
			if _, err := Parse(name, []byte(body)); err != nil {
				continue // a scenario's broken manifest
			}
			manifests[filepath.Base(p)+":"+name] = body
		}
	}
	if len(manifests) < 10 {
		t.Fatalf("only %d manifests", len(manifests))
	}
	for name, src := range manifests {
		if _, err := Parse(name, []byte(src)); err != nil && !strings.Contains(name, "mcp") {
			t.Errorf("%s does not load: %v", name, err)
			continue
		}
		if err := s.Validate(asJSON(t, src)); err != nil {
			t.Errorf("%s: the schema refuses a manifest the validator takes:\n%v", name, err)
		}
	}
}

// extendedOverlayForSchema has a tier, so that the schema's recursion is
// exercised.
const extendedOverlayForSchema = `[agents.extended]
description = "More"
[[agents.extended.addSkills]]
id = "x"
name = "X"
description = "D"
tags = ["t"]
[agents.extended.tiers.pro]
version = "2"
`

// txtarFiles is the files of a txtar archive.
func txtarFiles(s string) map[string]string {
	out := map[string]string{}
	name := ""
	var body strings.Builder
	flush := func() {
		if name != "" {
			out[name] = body.String()
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --") {
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "-- "), " --")
			continue
		}
		if name != "" {
			body.WriteString(line)
		}
	}
	flush()
	return out
}

// TestSchemaRefuses: what an editor should mark, the schema refuses.
func TestSchemaRefuses(t *testing.T) {
	s := schemaValidator(t)
	for name, src := range map[string]string{
		"misspelled key":      strings.Replace(validAgent, "baseUrl", "base_url", 1),
		"unknown binding":     strings.Replace(validAgent, `protocolBinding = "JSONRPC"`, `protocolBinding = "jsonrpc"`, 1),
		"bad id":              strings.Replace(validAgent, `id = "a"`, `id = "A B"`, 1),
		"empty tags":          strings.Replace(validAgent, `tags = ["t"]`, `tags = []`, 1),
		"no skills":           validAgent[:strings.Index(validAgent, "[[agents.skills]]")],
		"http url":            strings.Replace(validAgent, `url = "https://a.example.com"`, `url = "ftp://a.example.com"`, 1),
		"unknown in extended": securedAgent + "[agents.extended]\nupdatedAt = \"x\"\n",
		"bad tier name":       securedAgent + "[agents.extended.tiers.\"Pro Plan\"]\nversion = \"2\"\n",
	} {
		if err := s.Validate(asJSON(t, src)); err == nil {
			t.Errorf("%s: the schema takes it", name)
		}
	}
}

// TestSchemaRequiredMatchesValidator: each key the schema requires, left
// out of a valid manifest, is one the validator reports as required.
func TestSchemaRequiredMatchesValidator(t *testing.T) {
	base := securedAgent
	for _, tc := range []struct{ key, line string }{
		{"agents[0].id", `id = "a"` + "\n"},
		{"agents[0].name", "name = \"A\"\n"},
		{"agents[0].description", "description = \"D\"\n"},
		{"agents[0].version", "version = \"1\"\n"},
		{"agents[0].supportedInterfaces[0].url", "url = \"https://a.example.com\"\n"},
		{"agents[0].supportedInterfaces[0].protocolBinding", "protocolBinding = \"JSONRPC\"\n"},
		{"agents[0].supportedInterfaces[0].protocolVersion", "protocolVersion = \"1.0\"\n"},
		{"agents[0].skills[0].tags", "tags = [\"t\"]\n"},
		{"agents[0].securitySchemes.key.type", "type = \"apiKey\"\n"},
		{"site.baseUrl", "baseUrl = \"https://agents.example.com/\"\n"},
	} {
		src := strings.Replace(base, tc.line, "", 1)
		if src == base {
			t.Fatalf("%s: line %q not found", tc.key, tc.line)
		}
		_, err := Parse("m.toml", []byte(src))
		// Diagnostics name the agent and the skill by id once they have one.
		key := strings.NewReplacer("agents[0].", `agents["a"].`, "skills[0].", `skills["s"].`).Replace(tc.key)
		if tc.key == "agents[0].id" {
			key = tc.key
		}
		if err == nil || !strings.Contains(err.Error(), key+": required") {
			t.Errorf("without %s: %v", tc.key, err)
		}
	}
	// And the schema's lists are these.
	for rt, keys := range required {
		for _, k := range keys {
			found := false
			for i := range rt.NumField() {
				if rt.Field(i).Tag.Get("toml") == k {
					found = true
				}
			}
			if !found {
				t.Errorf("%s requires %q, which it does not have", rt.Name(), k)
			}
		}
	}
}

// withTimes is v with TOML date-times as RFC 3339 strings, as an
// editor's TOML-to-JSON conversion writes them.
func withTimes(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.Format(time.RFC3339)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = withTimes(e)
		}
		return out
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withTimes(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withTimes(e)
		}
		return out
	}
	return v
}
