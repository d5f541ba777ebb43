package site

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/sign"
)

// partnerCardV03 is partnerCard as an owner that speaks A2A v0.3 writes it.
const partnerCardV03 = `{"protocolVersion":"0.3.0","name":"Partner Travel","description":"Plans trips with the partner's inventory.","version":"2.1.0",` +
	`"provider":{"organization":"Partner Inc.","url":"https://partner.example.test"},` +
	`"url":"https://partner.example.test/a2a/jsonrpc","preferredTransport":"JSONRPC",` +
	`"additionalInterfaces":[{"url":"https://partner.example.test/a2a/jsonrpc","transport":"JSONRPC"},{"url":"https://partner.example.test/a2a/rest","transport":"HTTP+JSON"}],` +
	`"capabilities":{"streaming":true,"pushNotifications":false},` +
	`"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],` +
	`"securitySchemes":{"apiKey":{"type":"apiKey","in":"header","name":"X-Partner-Key"}},` +
	`"security":[{"apiKey":[]}],` +
	`"skills":[{"id":"plan","name":"Plan a trip","description":"Plans a trip with hotels and trains.","tags":["travel"],"examples":["Plan a weekend in Lisbon"]}]}`

// TestRemoteV03InteropJSSDK: the gateway's card of an owner's A2A v0.3
// card (its v1.0 form, routed) verifies in the official @a2a-js/sdk and a
// strict verifier with the site's JWKS, with the owner's interfaces and
// security requirement as v1.0 says them, and its legacy twin is valid
// v0.3.0.
func TestRemoteV03InteropJSSDK(t *testing.T) {
	node := requireNode(t)
	path, _ := writeRemoteProject(t, partnerCardV03, "https://partner.example.test/.well-known/agent.json")
	m := loadWithTestKeys(t, path)
	out := filepath.Join(t.TempDir(), "public")
	m, rep := buildWithTestKeys(t, m, out, "ed25519", "es256")
	ks, _ := sign.LoadKeySet(m.KeysDir())
	signers := testSigners(t, m, ks, "ed25519", "es256")
	res := runCheck(t, node, out, JWKSURL(m))
	name := "agents/partner/.well-known/agent-card.json"
	r, ok := res[name]
	if !ok {
		t.Fatalf("check.mjs did not check %s", name)
	}
	checkV1Result(t, name, r, out, signers, rep, JWKSURL(m))
	for _, want := range []string{
		`"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"0.3.0","url":"https://gateway.example.test/a2a/partner/a2a/jsonrpc"},{"protocolBinding":"HTTP+JSON","protocolVersion":"0.3.0","url":"https://gateway.example.test/a2a/partner/a2a/rest"}]`,
		`"securitySchemes":{"apiKey":{"apiKeySecurityScheme":{"location":"header","name":"X-Partner-Key"}}}`,
		`"upstreamVersion":"0.3.0"`,
	} {
		if !strings.Contains(r.StrictCanonical, want) {
			t.Errorf("the gateway's card lacks %s:\n%s", want, r.StrictCanonical)
		}
	}
	if !strings.Contains(r.StrictCanonical, `"securityRequirements":[{"schemes":{"apiKey":{"list":[]}}}]`) || len(rep.Projected["partner"]) == 0 {
		t.Errorf("the scope-less requirement is not kept, with SDK-projection signatures: %s", r.StrictCanonical)
	}
	legacy := res["agents/partner/.well-known/agent.json"]
	if legacy.SchemaValid == nil || !*legacy.SchemaValid || len(legacy.StrictVerifiedKids) != 2 {
		t.Errorf("agent.json: schema %v %v, strict kids %v", legacy.SchemaValid, legacy.SchemaErrors, legacy.StrictVerifiedKids)
	}
}
