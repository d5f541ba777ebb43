package verify

import (
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
)

// TestCheckServerCardRefusesCredentials: every way a Server Card can carry
// a credential is refused; a clean card passes.
func TestCheckServerCardRefusesCredentials(t *testing.T) {
	const head = `{"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json", "name": "com.example/w", "version": "1.0.0", "description": "W."`
	for name, tc := range map[string]struct{ remotes, want string }{
		"clean":              {`[{"type": "streamable-http", "url": "https://mcp.example.com/w", "headers": [{"name": "Authorization", "isSecret": true, "isRequired": true}]}]`, ""},
		"value":              {`[{"type": "sse", "url": "https://mcp.example.com/w", "headers": [{"name": "Authorization", "value": "Bearer abc"}]}]`, "remotes[0].headers[0] carries a value"},
		"Value":              {`[{"type": "sse", "url": "https://mcp.example.com/w", "headers": [{"name": "Authorization", "Value": "Bearer abc"}]}]`, "remotes[0].headers[0] carries a value"},
		"secret default":     {`[{"type": "sse", "url": "https://mcp.example.com/w", "headers": [{"name": "X-Key", "isSecret": true, "default": "k-123"}]}]`, "is secret and carries a default"},
		"variable value":     {`[{"type": "sse", "url": "https://{t}.example.com/w", "variables": {"t": {"value": "acme"}}}]`, "remotes[0].variables.t carries a value"},
		"header variable":    {`[{"type": "sse", "url": "https://mcp.example.com/w", "headers": [{"name": "Authorization", "variables": {"token": {"isSecret": true, "default": "abc"}}}]}]`, "headers[0].variables.token is secret and carries a default"},
		"user info":          {`[{"type": "sse", "url": "https://user:pw@mcp.example.com/w"}]`, "remotes[0].url carries user information"},
		"query credential":   {`[{"type": "sse", "url": "https://mcp.example.com/w?api_key=sk-live-0123"}]`, `remotes[0].url carries the query parameter "api_key"`},
		"key material":       {`[{"type": "sse", "url": "https://mcp.example.com/w", "headers": [{"name": "X", "description": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n-----END PRIVATE KEY-----"}]}]`, "remotes[0].headers[0].description contains a PEM private key"},
		"capitalised":        {`[{"type": "sse", "URL": "https://u:p@mcp.example.com/w", "Headers": [{"name": "X", "IsSecret": true, "default": "opaque"}]}]`, "remotes[0].url carries user information"},
		"capitalised secret": {`[{"type": "sse", "url": "https://mcp.example.com/w", "Headers": [{"name": "X", "IsSecret": true, "default": "opaque"}]}]`, "is secret and carries a default"},
		"unknown transport":  {`[{"type": "websocket", "url": "https://mcp.example.com/w"}]`, `remotes[0].type "websocket"`},
	} {
		c, err := card.Decode([]byte(head+`, "remotes": `+tc.remotes+`}`), card.Strict)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		problems := CheckServerCard(c)
		switch {
		case tc.want == "" && len(problems) > 0:
			t.Errorf("%s: %v", name, problems)
		case tc.want != "" && !strings.Contains(strings.Join(problems, "\n"), tc.want):
			t.Errorf("%s: problems %v lack %q", name, problems, tc.want)
		}
	}
}
