package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
)

// ownerV03 is an owner's A2A v0.3 card, taken unsigned.
const ownerV03 = `{"protocolVersion":"0.3.0","name":"Old","description":"An old card.","version":"1",
"url":"https://old.example.com/rpc","preferredTransport":"JSONRPC",
"additionalInterfaces":[{"url":"https://old.example.com/rpc","transport":"JSONRPC"},{"url":"https://old.example.com/rest","transport":"HTTP+JSON"}],
"capabilities":{"streaming":true,"pushNotifications":false},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
"securitySchemes":{"key":{"type":"apiKey","in":"header","name":"X-Key"}},"security":[{"key":[]}],
"skills":[{"id":"s","name":"S","description":"Does s.","tags":["t"]}]}`

// gatewayOfV03 is the gateway's card of ownerV03: its v1.0 form, routed.
const gatewayOfV03 = `{"name":"Old","description":"An old card.","version":"1",
"supportedInterfaces":[{"url":"https://gw.example.com/old/rpc","protocolBinding":"JSONRPC","protocolVersion":"0.3.0"},{"url":"https://gw.example.com/old/rest","protocolBinding":"HTTP+JSON","protocolVersion":"0.3.0"}],
"capabilities":{"streaming":true,"pushNotifications":false,"extensions":[{"uri":"` + manifest.GatewayExtension + `","params":{"upstreamCard":"https://old.example.com/.well-known/agent.json","gateway":"https://gw.example.com/old","upstreamVersion":"0.3.0","fetchedAt":"2026-11-20T09:30:00Z"}}]},
"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
"securitySchemes":{"key":{"apiKeySecurityScheme":{"location":"header","name":"X-Key"}}},"securityRequirements":[{"schemes":{"key":{"list":[]}}}],
"skills":[{"id":"s","name":"S","description":"Does s.","tags":["t"]}]}`

// TestGatewayOfV03: a gateway's card of a v0.3 owner's card differs from
// its v1.0 form only in the routed URLs; any other change is named.
func TestGatewayOfV03(t *testing.T) {
	for name, tc := range map[string]struct {
		owner, gateway string
		differences    []string
		problem        string
	}{
		"as published": {ownerV03, gatewayOfV03, nil, ""},
		"owner's copy with a skill added": {strings.Replace(ownerV03, `"skills":[`, `"skills":[{"id":"x","name":"X","description":"Does x.","tags":["t"]},`, 1), gatewayOfV03,
			[]string{"skills"}, "differs from the owner's card beyond its interface URLs: skills"},
		"gateway without the requirement": {ownerV03, strings.Replace(gatewayOfV03, `"securityRequirements":[{"schemes":{"key":{"list":[]}}}],`, "", 1),
			[]string{"securityRequirements"}, "beyond its interface URLs: securityRequirements"},
		"gateway with another api key": {ownerV03, strings.Replace(gatewayOfV03, `"name":"X-Key"`, `"name":"X-Other"`, 1),
			[]string{"securitySchemes"}, "beyond its interface URLs: securitySchemes"},
		"gateway with another binding": {ownerV03, strings.Replace(gatewayOfV03, `"protocolBinding":"HTTP+JSON"`, `"protocolBinding":"GRPC"`, 1),
			[]string{"supportedInterfaces"}, "beyond its interface URLs: supportedInterfaces"},
		"extension with another upstreamVersion": {ownerV03, strings.Replace(gatewayOfV03, `"upstreamVersion":"0.3.0"`, `"upstreamVersion":"0.2.5"`, 1),
			nil, `upstreamVersion "0.2.5" is not the copy's: "0.3.0"`},
		"owner's copy with no v1.0 form": {strings.Replace(ownerV03, `"type":"apiKey"`, `"type":"jwt"`, 1), gatewayOfV03,
			nil, `has no v1.0 form: securitySchemes.key.type: "jwt" is not a v0.3 security scheme type`},
	} {
		t.Run(name, func(t *testing.T) {
			head, err := card.Decode([]byte(tc.gateway), card.Strict)
			if err != nil {
				t.Fatal(err)
			}
			c := &Card{Version: "1.0", Verified: true, gatewayHead: head}
			checkGateway(Options{}, c, func(file, _ string) ([]byte, string, error) {
				if file != layout.UpstreamCardFile {
					t.Fatalf("read %s", file)
				}
				return []byte(tc.owner), file, nil
			})
			g := c.Gateway
			if g == nil {
				t.Fatal("not read as a gateway card")
			}
			if g.UpstreamVersion != "0.3.0" || g.Outcome != "unsigned" {
				t.Errorf("upstreamVersion %q, outcome %q", g.UpstreamVersion, g.Outcome)
			}
			if !slices.Equal(g.Differences, tc.differences) {
				t.Errorf("differences %q, want %q", g.Differences, tc.differences)
			}
			if tc.problem == "" {
				want := []string{"https://old.example.com/rpc -> https://gw.example.com/old/rpc", "https://old.example.com/rest -> https://gw.example.com/old/rest"}
				if !c.Verified || len(c.Problems) > 0 || !slices.Equal(g.Routed, want) {
					t.Errorf("verified %v, problems %q, routed %q", c.Verified, c.Problems, g.Routed)
				}
				return
			}
			if c.Verified || len(c.Problems) == 0 || !strings.Contains(strings.Join(c.Problems, "\n"), tc.problem) {
				t.Errorf("verified %v, problems %q, want one with %q", c.Verified, c.Problems, tc.problem)
			}
		})
	}
}
