package compose

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
)

const src = `
[site]
baseUrl = "https://agents.example.com"

[[agents]]
id = "a"
name = "A"
description = "D"
version = "1"
[[agents.supportedInterfaces]]
url = "https://a.example.com/v1"
protocolBinding = "GRPC"
protocolVersion = "1.0"
tenant = "acme"
[[agents.supportedInterfaces]]
url = "https://a.example.com/legacy"
protocolBinding = "JSONRPC"
protocolVersion = "0.3.0"
[agents.capabilities]
extendedAgentCard = true
[[agents.capabilities.extensions]]
uri = "urn:example:ext"
[agents.securitySchemes.m]
type = "mutualTLS"
[agents.securitySchemes.dev]
type = "oauth2"
[agents.securitySchemes.dev.flows.deviceCode]
deviceAuthorizationUrl = "https://auth.example.com/device"
tokenUrl = "https://auth.example.com/token"
scopes = { read = "Read" }
[agents.securitySchemes.ac]
type = "oauth2"
[agents.securitySchemes.ac.flows.authorizationCode]
authorizationUrl = "https://auth.example.com/authorize"
tokenUrl = "https://auth.example.com/token"
scopes = { read = "Read" }
pkceRequired = true
[[agents.securityRequirements]]
dev = ["read"]
[[agents.securityRequirements]]
ac = ["read"]
m = []
[[agents.skills]]
id = "s"
name = "S"
description = "D"
tags = ["t"]
`

func load(t *testing.T) (*manifest.Manifest, *manifest.Agent) {
	t.Helper()
	m, err := manifest.Parse("m.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m, &m.Agents[0]
}

func TestV1(t *testing.T) {
	m, a := load(t)
	b, err := card.Marshal(NewV1(m, a))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		`"tenant": "acme"`,
		`"streaming": false`, `"pushNotifications": false`, `"extendedAgentCard": true`,
		`"mtlsSecurityScheme": {
        "description": "` + card.MTLSDefaultDescription + `"`,
		`"pkceRequired": true`,
		`"defaultInputModes": [
    "text/plain"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("v1 card lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, `"required"`) {
		t.Error("required: false written (a proto3 default)")
	}
	// Only the scope-less requirement is erased by the SDKs.
	_, removed, err := card.SDKProjection(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []card.Omission{{Path: "securityRequirements[1].schemes.m", Empty: false}}) {
		t.Errorf("projection removes %v", removed)
	}
}

func TestV03(t *testing.T) {
	m, a := load(t)
	c, notes := NewV03(m, a)
	if c.URL != "https://a.example.com/legacy" || c.PreferredTransport != "JSONRPC" || c.AdditionalInterfaces != nil {
		t.Errorf("legacy card should point at the 0.3 interface only: %s %s %v", c.URL, c.PreferredTransport, c.AdditionalInterfaces)
	}
	if !c.SupportsAuthenticatedExtendedCard || c.ProtocolVersion != "0.3.0" {
		t.Errorf("got %+v", c)
	}
	if _, ok := c.SecuritySchemes["dev"]; ok || len(notes) != 1 || !strings.Contains(notes[0], "device code") {
		t.Errorf("device code scheme: kept=%v notes=%v", ok, notes)
	}
	if len(c.Security) != 1 || !slices.Equal(c.Security[0]["ac"], []string{"read"}) || c.Security[0]["m"] == nil {
		t.Errorf("security = %v", c.Security)
	}
	b, err := card.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	json.Unmarshal(b, &raw)
	schemes := raw["securitySchemes"].(map[string]any)
	if schemes["m"].(map[string]any)["type"] != "mutualTLS" || schemes["ac"].(map[string]any)["type"] != "oauth2" {
		t.Errorf("schemes: %v", schemes)
	}
	if strings.Contains(string(b), "pkceRequired") {
		t.Error("v0.3 card has pkceRequired")
	}
}

func TestLegacyUsesAllInterfacesWithoutOldOnes(t *testing.T) {
	m, err := manifest.Parse("m.toml", []byte(strings.Replace(src, `protocolVersion = "0.3.0"`, `protocolVersion = "1.0"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewV03(m, &m.Agents[0])
	if c.URL != "https://a.example.com/v1" || c.PreferredTransport != "GRPC" || len(c.AdditionalInterfaces) != 2 {
		t.Errorf("got url %s transport %s additional %v", c.URL, c.PreferredTransport, c.AdditionalInterfaces)
	}
}

func TestMarshalSignedEqualsMarshal(t *testing.T) {
	m, a := load(t)
	sigs := [][]card.Signature{
		nil,
		{{Protected: "eyJhbGciOiJFZERTQSJ9", Signature: "c2ln"}},
		{{Protected: "p1", Signature: "s1"}, {Protected: "p2", Signature: "s2", Header: map[string]any{"kid": "k<&>", "n": json.Number("1e3")}}},
	}
	for _, s := range sigs {
		v03, _ := NewV03(m, a)
		for name, c := range map[string]any{"v1": NewV1(m, a), "v0.3": v03} {
			unsigned, err := card.Compact(c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := card.MarshalSigned(unsigned, s)
			if err != nil {
				t.Fatal(err)
			}
			switch x := c.(type) {
			case *card.V1:
				x.Signatures = s
			case *card.V03:
				x.Signatures = s
			default:
				t.Fatalf("%T", c)
			}
			if want := indentedJSON(t, c); !bytes.Equal(got, want) {
				t.Errorf("%s with %d signatures:\ngot:\n%s\nwant:\n%s", name, len(s), got, want)
			}
			if plain, _ := card.Marshal(c); !bytes.Equal(plain, got) {
				t.Errorf("%s: card.Marshal differs from MarshalSigned", name)
			}
		}
	}
	if _, err := card.MarshalSigned([]byte(`[1]`), sigs[1]); err == nil {
		t.Error("card.MarshalSigned took an array")
	}
	if got, err := card.MarshalSigned([]byte(`{}`), sigs[1]); err != nil || !bytes.Equal(got, indentedJSON(t, map[string]any{"signatures": sigs[1]})) {
		t.Errorf("empty object: %s, %v", got, err)
	}
}

// indentedJSON is v as encoding/json writes it indented, with a final
// newline: what card.Marshal must write.
func indentedJSON(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
