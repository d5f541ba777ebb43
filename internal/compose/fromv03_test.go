package compose

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/remote"
)

// TestFromV03RoundTrip: a v0.3 card published as a remote agent (its v1.0
// form, card.FromV03, routed through a gateway on its own origin so that
// no URL changes) and written back as the legacy card (NewV03) gives the
// original members back.
func TestFromV03RoundTrip(t *testing.T) {
	m, _ := load(t)
	const head = `"protocolVersion":"0.3.0","name":"Old","description":"An old card.","version":"1","defaultInputModes":["text/plain"],"defaultOutputModes":["application/json"]`
	const caps = `"capabilities":{"streaming":true,"pushNotifications":false}`
	const skill = `{"id":"s","name":"S","description":"Does s.","tags":["t"],"examples":["Do s"]}`
	for name, in := range map[string]string{
		"one interface": `{` + head + `,` + caps + `,"url":"https://old.example.com/a2a","preferredTransport":"JSONRPC","skills":[` + skill + `]}`,
		"three interfaces, provider, extended card": `{` + head + `,"url":"https://old.example.com/grpc","preferredTransport":"GRPC",
			"additionalInterfaces":[{"url":"https://old.example.com/grpc","transport":"GRPC"},{"url":"https://old.example.com/rpc","transport":"JSONRPC"},{"url":"https://old.example.com/rest","transport":"HTTP+JSON"}],
			"provider":{"organization":"Old Inc.","url":"https://old.example.com"},"documentationUrl":"https://old.example.com/docs","iconUrl":"https://old.example.com/icon.png",
			"capabilities":{"streaming":false,"pushNotifications":true,"extensions":[{"uri":"urn:example:x","description":"X.","required":true,"params":{"a":"b"}}]},
			"supportsAuthenticatedExtendedCard":true,"skills":[` + skill + `]}`,
		"apiKey and bearer, skill security": `{` + head + `,` + caps + `,"url":"https://old.example.com/a2a","preferredTransport":"JSONRPC",
			"securitySchemes":{"key":{"type":"apiKey","description":"A key.","in":"header","name":"X-Key"},"bearer":{"type":"http","scheme":"Bearer","bearerFormat":"JWT"}},
			"security":[{"key":[]}],
			"skills":[{"id":"s","name":"S","description":"Does s.","tags":["t"],"inputModes":["text/plain"],"outputModes":["text/plain"],"security":[{"bearer":[]},{"key":[]}]}]}`,
		"oauth2, openIdConnect, mutualTLS": `{` + head + `,` + caps + `,"url":"https://old.example.com/a2a","preferredTransport":"JSONRPC",
			"securitySchemes":{
				"ac":{"type":"oauth2","description":"OAuth.","flows":{"authorizationCode":{"authorizationUrl":"https://auth.example.com/authorize","tokenUrl":"https://auth.example.com/token","refreshUrl":"https://auth.example.com/refresh","scopes":{"read":"Read","write":"Write"}}},"oauth2MetadataUrl":"https://auth.example.com/.well-known/oauth-authorization-server"},
				"cc":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://auth.example.com/token","scopes":{"read":"Read"}}}},
				"oidc":{"type":"openIdConnect","openIdConnectUrl":"https://auth.example.com/.well-known/openid-configuration"},
				"mtls":{"type":"mutualTLS","description":"Certificates."}},
			"security":[{"ac":["read","write"],"mtls":[]},{"cc":["read"]},{"oidc":[]}],"skills":[` + skill + `]}`,
	} {
		t.Run(name, func(t *testing.T) {
			snap, err := remote.New("https://old.example.com/.well-known/agent.json", time.Unix(0, 0), []byte(in), "", nil, remote.KeysNone)
			if err != nil {
				t.Fatal(err)
			}
			a, err := m.RemoteAgentOf(&manifest.RemoteAgent{ID: "old", Gateway: "https://old.example.com", Upstream: snap})
			if err != nil {
				t.Fatal(err)
			}
			back, notes := NewV03(m, &a)
			if notes != nil {
				t.Errorf("notes: %v", notes)
			}
			// The gateway extension is the one member the build adds.
			back.Capabilities.Extensions = slices.DeleteFunc(back.Capabilities.Extensions, func(e card.Extension) bool { return e.URI == manifest.GatewayExtension })
			b, err := card.Compact(back)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := sorted(t, string(b)), sorted(t, in); got != want {
				t.Errorf("v0.3 -> v1.0 -> v0.3:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// sorted is the JSON text s with its members sorted.
func sorted(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
