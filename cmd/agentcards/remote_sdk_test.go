package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/prereq"
)

// checkResult is what testdata/interop/check.mjs says of one card file.
type checkResult struct {
	File               string
	StrictVerifiedKids []string
	SDKVerified        *bool  `json:"sdkVerified"`
	SDKError           string `json:"sdkError"`
}

// runInteropCheck runs check.mjs (in the folder interop) on the site
// folder dir, whose cards' jku must be jku, and returns its results by
// file.
func runInteropCheck(t *testing.T, node, interop, dir, jku string) map[string]checkResult {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	schema := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "schema", "a2a-v0.3.0.schema.json")
	abs, _ := filepath.Abs(dir)
	cmd := exec.Command(node, "check.mjs", abs, jku, schema)
	cmd.Dir = interop
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check.mjs: %v", err)
	}
	var list []checkResult
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("check.mjs: %v\n%s", err, out)
	}
	res := map[string]checkResult{}
	for _, r := range list {
		res[filepath.ToSlash(r.File)] = r
	}
	return res
}

// TestRemoteAgentPublished: an agent the official JS SDK serves with a
// card signed by its own key is taken with remote fetch, published under a
// gateway by a build, and served: the gateway's card verifies with the
// site's JWKS in agentcards verify (over HTTP, the owner's signature too)
// and in @a2a-js/sdk; the owner's original beside it verifies with the
// owner's JWKS in both; every interface URL is the gateway's; the catalog
// lists it.
func TestRemoteAgentPublished(t *testing.T) {
	a := startRemoteAgent(t)
	node, interop := prereq.Node(t, "@a2a-js/sdk"), prereq.InteropDir(t)
	_, file, _, _ := runtime.Caller(0)
	keysDir := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "keys")
	t.Chdir(t.TempDir())
	if code, stdout, stderr := agentcards("remote", "fetch", a.URL); code != 0 {
		t.Fatalf("remote fetch: exit %d\n%s%s", code, stdout, stderr)
	}
	public, _ := filepath.Abs("public")
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	os.Mkdir("keys", 0o755)
	pub := readFile(t, filepath.Join(keysDir, "public", "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM.json"))
	os.WriteFile(filepath.Join("keys", "eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM.json"), pub, 0o644)
	gateway := "https://gateway.example.test/a2a/partner-travel"
	toml := "[site]\nbaseUrl = \"" + srv.URL + "\"\n\n[[remoteAgents]]\nid = \"partner-travel\"\nsnapshot = \"remote/partner-travel.json\"\ngateway = \"" + gateway + "\"\n"
	os.WriteFile("agents.toml", []byte(toml), 0o644)
	if code, stdout, stderr := agentcards("build", "-key", filepath.Join(keysDir, "test-ed25519.pem")); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}

	cardURL := srv.URL + "/agents/partner-travel/.well-known/agent-card.json"
	code, stdout, stderr := agentcards("verify", cardURL)
	for _, want := range []string{
		cardURL + `: VERIFIED (A2A 1.0 "Partner Travel")` + "\n",
		"  gateway card: routes the owner's card " + a.URL + "/.well-known/agent-card.json, taken ",
		"  owner's signature: verified (kid " + a.KID + "), with the keys the gateway publishes as the owner's, " + srv.URL + "/agents/partner-travel/.well-known/upstream-jwks.json\n",
		"  differs from the owner's card only in its interface URLs",
	} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("verify: exit %d, want %q in\n%s%s", code, want, stdout, stderr)
		}
	}

	var gw struct {
		SupportedInterfaces []struct{ URL string }
	}
	if err := json.Unmarshal(readFile(t, filepath.Join("public", "agents", "partner-travel", ".well-known", "agent-card.json")), &gw); err != nil || len(gw.SupportedInterfaces) == 0 {
		t.Fatalf("the gateway's card: %v", err)
	}
	for _, in := range gw.SupportedInterfaces {
		if !strings.HasPrefix(in.URL, gateway+"/") && in.URL != gateway {
			t.Errorf("interface %s is not the gateway's", in.URL)
		}
	}
	if cat := string(readFile(t, filepath.Join("public", ".well-known", "ai-catalog.json"))); !strings.Contains(cat, `"url": "`+cardURL+`"`) || !strings.Contains(cat, `"operatedBy": `) {
		t.Errorf("the catalog does not list the remote agent as operated elsewhere:\n%s", cat)
	}

	res := runInteropCheck(t, node, interop, "public", srv.URL+"/.well-known/jwks.json")
	if r := res["agents/partner-travel/.well-known/agent-card.json"]; r.SDKVerified == nil || !*r.SDKVerified || len(r.StrictVerifiedKids) != 1 {
		t.Errorf("the gateway's card in @a2a-js/sdk: %v %s, strict %v", r.SDKVerified, r.SDKError, r.StrictVerifiedKids)
	}
	// The owner's original, as a one-card site of the owner's JWKS.
	owner := filepath.Join("owner", ".well-known")
	os.MkdirAll(owner, 0o755)
	wk := filepath.Join("public", "agents", "partner-travel", ".well-known")
	os.WriteFile(filepath.Join(owner, "jwks.json"), readFile(t, filepath.Join(wk, "upstream-jwks.json")), 0o644)
	os.WriteFile(filepath.Join(owner, "agent-card.json"), readFile(t, filepath.Join(wk, "upstream-agent-card.json")), 0o644)
	res = runInteropCheck(t, node, interop, "owner", a.URL+"/.well-known/jwks.json")
	if r := res[".well-known/agent-card.json"]; r.SDKVerified == nil || !*r.SDKVerified {
		t.Errorf("the owner's original in @a2a-js/sdk with the owner's JWKS: %v %s", r.SDKVerified, r.SDKError)
	}
	if code, stdout, stderr := agentcards("verify", "-jwks", filepath.Join(wk, "upstream-jwks.json"), filepath.Join(wk, "upstream-agent-card.json")); code != 0 {
		t.Errorf("verify of the owner's original with the owner's JWKS: exit %d\n%s%s", code, stdout, stderr)
	}
}
