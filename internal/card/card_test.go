package card

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

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
	b, err := Marshal(NewV1(m, a))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		`"tenant": "acme"`,
		`"streaming": false`, `"pushNotifications": false`, `"extendedAgentCard": true`,
		`"mtlsSecurityScheme": {
        "description": "` + MTLSDefaultDescription + `"`,
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
	_, removed, err := SDKProjection(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []Omission{{Path: "securityRequirements[1].schemes.m", Empty: false}}) {
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
	b, err := Marshal(c)
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

func TestSDKProjectionFixedPoint(t *testing.T) {
	doc := []byte(`{"a":"x","b":[1,{"c":false}],"d":{"e":0}}`)
	out, removed, err := SDKProjection(doc)
	if err != nil || removed != nil || string(out) != string(doc) {
		t.Errorf("got %s %v %v", out, removed, err)
	}
	out, removed, _ = SDKProjection([]byte(`{"a":"","b":[[],{}],"c":{"d":null},"e":1}`))
	if string(out) != `{"e":1}` || !slices.Equal(removed, []Omission{{"a", true}, {"b", true}, {"c", true}}) {
		t.Errorf("got %s %v", out, removed)
	}
}
