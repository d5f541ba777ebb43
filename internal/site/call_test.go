package site

import (
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/manifest"
)

// shellWords splits a command as sh does, by asking sh: each argument on
// a line of its own (printf), variables set to their own names.
func shellWords(t *testing.T, command string) []string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	script := "API_KEY='$API_KEY'; TOKEN='$TOKEN'; USER='$USER'; PASSWORD='$PASSWORD'\nset -- " +
		strings.Replace(strings.TrimPrefix(strings.TrimPrefix(command, "curl "), "grpcurl "), "\\\n", " ", -1) +
		"\nprintf '%s\\n' \"$@\""
	out, err := exec.Command(sh, "-c", script).Output()
	if err != nil {
		t.Fatalf("sh refused the command: %v\n%s", err, command)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// TestHowToCall: the request for each binding and version, with the
// credential where the scheme puts it; and, whatever the manifest holds in
// a URL, a tenant or a header name, the shell reads the command as the
// words it shows and runs nothing else.
func TestHowToCall(t *testing.T) {
	agent := func(in manifest.Interface, scheme manifest.SecurityScheme) *manifest.Agent {
		a := &manifest.Agent{SupportedInterfaces: []manifest.Interface{in}}
		if scheme.Type != "" {
			a.SecuritySchemes = map[string]manifest.SecurityScheme{"s": scheme}
			a.SecurityRequirements = []manifest.Requirement{{"s": nil}}
		}
		return a
	}
	hostile := "https://a.example.com/x'$(touch /tmp/pwned)'`id`;rm -rf ~"
	for _, tc := range []struct {
		name   string
		a      *manifest.Agent
		want   []string // words the shell must see
		binary string
	}{
		{"JSON-RPC 1.0, API key header", agent(manifest.Interface{URL: "https://a.example.com/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}, manifest.SecurityScheme{Type: "apiKey", Location: "header", Name: "X-API-Key"}),
			[]string{"https://a.example.com/a2a", "A2A-Version: 1.0", "X-API-Key: $API_KEY", `{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "1", "role": "ROLE_USER", "parts": [{"text": "Hello"}]}}}`}, "curl"},
		{"JSON-RPC 0.3", agent(manifest.Interface{URL: "https://a.example.com/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3.0"}, manifest.SecurityScheme{Type: "http", Scheme: "Bearer"}),
			[]string{"Authorization: Bearer $TOKEN", `"method": "message/send"`, `"kind": "text"`}, "curl"},
		{"HTTP+JSON, key in the query, tenant", agent(manifest.Interface{URL: "https://a.example.com/v1/", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0", Tenant: "acme"}, manifest.SecurityScheme{Type: "apiKey", Location: "query", Name: "key"}),
			[]string{"https://a.example.com/v1/acme/message:send?key=$API_KEY", `{"message": {"messageId": "1"`}, "curl"},
		{"gRPC", agent(manifest.Interface{URL: "https://grpc.example.com", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}, manifest.SecurityScheme{Type: "openIdConnect"}),
			[]string{"Authorization: Bearer $TOKEN", "grpc.example.com:443", "lf.a2a.v1.A2AService/SendMessage"}, "grpcurl"},
		{"hostile URL", agent(manifest.Interface{URL: hostile, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}, manifest.SecurityScheme{}),
			[]string{"https://a.example.com/x%27$%28touch%20/tmp/pwned%29%27%60id%60;rm%20-rf%20~"}, "curl"},
		{"hostile tenant and header name", agent(manifest.Interface{URL: "https://a.example.com", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0", Tenant: "t'$(id)'"}, manifest.SecurityScheme{Type: "apiKey", Location: "cookie", Name: "k'$(id)'"}),
			[]string{"https://a.example.com/t%27$%28id%29%27/message:send"}, "curl"},
		{"fish: backslash and quote", agent(manifest.Interface{URL: `https://a.example.com/a?q=\'x`, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: `t\'; id`}, manifest.SecurityScheme{Type: "apiKey", Location: "header", Name: `X-Key\'; touch /tmp/p; echo \'`}),
			[]string{"https://a.example.com/a?q=%5C%27x", `"tenant": "t\u005c\u0027; id"`}, "curl"},
		{"query key with a query already", agent(manifest.Interface{URL: "https://a.example.com/a2a?v=2", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0", Tenant: "acme"}, manifest.SecurityScheme{Type: "apiKey", Location: "query", Name: "key"}),
			[]string{"https://a.example.com/a2a/acme/message:send?v=2&key=$API_KEY"}, "curl"},
		{"gRPC over loopback http", agent(manifest.Interface{URL: "http://[::1]", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}, manifest.SecurityScheme{}),
			[]string{"-plaintext", "[::1]:443"}, "grpcurl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := howToCall(tc.a)
			if c == nil || !strings.HasPrefix(c.Command, tc.binary+" ") {
				t.Fatalf("command %+v", c)
			}
			words := shellWords(t, c.Command)
			all := strings.Join(words, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no word holds %q; the shell sees:\n%s", w, all)
				}
			}
			if strings.Contains(all, "uid=") {
				t.Errorf("a command substitution ran:\n%s", all)
			}
			// Nothing a fish shell reads differently: no backslash pair or
			// escaped quote inside the single-quoted words, and no byte
			// outside printable ASCII (a bidi control would reorder it).
			for _, bad := range []string{`\\`, `\'`} {
				if strings.Contains(strings.ReplaceAll(c.Command, " \\\n", ""), bad) {
					t.Errorf("the command holds %q:\n%s", bad, c.Command)
				}
			}
			for _, r := range c.Command {
				if r > 0x7e || r < ' ' && r != '\n' {
					t.Errorf("the command holds %U", r)
				}
			}
		})
	}
}

// TestVerifyCommandIsOneWord: the "check it yourself" command on an agent
// page reads as agentcards verify and the card's URL, whatever baseUrl
// holds (a path with shell syntax in it is a valid URL).
func TestVerifyCommandIsOneWord(t *testing.T) {
	dir := t.TempDir()
	src := strings.Replace(strings.Replace(generatedManifest(1), `baseUrl = "https://agents.example.com"`, "baseUrl = \"https://agents.example.com/a;id;$HOME&x\"", 1), `defaultAgent = "agent-0"`, "", 1)
	m, err := manifest.Parse(filepath.Join(dir, "agents.toml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m.Dir = dir
	abs, _ := filepath.Abs(testKeysDir + "/public")
	m.Site.Keys = abs
	m.Site.PrivateOutput = filepath.Join(dir, "private")
	out := filepath.Join(dir, "public")
	buildWithTestKeys(t, m, out, "ed25519")
	page, err := os.ReadFile(filepath.Join(out, "agents", "agent-0", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(page), `<pre class="copyable"><code>agentcards verify`)
	command, _, _ := strings.Cut(rest, "</code>")
	words := shellWords(t, "verify"+html.UnescapeString(command))
	if strings.Contains(strings.Join(words, "\n"), "uid=") || len(words) != 4 || words[0] != "verify" || words[1] != "-jwks" || !strings.HasPrefix(words[3], "https://agents.example.com/a;id;$HOME&x/agents/agent-0/") {
		t.Errorf("the shell reads the command as %q", words)
	}
}
