package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/remote"
	"github.com/agentcards/agentcards/internal/sign"
)

// partnerCard is a remote agent's card, before its owner signs it: two
// interfaces and a scope-less requirement (so that the gateway's card
// needs the SDK-projection signatures too).
const partnerCard = `{"name":"Partner Travel","description":"Plans trips with the partner's inventory.","version":"2.1.0",` +
	`"provider":{"organization":"Partner Inc.","url":"https://partner.example.test"},` +
	`"supportedInterfaces":[{"url":"https://partner.example.test/a2a/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"},` +
	`{"url":"https://partner.example.test/a2a/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}],` +
	`"capabilities":{"streaming":true,"pushNotifications":false,"extendedAgentCard":false},` +
	`"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],` +
	`"securitySchemes":{"apiKey":{"apiKeySecurityScheme":{"location":"header","name":"X-Partner-Key"}}},` +
	`"securityRequirements":[{"schemes":{"apiKey":{"list":[]}}}],` +
	`"skills":[{"id":"plan","name":"Plan a trip","description":"Plans a trip with hotels and trains.","tags":["travel"],"examples":["Plan a weekend in Lisbon"]}]}`

const partnerJWKSURL = "https://partner.example.test/.well-known/jwks.json"

// writePartnerProject writes a project with one remote agent whose
// snapshot is partnerCard signed by the test ES256 key, and returns the
// manifest's path and the signed card.
func writePartnerProject(t *testing.T) (path string, signed []byte) {
	t.Helper()
	return writeRemoteProject(t, partnerCard, "https://partner.example.test/.well-known/agent-card.json")
}

// writeRemoteProject writes a project with one remote agent, "partner",
// whose snapshot is the card text unsigned, fetched from url, signed by the
// test ES256 key; it returns the manifest's path and the signed card.
func writeRemoteProject(t *testing.T, unsigned, url string) (path string, signed []byte) {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(testKeysDir, "test-es256.pem"))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := sign.ParsePrivatePEM(data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sign.NewSigner(keys[0], sign.ES256, partnerJWKSURL)
	if err != nil {
		t.Fatal(err)
	}
	// The owner signs as agentcards does: the whole card, and the SDKs'
	// projection of it.
	sig, err := s.Sign([]byte(unsigned))
	if err != nil {
		t.Fatal(err)
	}
	projected, _, _ := card.SDKProjection([]byte(unsigned))
	psig, err := s.SignProjection(projected)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	json.Unmarshal([]byte(unsigned), &doc)
	doc["signatures"] = []any{sig, psig}
	signed, _ = json.Marshal(doc)
	jwk, _ := sign.PublicJWK(keys[0].Public(), sign.ES256)
	set := &sign.KeySet{}
	set.Add(jwk)
	jwks, _ := set.JSON()
	snap, err := remote.New(url, time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC), signed, partnerJWKSURL, jwks, remote.KeysFromOrigin)
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "remote"), 0o755)
	if err := snap.Write(filepath.Join(dir, "remote", "partner.json")); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(dir, "agents.toml")
	toml := "[site]\nbaseUrl = \"https://agents.example.test\"\n\n[[remoteAgents]]\nid = \"partner\"\nsnapshot = \"remote/partner.json\"\ngateway = \"https://gateway.example.test/a2a/partner\"\n"
	if err := os.WriteFile(path, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, signed
}

// TestRemoteInteropJSSDK: the gateway's card of a remote agent verifies
// in the official @a2a-js/sdk and a strict verifier with the site's JWKS,
// its legacy twin is valid v0.3.0, and the owner's original beside it
// verifies there with the owner's JWKS.
func TestRemoteInteropJSSDK(t *testing.T) {
	node := requireNode(t)
	path, signed := writePartnerProject(t)
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
	if len(rep.Projected["partner"]) == 0 {
		t.Error("the gateway's card has no SDK-projection signatures for its scope-less requirement")
	}
	if !strings.Contains(r.SDKCanonical, "https://gateway.example.test/a2a/partner/a2a/jsonrpc") || strings.Contains(r.SDKCanonical, "partner.example.test/a2a") {
		t.Errorf("the SDK does not see the routed interfaces: %s", r.SDKCanonical)
	}
	legacy := res["agents/partner/.well-known/agent.json"]
	if legacy.SchemaValid == nil || !*legacy.SchemaValid || len(legacy.StrictVerifiedKids) != 2 {
		t.Errorf("agent.json: schema %v %v, strict kids %v", legacy.SchemaValid, legacy.SchemaErrors, legacy.StrictVerifiedKids)
	}

	// The owner's original, as a one-card site of the owner's JWKS.
	wk := filepath.Join(out, "agents", "partner", layout.WellKnown)
	copied, err := os.ReadFile(filepath.Join(wk, layout.UpstreamCardFile))
	if err != nil || string(copied) != string(signed) {
		t.Fatalf("the upstream copy is not the owner's card byte for byte (%v)", err)
	}
	owner := t.TempDir()
	os.Mkdir(filepath.Join(owner, layout.WellKnown), 0o755)
	jwks, _ := os.ReadFile(filepath.Join(wk, layout.UpstreamJWKSFile))
	os.WriteFile(filepath.Join(owner, layout.WellKnown, layout.JWKSFile), jwks, 0o644)
	os.WriteFile(filepath.Join(owner, layout.WellKnown, layout.CardFile), copied, 0o644)
	up := runCheck(t, node, owner, partnerJWKSURL)[layout.WellKnown+"/"+layout.CardFile]
	if up.SDKVerified == nil || !*up.SDKVerified || len(up.StrictVerifiedKids) != 1 {
		t.Errorf("the owner's original does not verify with the owner's JWKS: sdk %v %s, strict %v", up.SDKVerified, up.SDKError, up.StrictVerifiedKids)
	}
}
