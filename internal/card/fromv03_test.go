package card

import (
	"encoding/json"
	"strings"
	"testing"
)

// v03Card is a v0.3.0 card with every member FromV03 converts.
const v03Card = `{"protocolVersion":"0.3.0","name":"Old","description":"An old card.","version":"1",
"url":"https://old.example.com/rpc","preferredTransport":"JSONRPC",
"additionalInterfaces":[{"url":"https://old.example.com/rpc","transport":"JSONRPC"},{"url":"https://old.example.com/grpc","transport":"GRPC"},{"url":"https://old.example.com/rest","transport":"HTTP+JSON"}],
"provider":{"organization":"Old Inc.","url":"https://old.example.com"},
"capabilities":{"streaming":true,"stateTransitionHistory":true,"extensions":[{"uri":"urn:x","params":{"a":1}}]},
"supportsAuthenticatedExtendedCard":true,
"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
"securitySchemes":{
 "key":{"type":"apiKey","description":"A key.","in":"header","name":"X-Key"},
 "bearer":{"type":"http","scheme":"Bearer","bearerFormat":"JWT"},
 "oauth":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://auth.example.com/token","scopes":{"read":"Read"}}},"oauth2MetadataUrl":"https://auth.example.com/.well-known/oauth-authorization-server"},
 "oidc":{"type":"openIdConnect","openIdConnectUrl":"https://auth.example.com/.well-known/openid-configuration"},
 "mtls":{"type":"mutualTLS","description":"Certificates."}},
"security":[{"key":[]},{"oauth":["read"],"mtls":[]}],
"skills":[{"id":"s","name":"S","description":"Does s.","tags":["t"],"security":[{"bearer":[]}]},{"id":"u","name":"U","description":"Does u.","tags":["t"]}],
"signatures":[{"protected":"e30","signature":"AA"}]}`

// v1Card is v03Card in the v1.0 shape.
const v1Card = `{"name":"Old","description":"An old card.","version":"1",
"supportedInterfaces":[{"url":"https://old.example.com/rpc","protocolBinding":"JSONRPC","protocolVersion":"0.3.0"},{"url":"https://old.example.com/grpc","protocolBinding":"GRPC","protocolVersion":"0.3.0"},{"url":"https://old.example.com/rest","protocolBinding":"HTTP+JSON","protocolVersion":"0.3.0"}],
"provider":{"organization":"Old Inc.","url":"https://old.example.com"},
"capabilities":{"streaming":true,"extendedAgentCard":true,"extensions":[{"uri":"urn:x","params":{"a":1}}]},
"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
"securitySchemes":{
 "key":{"apiKeySecurityScheme":{"description":"A key.","location":"header","name":"X-Key"}},
 "bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}},
 "oauth":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://auth.example.com/token","scopes":{"read":"Read"}}},"oauth2MetadataUrl":"https://auth.example.com/.well-known/oauth-authorization-server"}},
 "oidc":{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://auth.example.com/.well-known/openid-configuration"}},
 "mtls":{"mtlsSecurityScheme":{"description":"Certificates."}}},
"securityRequirements":[{"schemes":{"key":{"list":[]}}},{"schemes":{"oauth":{"list":["read"]},"mtls":{"list":[]}}}],
"skills":[{"id":"s","name":"S","description":"Does s.","tags":["t"],"securityRequirements":[{"schemes":{"bearer":{"list":[]}}}]},{"id":"u","name":"U","description":"Does u.","tags":["t"]}],
"signatures":[{"protected":"e30","signature":"AA"}]}`

func decodeTest(t *testing.T, s string) map[string]any {
	t.Helper()
	doc, err := Decode([]byte(s), Strict)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// canonical is doc's JSON with sorted members, for comparing.
func canonical(t *testing.T, doc any) string {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFromV03(t *testing.T) {
	in := decodeTest(t, v03Card)
	before := canonical(t, in)
	if !IsV03(in) {
		t.Fatal("IsV03 = false for a v0.3 card")
	}
	got, err := FromV03(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := canonical(t, decodeTest(t, v1Card)); canonical(t, got) != want {
		t.Errorf("FromV03:\n got %s\nwant %s", canonical(t, got), want)
	}
	if IsV03(got) {
		t.Error("IsV03 = true for the converted card")
	}
	if canonical(t, in) != before {
		t.Errorf("FromV03 changed its input: %s", canonical(t, in))
	}
	// The result reads as a v1.0 card, every scheme in its oneof member.
	var v V1
	if err := json.Unmarshal([]byte(canonical(t, got)), &v); err != nil {
		t.Fatal(err)
	}
	if s := v.SecuritySchemes["key"].APIKey; s == nil || s.Location != "header" || s.Name != "X-Key" {
		t.Errorf("apiKey scheme: %+v", s)
	}
	if !v.Capabilities.ExtendedAgentCard || len(v.Skills[0].SecurityRequirements) != 1 {
		t.Errorf("capabilities %+v, skill requirements %+v", v.Capabilities, v.Skills[0].SecurityRequirements)
	}
}

func TestFromV03Defaults(t *testing.T) {
	got, err := FromV03(decodeTest(t, `{"name":"N","url":"https://n.example.com/a2a","skills":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"N","skills":[],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"0.3.0","url":"https://n.example.com/a2a"}]}`
	if c := canonical(t, got); c != want {
		t.Errorf("got %s\nwant %s", c, want)
	}
	got, err = FromV03(decodeTest(t, `{"protocolVersion":"0.2.5","url":"https://n.example.com/a2a","preferredTransport":"GRPC","supportsAuthenticatedExtendedCard":false}`))
	if err != nil {
		t.Fatal(err)
	}
	want = `{"capabilities":{"extendedAgentCard":false},"supportedInterfaces":[{"protocolBinding":"GRPC","protocolVersion":"0.2.5","url":"https://n.example.com/a2a"}]}`
	if c := canonical(t, got); c != want {
		t.Errorf("got %s\nwant %s", c, want)
	}
}

func TestFromV03Refuses(t *testing.T) {
	const base = `"url":"https://n.example.com/a2a"`
	for name, tc := range map[string]struct{ in, want string }{
		"no url":             {`{"name":"N"}`, "url: not a URL string"},
		"version not string": {`{` + base + `,"protocolVersion":3}`, "protocolVersion: not a version string"},
		"transport empty":    {`{` + base + `,"preferredTransport":""}`, "preferredTransport: not a transport name"},
		"interface no url":   {`{` + base + `,"additionalInterfaces":[{"transport":"GRPC"}]}`, "additionalInterfaces[0]: needs a url and a transport"},
		"unknown scheme":     {`{` + base + `,"securitySchemes":{"x":{"type":"jwt"}}}`, `securitySchemes.x.type: "jwt" is not a v0.3 security scheme type`},
		"two flows":          {`{` + base + `,"securitySchemes":{"o":{"type":"oauth2","flows":{"clientCredentials":{},"authorizationCode":{}}}}}`, "securitySchemes.o.flows: 2 flows ([authorizationCode clientCredentials]): A2A v1.0 allows one flow per scheme"},
		"scopes not a list":  {`{` + base + `,"security":[{"k":"read"}]}`, "security[0].k: not a list of scopes"},
		"skill security":     {`{` + base + `,"skills":[{"id":"s","security":{}}]}`, "skills[0].security: not an array"},
		"capabilities":       {`{` + base + `,"capabilities":[]}`, "capabilities: not an object"},
		"extended card":      {`{` + base + `,"supportsAuthenticatedExtendedCard":"yes"}`, "supportsAuthenticatedExtendedCard: not a boolean"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := FromV03(decodeTest(t, tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
