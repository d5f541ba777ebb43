package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/sign"
)

// TestReadmeJSClient runs the docs' js-client (site/docs/clients.md) (<!-- example: js-client
// -->) against the repository's example site, built with the development
// key and served on loopback: it prints the name of every card it gets
// through @a2a-js/sdk's resolver and verifier, and refuses a card changed by
// one character, signed by a key the origin's JWKS does not hold (even when
// a jku offers that key), or signed under another alg than its key's.
func TestReadmeJSClient(t *testing.T) {
	node := interopNode(t)
	modules, err := filepath.Abs(filepath.Join(interopDir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	scriptDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(scriptDir, "js-client.mjs"), []byte(readmeExample(t, "js-client")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(scriptDir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	runClient := func(url string) (code int, stdout, stderr string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, "js-client.mjs", url)
		cmd.Dir = scriptDir
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("js-client.mjs %s: %v", url, ctx.Err())
		}
		if err != nil && cmd.ProcessState == nil {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}

	public := buildExampleSite(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	t.Cleanup(srv.Close)

	// The root card (OAuth), an agent with an extended card and scope-less
	// requirements (so only its SDK projection signature verifies in the
	// SDK), and one with OpenID Connect.
	for _, path := range []string{
		".well-known/agent-card.json",
		"agents/invoice-reader/.well-known/agent-card.json",
		"agents/support-triage/.well-known/agent-card.json",
	} {
		var c struct{ Name string }
		if err := json.Unmarshal(readFile(t, filepath.Join(public, path)), &c); err != nil || c.Name == "" {
			t.Fatalf("%s: %v", path, err)
		}
		code, stdout, stderr := runClient(srv.URL + "/" + path)
		if code != 0 || stdout != c.Name+"\n" {
			t.Errorf("%s: exit %d, stdout %q, want exit 0 and %q\nstderr: %s", path, code, stdout, c.Name+"\n", stderr)
		}
	}

	// A tampered copy of the site.
	card := readFile(t, filepath.Join(public, "agents", "travel-planner", ".well-known", "agent-card.json"))
	var jwks struct{ Keys []json.RawMessage }
	if err := json.Unmarshal(readFile(t, filepath.Join(public, ".well-known", "jwks.json")), &jwks); err != nil || len(jwks.Keys) != 1 {
		t.Fatalf("jwks.json: %v, %d keys", err, len(jwks.Keys))
	}
	var devKey struct{ Kid string }
	json.Unmarshal(jwks.Keys[0], &devKey)

	_, foreign, _ := ed25519.GenerateKey(nil)
	foreignJWK := jose.JSONWebKey{Key: foreign.Public(), KeyID: devKey.Kid, Algorithm: "EdDSA", Use: "sig"}
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"keys": []any{foreignJWK, jose.JSONWebKey{Key: foreign.Public(), KeyID: "attacker", Algorithm: "EdDSA", Use: "sig"}}})
	}))
	t.Cleanup(attacker.Close)

	// An RSA key the origin publishes for RS256 only.
	rsaKeys, err := sign.ParsePrivatePEM(readFile(t, "../../testdata/keys/test-rs256.pem"))
	if err != nil || len(rsaKeys) != 1 {
		t.Fatalf("test-rs256.pem: %v", err)
	}
	rsaJWK, err := sign.PublicJWK(rsaKeys[0].Public(), "RS256")
	if err != nil {
		t.Fatal(err)
	}
	rsaJSON, _ := json.Marshal(rsaJWK)
	// The same key under another kid, with no alg to bind it to.
	noAlgJSON, _ := json.Marshal(jose.JSONWebKey{Key: rsaKeys[0].Public(), KeyID: "no-alg", Use: "sig"})
	servedJWKS, _ := json.Marshal(map[string]any{"keys": append(jwks.Keys, rsaJSON, noAlgJSON)})

	files := map[string][]byte{
		"/.well-known/jwks.json": servedJWKS,
		"/description.json":      editCard(t, card, func(c map[string]any) { c["description"] = oneCharOff(c["description"].(string)) }),
		"/foreign-key.json":      resignCard(t, card, foreign, "EdDSA", devKey.Kid, attacker.URL+"/jwks.json"),
		"/unknown-kid.json":      resignCard(t, card, foreign, "EdDSA", "attacker", attacker.URL+"/jwks.json"),
		"/escape-kid.json":       resignCard(t, card, foreign, "EdDSA", "\x1b]0;owned\a\x1b[2J", ""),
		"/rs256.json":            resignCard(t, card, rsaKeys[0], "RS256", rsaJWK.KeyID, ""),
		"/ps256.json":            resignCard(t, card, rsaKeys[0], "PS256", rsaJWK.KeyID, ""),
		"/no-alg.json":           resignCard(t, card, rsaKeys[0], "PS256", "no-alg", ""),
	}
	tampered := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, ok := files[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(tampered.Close)

	// The control: a card that the RS256 key signed verifies.
	if code, stdout, stderr := runClient(tampered.URL + "/rs256.json"); code != 0 || stdout != "Voyager Travel Planner\n" {
		t.Errorf("rs256.json: exit %d, stdout %q\nstderr: %s", code, stdout, stderr)
	}
	for _, tc := range []struct{ path, why string }{
		{"/description.json", "No valid signatures found"},
		{"/foreign-key.json", "No valid signatures found"},
		{"/unknown-kid.json", `has no key "attacker"`},
		{"/escape-kid.json", `has no key "\u001b]0;owned\u0007\u001b[2J`},
		{"/ps256.json", "No valid signatures found"},
		{"/no-alg.json", `has no key "no-alg" with an alg`},
		{"/missing.json", "404"},
	} {
		code, stdout, stderr := runClient(tampered.URL + tc.path)
		if code == 0 || stdout != "" || !strings.Contains(stderr, tc.why) || strings.ContainsAny(stderr, "\x1b\a") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want a non-zero exit and %q on stderr", tc.path, code, stdout, stderr, tc.why)
		}
	}
}

// buildExampleSite builds the repository's agents.toml and site/ in a
// temporary folder with the development key and returns the site folder.
func buildExampleSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agents.toml"), readFile(t, "../../agents.toml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"site", "keys"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join("../..", sub))); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "-manifest", filepath.Join(dir, "agents.toml")}, &stdout, &stderr, func(string) string { return "" }); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "DEVELOPMENT key") {
		t.Fatalf("the build did not sign with the development key:\n%s", stderr.String())
	}
	return filepath.Join(dir, "public")
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editCard decodes a card, lets edit change it and encodes it again.
func editCard(t *testing.T, cardJSON []byte, edit func(map[string]any)) []byte {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(cardJSON))
	d.UseNumber()
	var c map[string]any
	if err := d.Decode(&c); err != nil {
		t.Fatal(err)
	}
	edit(c)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// oneCharOff is s with its last character replaced by another.
func oneCharOff(s string) string {
	r := []rune(s)
	if r[len(r)-1] == '!' {
		r[len(r)-1] = '?'
	} else {
		r[len(r)-1] = '!'
	}
	return string(r)
}

// resignCard replaces a card's signatures with one by key under alg, with
// kid and (when not empty) jku in the protected header, over the RFC 8785
// form of the card, which for a card in normal form is also the SDK's.
func resignCard(t *testing.T, cardJSON []byte, key crypto.Signer, alg, kid, jku string) []byte {
	t.Helper()
	return editCard(t, cardJSON, func(c map[string]any) {
		delete(c, "signatures")
		doc, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		payload, err := sign.Canonicalize(doc)
		if err != nil {
			t.Fatal(err)
		}
		opts := (&jose.SignerOptions{}).WithType("JOSE")
		if jku != "" {
			opts = opts.WithHeader("jku", jku)
		}
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: jose.JSONWebKey{Key: key, KeyID: kid}}, opts)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := signer.Sign(payload)
		if err != nil {
			t.Fatal(err)
		}
		compact, err := obj.DetachedCompactSerialize()
		if err != nil {
			t.Fatal(err)
		}
		protected, signature, _ := strings.Cut(compact, "..")
		c["signatures"] = []any{map[string]any{"protected": protected, "signature": signature}}
	})
}
