package manifest_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/manifest"
)

// TestMCPExample loads testdata/mcp/agents.toml: two servers, one of them
// an agent too, after the [[agents]].
func TestMCPExample(t *testing.T) {
	m, err := manifest.Load(filepath.Join("..", "..", "testdata", "mcp", "agents.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.MCPServers) != 2 || m.MCPServers[0].Snapshot == nil || len(m.MCPServers[0].Snapshot.Tools) != 5 {
		t.Fatalf("servers: %+v", m.MCPServers)
	}
	if len(m.Agents) != 2 || m.Agents[1].ID != "weather" {
		t.Fatalf("agents: %d", len(m.Agents))
	}
	a := m.Agents[1]
	if a.Name != "Weather" || len(a.Skills) != 5 || a.DocumentationURL != "https://agents.example.com/mcp/weather/" || a.IconURL != "https://weather.example.com/icon.png" {
		t.Fatalf("synthesized agent: %+v", a)
	}
	byID := map[string]manifest.Skill{}
	for _, s := range a.Skills {
		byID[s.ID] = s
	}
	if s := byID["get_forecast"]; s.Name != "Get forecast" || strings.Join(s.Tags, ",") != "mcp,weather,forecast,read-only,idempotent,open-world" {
		t.Errorf("get_forecast: %+v", s)
	}
	if s := byID["delete_alert"]; s.Name != "delete_alert" || strings.Join(s.Tags, ",") != "mcp,weather,forecast,destructive,closed-world" {
		t.Errorf("delete_alert: %+v", s)
	}
	ext := a.Capabilities.Extensions[len(a.Capabilities.Extensions)-1]
	if ext.URI != manifest.MCPToolsExtension {
		t.Fatalf("extension %+v", ext)
	}
	tools := ext.Params["tools"].([]any)
	first := tools[0].(map[string]any)
	var schema map[string]any
	if err := json.Unmarshal([]byte(first["inputSchema"].(string)), &schema); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first["inputSchema"].(string), `"default":""`) && first["name"] == "get_forecast" {
		t.Errorf("the empty default is lost: %s", first["inputSchema"])
	}
}

// TestSkillID keeps tool names that are skill ids and mends the rest.
func TestSkillID(t *testing.T) {
	for in, want := range map[string]string{
		"get_forecast":  "get_forecast",
		"github.issues": "github.issues",
		"a/b":           "a-b",
		"_private":      "tool-_private",
		"-x":            "tool--x",
		"Get Weather":   "Get-Weather",
		"météo":         "m-t-o",
	} {
		if got := manifest.SkillID(in); got != want {
			t.Errorf("SkillID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCredentialParam finds credentials in query strings and fragments,
// and leaves parameters that only contain such a word alone.
func TestCredentialParam(t *testing.T) {
	for raw, want := range map[string]string{
		"https://h/mcp?api_key=x":                  "api_key",
		"https://h/mcp?apiKey=x":                   "apiKey",
		"https://h/mcp?key=x":                      "key",
		"https://h/mcp?x=1;access_token=y":         "access_token",
		"https://h/mcp#access_token=y":             "access_token",
		"https://h/mcp?sig=abc":                    "sig",
		"https://h/mcp?auth=abc":                   "auth",
		"https://h/mcp?jwt=eyJ":                    "jwt",
		"https://h/mcp?client%5Fsecret=x":          "client_secret",
		"https://h/mcp?accesskey=x":                "accesskey",
		"https://h/mcp?hapikey=x":                  "hapikey",
		"https://h/mcp?clienttoken=x":              "clienttoken",
		"https://h/mcp?token1=x":                   "token1",
		"https://h/mcp?apiKey2=x":                  "apiKey2",
		"https://h/mcp?auth[token]=x":              "auth[token]",
		"https://h/mcp?monkey=1&hockey=2":          "",
		"https://h/mcp?tokenizer=cl100k":           "",
		"https://h/mcp?keyword=weather":            "",
		"https://h/mcp?passwordless=true":          "",
		"https://h/mcp?author=me&monkey=1":         "",
		"https://h/mcp?version=2025-11-25&region=": "",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := manifest.CredentialParam(u); got != want {
			t.Errorf("CredentialParam(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestSkillIDs: skillIds names the skills of tools whose names differ
// only in letter case (its keys are tool names, not card members, so
// case twins are fine there), and three tools that become one id are
// told together.
func TestSkillIDs(t *testing.T) {
	dir := t.TempDir()
	snap := `{"snapshotFormat":"agentcards-mcp-snapshot/1","protocolVersion":"2025-11-25","serverInfo":{"name":"s"},"tools":[
{"name":"Get","inputSchema":{"type":"object"}},{"name":"get","inputSchema":{"type":"object"}},
{"name":"a b","inputSchema":{"type":"object"}},{"name":"a/b","inputSchema":{"type":"object"}},{"name":"a?b","inputSchema":{"type":"object"}}]}`
	head := "[site]\nbaseUrl = \"https://agents.example.com\"\n\n[[mcpServers]]\nid = \"s\"\nname = \"com.example/s\"\ndescription = \"S.\"\nversion = \"1.0.0\"\ntools = \"snap.json\"\n"
	tail := "[[mcpServers.a2a.supportedInterfaces]]\nurl = \"https://gw.example.com/a2a/s\"\nprotocolBinding = \"JSONRPC\"\nprotocolVersion = \"1.0\"\n"
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("snap.json", snap)
	write("agents.toml", head+"a2a.skillIds = { \"Get\" = \"get-upper\", \"get\" = \"get-lower\" }\n"+tail)
	_, err := manifest.Load(filepath.Join(dir, "agents.toml"))
	want := `mcpServers["s"].a2a.skillIds: tools "a b", "a/b" and "a?b" all become skill id "a-b": name their skill ids with skillIds`
	if err == nil || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "\n") != 0 {
		t.Fatalf("got %v, want one problem: %s", err, want)
	}
	write("agents.toml", head+"a2a.skillIds = { \"Get\" = \"get-upper\", \"get\" = \"get-lower\", \"a b\" = \"ab1\", \"a/b\" = \"ab2\" }\n"+tail)
	m, err := manifest.Load(filepath.Join(dir, "agents.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range m.Agents[0].Skills {
		ids = append(ids, s.ID)
	}
	if got := strings.Join(ids, " "); got != "get-upper get-lower ab1 ab2 a-b" {
		t.Errorf("skill ids %s", got)
	}
}
