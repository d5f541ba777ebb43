package site

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/markdown"
	"github.com/agentcards/agentcards/internal/mcp"
	"github.com/agentcards/agentcards/internal/prereq"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/verify"
)

const (
	mcpExample       = repoRoot + "/testdata/mcp/agents.toml"
	serverCardSchema = repoRoot + "/testdata/schema/mcp-server-card.schema.json"
)

// buildMCPExample builds testdata/mcp/agents.toml (an agent and two MCP
// servers, one with an a2a table) into dir with the named test keys.
func buildMCPExample(t testing.TB, dir string, keys ...string) (*manifest.Manifest, *Report) {
	t.Helper()
	return buildWithTestKeys(t, loadWithTestKeys(t, mcpExample), dir, keys...)
}

// serverCardValidator is the Server Card schema of
// modelcontextprotocol/experimental-ext-server-card (testdata/schema),
// at its ServerCard definition, with formats asserted.
var serverCardValidator = sync.OnceValues(func() (*jsonschema.Schema, error) {
	f, err := os.Open(serverCardSchema)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://example.test/server-card.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url + "#/$defs/ServerCard")
})

func validateServerCard(t *testing.T, name string, data []byte) {
	t.Helper()
	sch, err := serverCardValidator()
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("%s is not a valid Server Card: %v", name, err)
	}
}

// TestServerCardsValidate checks every Server Card a build writes against
// the extension's JSON Schema, and that the schema check can fail.
func TestServerCardsValidate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	m, _ := buildMCPExample(t, out, "ed25519")
	for _, s := range m.MCPServers {
		name := "mcp/" + s.ID + "/server-card.json"
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		validateServerCard(t, name, data)
		c, err := card.Decode(data, card.Strict)
		if err != nil {
			t.Fatal(err)
		}
		if p := verify.CheckServerCard(c); len(p) > 0 {
			t.Errorf("%s: %v", name, p)
		}
		if bytes.Contains(data, []byte("tools")) {
			t.Errorf("%s lists tools; a Server Card does not", name)
		}
	}
	// The schema is known to refuse: no $schema, a long description.
	sch, _ := serverCardValidator()
	for _, bad := range []string{
		`{"name":"com.example/x","version":"1","description":"d"}`,
		`{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"x","version":"1","description":"d"}`,
		`{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"com.example/x","version":"1","description":"` + strings.Repeat("d", 101) + `"}`,
	} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if sch.Validate(v) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}

// TestMCPCatalog: the catalog lists each server's Server Card with the MCP
// type and identifier, and the synthesized agent as an A2A card, and
// satisfies ARD's schema; a nested site's root catalog lists them too.
func TestMCPCatalog(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildMCPExample(t, out, "ed25519")
	raw, err := os.ReadFile(filepath.Join(out, layout.WellKnown, layout.CatalogFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, problems, err := aicatalog.Parse(raw); err != nil || len(problems) > 0 {
		t.Fatalf("catalog: %v %v", err, problems)
	}
	var cat struct{ Entries []catalogEntry }
	json.Unmarshal(raw, &cat)
	got := map[string]catalogEntry{}
	for _, e := range cat.Entries {
		got[e.Identifier] = e
	}
	want := map[string]string{
		"urn:air:agents.example.com:a2a:helper":  CardMediaType,
		"urn:air:agents.example.com:a2a:weather": CardMediaType,
		"urn:air:agents.example.com:mcp:weather": ServerCardMediaType,
		"urn:air:agents.example.com:mcp:notes":   ServerCardMediaType,
	}
	if len(got) != len(want) {
		t.Fatalf("entries: %v", cat.Entries)
	}
	for id, typ := range want {
		if got[id].Type != typ {
			t.Errorf("%s: type %q, want %q", id, got[id].Type, typ)
		}
	}
	if e := got["urn:air:agents.example.com:mcp:weather"]; e.URL != "https://agents.example.com/mcp/weather/server-card.json" || len(e.Capabilities) != 5 {
		t.Errorf("weather entry: %+v", e)
	}

	// Past FlatMax agents the root catalog nests the agents and still
	// lists the servers itself.
	smallGroups(t)
	p := newProject(t, 7)
	snapshot, _ := os.ReadFile(repoRoot + "/testdata/mcp/weather.json")
	p.write("weather.json", string(snapshot))
	p.toml += "\n[[mcpServers]]\nid = \"weather\"\nname = \"com.example/weather\"\ndescription = \"Forecasts.\"\nversion = \"2.1.0\"\ntools = \"weather.json\"\n"
	nested := filepath.Join(t.TempDir(), "public")
	if _, err := p.build(nested); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(filepath.Join(nested, layout.WellKnown, layout.CatalogFile))
	if _, problems, err := aicatalog.Parse(raw); err != nil || len(problems) > 0 {
		t.Fatalf("nested root catalog: %v %v", err, problems)
	}
	if !bytes.Contains(raw, []byte(`"type": "application/mcp-server-card+json"`)) || !bytes.Contains(raw, []byte(`"type": "application/ai-catalog+json"`)) {
		t.Errorf("root catalog of a nested site:\n%s", raw)
	}
}

// TestMCPOnlySite: a manifest of MCP servers only builds a site without
// agent cards; when agents leave a site, their root cards go too; a server
// that leaves the manifest takes its folder with it.
func TestMCPOnlySite(t *testing.T) {
	p := newProject(t, 1)
	snapshot, _ := os.ReadFile(repoRoot + "/testdata/mcp/weather.json")
	p.write("weather.json", string(snapshot))
	server := func(id string) string {
		return "\n[[mcpServers]]\nid = \"" + id + "\"\nname = \"com.example/" + id + "\"\ndescription = \"Forecasts.\"\nversion = \"2.1.0\"\ntools = \"weather.json\"\n"
	}
	head := "[site]\nbaseUrl = \"https://agents.example.com\"\n"
	out := filepath.Join(t.TempDir(), "public")
	p.sameAsClean(out, "one agent")
	p.toml = head + server("weather") + server("rain")
	p.sameAsClean(out, "MCP servers only")
	for _, gone := range []string{layout.WellKnown + "/" + layout.CardFile, layout.WellKnown + "/" + layout.LegacyFile, "agents/agent-0"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(gone))); err == nil {
			t.Errorf("%s is still published without agents", gone)
		}
	}
	for _, there := range []string{"mcp/weather/server-card.json", "mcp/rain/index.html", layout.WellKnown + "/" + layout.CatalogFile, layout.WellKnown + "/" + layout.JWKSFile, "index.html"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(there))); err != nil {
			t.Errorf("%s: %v", there, err)
		}
	}
	p.toml = head + server("weather")
	p.sameAsClean(out, "a server removed")
	if _, err := os.Stat(filepath.Join(out, "mcp", "rain")); err == nil {
		t.Error("mcp/rain is still published")
	}
	// A changed snapshot reaches the page, the catalog and the search.
	p.write("weather.json", strings.Replace(string(snapshot), "Check that the server answers.", "Check that the weather server answers.", 1))
	p.sameAsClean(out, "snapshot changed")
	page, _ := os.ReadFile(filepath.Join(out, "mcp", "weather", "index.html"))
	if !bytes.Contains(page, []byte("Check that the weather server answers.")) {
		t.Error("the page kept the old snapshot")
	}
}

// TestMCPPage: a server's page shows every tool with its parameters
// (type, required, description, default, allowed values), output schema
// and hints, and how to connect.
func TestMCPPage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildMCPExample(t, out, "ed25519")
	page, err := os.ReadFile(filepath.Join(out, "mcp", "weather", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<h1>Weather</h1>`,
		`<td data-label="Endpoint"><code>https://mcp.example.com/weather</code></td><td data-label="Transport">Streamable HTTP</td><td data-label="MCP revisions">2025-11-25, 2026-07-28</td>`,
		`<li><code>Authorization</code> (required) (secret: your own credential): Bearer token from the Example Weather console.</li>`,
		`<h3>Get forecast <code class="id">get_forecast</code></h3>`,
		`<td data-label="Name"><code>units</code></td><td data-label="Type">string</td><td data-label="Required">no</td><td data-label="Description">Units; empty for the server&#39;s choice</td><td data-label="Default"><code>&#34;&#34;</code></td><td data-label="Allowed values"><code>&#34;&#34;</code> <code>&#34;metric&#34;</code> <code>&#34;imperial&#34;</code></td>`,
		`<td data-label="Name"><code>city</code></td><td data-label="Type">string</td><td data-label="Required">yes</td>`,
		`<td data-label="Name"><code>days</code></td><td data-label="Type">integer</td><td data-label="Required">no</td><td data-label="Description"></td><td data-label="Default"><code>3</code></td>`,
		`<td data-label="Name"><code>days[].high</code></td><td data-label="Type">number</td>`,
		`<td data-label="Name"><code>near.lat</code></td><td data-label="Type">number</td><td data-label="Required">yes</td>`,
		`<td data-label="Name"><code>tags</code></td><td data-label="Type">array of string</td><td data-label="Required">no</td><td data-label="Description"></td><td data-label="Default"><code>[]</code></td>`,
		`<td data-label="Name"><code>region</code></td><td data-label="Type">string | null</td>`,
		`<li>read-only</li><li>idempotent</li><li>open-world</li>`,
		`<li>destructive</li><li>closed-world</li>`,
		`<p class="label">Output</p>`,
		`<strong>daily</strong>`,
		`href="../../agents/weather/"`,
		`urn:air:agents.example.com:mcp:weather`,
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %s", want)
		}
	}
	notes, _ := os.ReadFile(filepath.Join(out, "mcp", "notes", "index.html"))
	if bytes.Contains(notes, []byte("agents/notes/")) {
		t.Error("a server without an a2a table links an agent page")
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !bytes.Contains(index, []byte(`<a href="mcp/weather/">Weather</a>`)) || !bytes.Contains(index, []byte(`<a href="mcp/notes/">com.example/notes</a>`)) {
		t.Error("the front page does not list the MCP servers")
	}
	shard, _ := os.ReadFile(filepath.Join(out, layout.SearchFolder, "1.json"))
	if !bytes.Contains(shard, []byte(`"k":"mcp"`)) || !bytes.Contains(shard, []byte("get_forecast")) {
		t.Errorf("the search does not find the MCP servers' tools: %s", shard)
	}
	sitemap, _ := os.ReadFile(filepath.Join(out, layout.SitemapFile))
	if !bytes.Contains(sitemap, []byte("https://agents.example.com/mcp/weather/")) {
		t.Error("the sitemap lacks the MCP pages")
	}
	headers, _ := os.ReadFile(filepath.Join(out, layout.HeadersFile))
	if !bytes.Contains(headers, []byte("/mcp/:id/server-card.json\n  Access-Control-Allow-Origin: *\n  Content-Type: application/json\n")) {
		t.Errorf("_headers has no Server Card rule:\n%s", headers)
	}
}

// TestMCPInteropJSSDK: the card synthesized from the tools verifies with
// the official @a2a-js/sdk and the strict verifier, and the SDK's
// canonical form keeps each tool's schema text, "" defaults included.
func TestMCPInteropJSSDK(t *testing.T) {
	node := requireNode(t)
	out := filepath.Join(t.TempDir(), "public")
	m, rep := buildMCPExample(t, out, "ed25519", "es256")
	ks, _ := sign.LoadKeySet(m.KeysDir())
	signers := testSigners(t, m, ks, "ed25519", "es256")
	res := runCheck(t, node, out, JWKSURL(m))
	name := "agents/weather/.well-known/agent-card.json"
	r, ok := res[name]
	if !ok {
		t.Fatalf("check.mjs did not check %s", name)
	}
	checkV1Result(t, name, r, out, signers, rep, JWKSURL(m))
	legacy := res["agents/weather/.well-known/agent.json"]
	if legacy.SchemaValid == nil || !*legacy.SchemaValid {
		t.Errorf("agent.json is not valid against the v0.3.0 schema: %v", legacy.SchemaErrors)
	}
	var canon map[string]any
	if err := json.Unmarshal([]byte(r.SDKCanonical), &canon); err != nil {
		t.Fatal(err)
	}
	exts := canon["capabilities"].(map[string]any)["extensions"].([]any)
	params := exts[len(exts)-1].(map[string]any)["params"].(map[string]any)
	tools := params["tools"].([]any)
	if len(tools) != 5 {
		t.Fatalf("the SDK sees %d tools", len(tools))
	}
	for _, tool := range m.MCPServers[0].Snapshot.Tools {
		want, _ := manifest.SchemaText(tool.InputSchema)
		found := false
		for _, x := range tools {
			e := x.(map[string]any)
			if e["name"] == tool.Name {
				found = e["inputSchema"] == want
			}
		}
		if !found {
			t.Errorf("tool %s: the SDK's canonical form does not keep the schema %s", tool.Name, want)
		}
	}
	if !strings.Contains(r.SDKCanonical, `\"default\":\"\"`) {
		t.Error(`the empty default did not reach the SDK's canonical form`)
	}
}

// startReferenceServer runs the MCP reference server "everything" (the
// official TypeScript SDK's) on loopback (testdata/interop/mcp-everything.mjs)
// and returns its endpoint.
func startReferenceServer(t *testing.T, node string) string {
	t.Helper()
	prereq.NPM(t, "@modelcontextprotocol/server-everything")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, "mcp-everything.mjs", "0")
	cmd.Dir = interopDir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				port <- p
			}
		}
	}()
	select {
	case p := <-port:
		return "http://127.0.0.1:" + p + "/mcp"
	case <-time.After(30 * time.Second):
		t.Fatal("the MCP reference server did not start")
	}
	return ""
}

// TestMCPReferenceServer: mcp fetch snapshots the MCP reference server of
// the TypeScript SDK (tools, resources and prompts this repository did not
// write); the build publishes it, and the A2A card synthesized from its
// tools verifies with @a2a-js/sdk and the strict verifier.
func TestMCPReferenceServer(t *testing.T) {
	node := requireNode(t)
	endpoint := startReferenceServer(t, node)
	snap, err := mcp.Fetch(context.Background(), endpoint, mcp.FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Tools) < 5 || len(snap.Resources) == 0 || len(snap.Prompts) == 0 {
		t.Fatalf("snapshot of the reference server: %d tools, %d resources, %d prompts", len(snap.Tools), len(snap.Resources), len(snap.Prompts))
	}
	data, err := snap.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "everything.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	toml := `[site]
baseUrl = "https://agents.example.com"

[[mcpServers]]
id = "everything"
name = "io.github.modelcontextprotocol/everything"
description = "The MCP reference server."
version = "1.0.0"
tools = "everything.json"
[[mcpServers.a2a.supportedInterfaces]]
url = "https://gateway.example.com/a2a/everything"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"
`
	if err := os.WriteFile(filepath.Join(dir, "agents.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	m, rep := buildWithTestKeys(t, loadWithTestKeys(t, filepath.Join(dir, "agents.toml")), out, "ed25519")
	sc, err := os.ReadFile(filepath.Join(out, "mcp", "everything", "server-card.json"))
	if err != nil {
		t.Fatal(err)
	}
	validateServerCard(t, "mcp/everything/server-card.json", sc)
	page, _ := os.ReadFile(filepath.Join(out, "mcp", "everything", "index.html"))
	for _, tool := range snap.Tools {
		if !bytes.Contains(page, []byte(`<code class="id">`+template.HTMLEscapeString(tool.Name)+`</code>`)) {
			t.Errorf("the page lacks tool %s", tool.Name)
		}
	}
	ks, _ := sign.LoadKeySet(m.KeysDir())
	res := runCheck(t, node, out, JWKSURL(m))
	name := "agents/everything/.well-known/agent-card.json"
	r, ok := res[name]
	if !ok {
		t.Fatalf("check.mjs did not check %s", name)
	}
	checkV1Result(t, name, r, out, testSigners(t, m, ks, "ed25519"), rep, JWKSURL(m))
}

// TestMCPLongTextIsPlain: a tool description longer than maxMarkdown is
// shown as plain text, escaped, not rendered as Markdown (whose time grows
// faster than the text on some inputs); a short one is Markdown.
func TestMCPLongTextIsPlain(t *testing.T) {
	long := strings.Repeat("_a*", 2*maxMarkdown) + "<script>x</script>"
	got, err := serverText(markdown.NewIDs(), long)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), `<p class="plain">_a*_a*`) || strings.Contains(string(got), "<script>") || strings.Contains(string(got), "<em>") {
		t.Errorf("long text: %.80s", got)
	}
	short, _ := serverText(markdown.NewIDs(), "**bold** <script>x</script>")
	if !strings.Contains(string(short), "<strong>bold</strong>") || strings.Contains(string(short), "<script>") {
		t.Errorf("short text: %s", short)
	}
}

// TestMCPPageReferences: a tool whose parameters are defined through
// $defs gets them on its page, and the synthesized card carries its
// schema as the server wrote it, references unresolved.
func TestMCPPageReferences(t *testing.T) {
	dir := t.TempDir()
	const schema = `{"$defs":{"Address":{"properties":{"city":{"description":"City of the address","type":"string"}},"required":["city"],"type":"object"}},"properties":{"addr":{"$ref":"#/$defs/Address"}},"type":"object"}`
	snap := `{"snapshotFormat":"agentcards-mcp-snapshot/1","protocolVersion":"2025-11-25","serverInfo":{"name":"ship"},
"tools":[{"name":"ship","description":"Ships.","inputSchema":` + schema + `}]}`
	toml := `[site]
baseUrl = "https://agents.example.com"

[[mcpServers]]
id = "ship"
name = "com.example/ship"
description = "Ships parcels."
version = "1.0.0"
tools = "ship.json"
[[mcpServers.a2a.supportedInterfaces]]
url = "https://gateway.example.com/a2a/ship"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"
`
	for name, data := range map[string]string{"ship.json": snap, "agents.toml": toml} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "public")
	buildWithTestKeys(t, loadWithTestKeys(t, filepath.Join(dir, "agents.toml")), out, "ed25519")
	page, _ := os.ReadFile(filepath.Join(out, "mcp", "ship", "index.html"))
	if want := `<td data-label="Name"><code>addr.city</code></td><td data-label="Type">string</td><td data-label="Required">yes</td><td data-label="Description">City of the address</td>`; !bytes.Contains(page, []byte(want)) {
		t.Errorf("the page lacks %s", want)
	}
	raw, err := os.ReadFile(filepath.Join(out, "agents", "ship", ".well-known", "agent-card.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Capabilities struct {
			Extensions []struct {
				Params struct {
					Tools []struct{ InputSchema string } `json:"tools"`
				} `json:"params"`
			} `json:"extensions"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	exts := c.Capabilities.Extensions
	if len(exts) != 1 || len(exts[0].Params.Tools) != 1 || exts[0].Params.Tools[0].InputSchema != schema {
		t.Errorf("the card's extension does not carry the schema as written: %s", raw)
	}
}
