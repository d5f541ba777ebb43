package site

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/prereq"
	"github.com/agentcards/agentcards/internal/sign"
)

const interopDir = repoRoot + "/testdata/interop"

// nodeResult is what testdata/interop/check.mjs reports for one card file.
type nodeResult struct {
	File               string
	StrictVerifiedKids []string
	StrictCanonical    string
	SDKVerified        *bool  `json:"sdkVerified"`
	SDKError           string `json:"sdkError"`
	SDKCanonical       string `json:"sdkCanonical"`
	JKUs               []string
	SchemaValid        *bool `json:"schemaValid"`
	SchemaErrors       []any `json:"schemaErrors"`
}

// requireNode returns the node binary, skipping the test when node or the
// interop packages are missing, except under CI, where that is a failure.
func requireNode(t *testing.T) string {
	t.Helper()
	return prereq.Node(t, "@a2a-js/sdk")
}

func runCheck(t *testing.T, node, siteDir, jku string) map[string]nodeResult {
	t.Helper()
	schema, _ := filepath.Abs(v03SchemaRel)
	cmd := exec.Command(node, "check.mjs", siteDir, jku, schema)
	cmd.Dir = interopDir
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("check.mjs: %v\n%s", err, stderr)
	}
	var list []nodeResult
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("check.mjs output: %v\n%s", err, out)
	}
	res := map[string]nodeResult{}
	for _, r := range list {
		res[filepath.ToSlash(r.File)] = r
	}
	return res
}

// TestInteropJSSDK checks every card of the example build with the official
// @a2a-js/sdk (verifyAgentCardSignature, canonicalizeAgentCard), a strict
// RFC 8785 + JWS verifier (canonicalize + jose), and the v0.3.0 JSON Schema,
// for each signing algorithm, and that forged or broken cards fail there.
func TestInteropJSSDK(t *testing.T) {
	node := requireNode(t)
	for _, keySet := range [][]string{{"ed25519"}, {"es256"}, {"rs256"}, {"ps256"}, {"ed25519", "es256"}} {
		t.Run(strings.Join(keySet, "+"), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			m, rep := buildExample(t, out, keySet...)
			ks, _ := sign.LoadKeySet(m.KeysDir())
			signers := testSigners(t, m, ks, keySet...)

			// Probes that must fail, so the checker is known to be able to.
			cardBytes, _ := os.ReadFile(filepath.Join(out, layout.WellKnown, layout.CardFile))
			var c map[string]any
			json.Unmarshal(cardBytes, &c)
			c["description"] = "Tampered."
			writeJSON(t, filepath.Join(out, "probe-tampered", layout.CardFile), c)
			legacy, _ := os.ReadFile(filepath.Join(out, layout.WellKnown, layout.LegacyFile))
			var l map[string]any
			json.Unmarshal(legacy, &l)
			delete(l, "url")
			writeJSON(t, filepath.Join(out, "probe-invalid", layout.LegacyFile), l)

			res := runCheck(t, node, out, JWKSURL(m))
			if n := len(res); n != 2+2*len(m.Agents)+2 {
				t.Fatalf("checked %d files", n)
			}
			for name, r := range res {
				switch {
				case strings.HasPrefix(name, "probe-tampered"):
					if *r.SDKVerified || len(r.StrictVerifiedKids) > 0 {
						t.Errorf("%s: a tampered card verified (sdk %v, strict %v)", name, *r.SDKVerified, r.StrictVerifiedKids)
					}
				case strings.HasPrefix(name, "probe-invalid"):
					if *r.SchemaValid {
						t.Errorf("%s: a card without url passed the v0.3.0 schema", name)
					}
				case strings.HasSuffix(name, layout.CardFile):
					checkV1Result(t, name, r, out, signers, rep, JWKSURL(m))
				default:
					if r.SchemaValid == nil || !*r.SchemaValid {
						t.Errorf("%s: not valid against the v0.3.0 schema: %v", name, r.SchemaErrors)
					}
					for _, s := range signers {
						if !slices.Contains(r.StrictVerifiedKids, s.KID) {
							t.Errorf("%s: strict verifier did not verify %s (%s)", name, s.KID, s.Alg)
						}
					}
				}
			}
		})
	}
}

func checkV1Result(t *testing.T, name string, r nodeResult, out string, signers []*sign.Signer, rep *Report, jku string) {
	t.Helper()
	if r.SDKVerified == nil || !*r.SDKVerified {
		t.Errorf("%s: @a2a-js/sdk verifyAgentCardSignature failed: %s", name, r.SDKError)
	}
	for _, j := range r.JKUs {
		if j != jku {
			t.Errorf("%s: jku %q", name, j)
		}
	}
	for _, s := range signers {
		if !slices.Contains(r.StrictVerifiedKids, s.KID) {
			t.Errorf("%s: strict verifier did not verify %s (%s)", name, s.KID, s.Alg)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	unsigned, _ := card.Unsigned(b)
	strict, err := sign.Canonicalize(unsigned)
	if err != nil {
		t.Fatal(err)
	}
	if r.StrictCanonical != string(strict) {
		t.Errorf("%s: the canonicalize package and gowebpki/jcs disagree:\n js %s\n go %s", name, r.StrictCanonical, strict)
	}
	projected, omitted, _ := card.SDKProjection(unsigned)
	removed := card.Paths(omitted)
	id := strings.Split(name, "/")
	agent := ""
	if len(id) > 1 && id[0] == "agents" {
		agent = id[1]
	}
	if len(removed) == 0 {
		if r.SDKCanonical != string(strict) {
			t.Errorf("%s: canonicalizeAgentCard differs from strict JCS:\n sdk    %s\n strict %s", name, r.SDKCanonical, strict)
		}
		return
	}
	// A card with scope-less requirements: the SDK's form is our projection.
	if agent != "" && !slices.Equal(rep.Projected[agent], removed) {
		t.Errorf("%s: report lists %v, projection removes %v", name, rep.Projected[agent], removed)
	}
	pj, _ := sign.Canonicalize(projected)
	if r.SDKCanonical != string(pj) {
		t.Errorf("%s: canonicalizeAgentCard differs from our SDK projection:\n sdk  %s\n ours %s", name, r.SDKCanonical, pj)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
