package verify

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/prereq"
)

const interopDir = "../../testdata/interop"

// TestSDKSignedCardsVerify is the reverse interop direction: cards signed by
// the official @a2a-js/sdk generateAgentCardSignature (ES256, and Ed25519
// under both alg names) verify here. Cards in normal form verify strictly;
// cards the SDK canonicalizes differently verify over the SDK projection
// when all it leaves out is empty, with exactly those members listed; a card
// with a member outside the schema (which the SDK signs without) does not.
func TestSDKSignedCardsVerify(t *testing.T) {
	node := prereq.Node(t, "@a2a-js/sdk")
	out := t.TempDir()
	cmd := exec.Command(node, "sdk-sign.mjs", out)
	cmd.Dir = interopDir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sdk-sign.mjs: %v\n%s", err, b)
	}
	jwks := filepath.Join(out, "jwks.json")
	wantLoose := []string{"capabilities.extensions[0].required", "supportedInterfaces[0].tenant"}
	for name, want := range map[string]string{
		"es256-normal":    OutcomeVerified,
		"eddsa-normal":    OutcomeVerified,
		"ed25519-normal":  OutcomeVerified,
		"es256-loose":     OutcomeSDKProjection,
		"eddsa-loose":     OutcomeSDKProjection,
		"es256-vendor":    OutcomeNotVerified,
		"es256-scopeless": OutcomeNotVerified,
	} {
		t.Run(name, func(t *testing.T) {
			rep := &Report{}
			opts := Options{JWKS: jwks, Fetch: &fetch.Client{}}
			if err := Target(context.Background(), filepath.Join(out, name+".json"), opts, rep); err != nil {
				t.Fatal(err)
			}
			Finish(rep)
			c := rep.Cards[0]
			if rep.Verified != (want != OutcomeNotVerified) || c.Outcome != want {
				t.Fatalf("outcome %s (verified %v), want %s: %+v", c.Outcome, rep.Verified, want, c)
			}
			if wantGap := map[string]string{"es256-vendor": "not empty: x_vendor;", "es256-scopeless": "not empty: securityRequirements[1];"}[name]; !strings.Contains(c.Signatures[0].Reason, wantGap) {
				t.Errorf("reason %q does not name %q", c.Signatures[0].Reason, wantGap)
			}
			if want == OutcomeSDKProjection && !slices.Equal(c.Signatures[0].Uncovered, wantLoose) {
				t.Errorf("uncovered %v, want %v", c.Signatures[0].Uncovered, wantLoose)
			}
			// -strict refuses a card only the SDK projection covers.
			rep = &Report{}
			opts.Strict = true
			if err := Target(context.Background(), filepath.Join(out, name+".json"), opts, rep); err != nil {
				t.Fatal(err)
			}
			Finish(rep)
			if rep.Verified != (want == OutcomeVerified) {
				t.Errorf("-strict: verified = %v", rep.Verified)
			}
		})
	}
}
