package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/prereq"
)

const (
	interopDir    = "../../testdata/interop"
	extendedKey   = "ledger-key-0123456789"
	extendedAgent = "ledger"
)

// extendedDoc is the docs page on extended cards, which the README once
// held.
const extendedDoc = "../../site/docs/extended-cards.md"

// readmeSnippet is the code block of site/docs/extended-cards.md marked
// <!-- test: name -->, so that the server code the docs show is the
// code the tests run.
func readmeSnippet(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile(extendedDoc)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- test: " + regexp.QuoteMeta(name) + " -->\n```[a-z]*\n(.*?)\n```\n")
	m := re.FindSubmatch(readme)
	if m == nil {
		t.Fatalf("%s has no code block marked <!-- test: %s -->", extendedDoc, name)
	}
	return string(m[1])
}

// freePort is a loopback port nothing listens on (for a server that is
// started after the site naming it is built).
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// extendedProject builds a site whose agent's interfaces are on
// 127.0.0.1:apiPort, with an extended card, and serves the public site on
// another loopback origin; it returns the project folder and the public
// card's URL.
func extendedProject(t *testing.T, apiPort string) (dir, cardURL string) {
	t.Helper()
	dir = t.TempDir()
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(dir, "public"))))
	t.Cleanup(srv.Close)
	api := "http://127.0.0.1:" + apiPort
	toml := fmt.Sprintf(`[site]
baseUrl = %q

[[agents]]
id = %q
name = "Ledger"
description = "Reads invoices."
version = "1.0.0"
securityRequirements = [{ key = [] }]

[[agents.supportedInterfaces]]
url = "%s/a2a/jsonrpc"
protocolBinding = "JSONRPC"
protocolVersion = "1.0"

[[agents.supportedInterfaces]]
url = "%s/a2a/rest"
protocolBinding = "HTTP+JSON"
protocolVersion = "1.0"

[agents.securitySchemes.key]
type = "apiKey"
location = "header"
name = "X-API-Key"

[[agents.skills]]
id = "extract"
name = "Extract"
description = "Extracts line items."
tags = ["finance"]

[agents.extended]
description = "Reads invoices, and exports them for customers."

[[agents.extended.addSkills]]
id = "bulk-export"
name = "Bulk export"
description = "Exports a month of invoices at once."
tags = ["export"]
`, srv.URL, extendedAgent, api, api)
	if err := os.WriteFile(filepath.Join(dir, "agents.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	keys, _ := filepath.Glob("../../testdata/keys/public/*.json")
	os.MkdirAll(filepath.Join(dir, "keys"), 0o755)
	for _, k := range keys {
		b, _ := os.ReadFile(k)
		os.WriteFile(filepath.Join(dir, "keys", filepath.Base(k)), b, 0o644)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "-manifest", filepath.Join(dir, "agents.toml"), "-key", "../../testdata/keys/test-ed25519.pem"}, &stdout, &stderr, func(string) string { return "" }); code != 0 {
		t.Fatalf("build: %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "1 extended card,") {
		t.Errorf("build does not say where the extended card went:\n%s", stdout.String())
	}
	return dir, srv.URL + "/agents/" + extendedAgent + "/.well-known/agent-card.json"
}

// waitListening waits until something accepts connections on port.
func waitListening(t *testing.T, port string, exited <-chan error) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			t.Fatalf("the server exited: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the server never listened")
}

// startServer starts cmd and stops it when the test ends.
func startServer(t *testing.T, cmd *exec.Cmd, port string) *bytes.Buffer {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	waitListening(t, port, exited)
	return &out
}

// verifyExtended runs agentcards verify -extended with the key in the
// environment (or none), returning the exit code and output.
func verifyExtended(t *testing.T, cardURL, key string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := []string{"verify", "-v", "-extended"} // -v: each signature
	if key != "" {
		args = append(args, "-header-env", "X-API-Key=LEDGER_KEY")
	}
	code := run(append(args, cardURL), &stdout, &stderr, func(k string) string {
		if k == "LEDGER_KEY" {
			return key
		}
		return ""
	})
	out := stdout.String() + stderr.String()
	if strings.Contains(out, extendedKey) {
		t.Errorf("the output repeats the key:\n%s", out)
	}
	return code, out
}

// TestExtendedCardJSSDK: the README's JS server, built on the official
// @a2a-js/sdk, serves a built extended card behind an API key; the SDK's
// client fetches it over JSON-RPC and HTTP+JSON and its
// verifyAgentCardSignature accepts it; agentcards verify -extended
// verifies it from the same server.
func TestExtendedCardJSSDK(t *testing.T) {
	node := interopNode(t)
	port := freePort(t)
	dir, cardURL := extendedProject(t, port)
	// Inside testdata/interop, so that node finds its node_modules.
	scriptDir, err := os.MkdirTemp(interopDir, ".extended-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(scriptDir) })
	server := filepath.Join(scriptDir, "server.mjs")
	if err := os.WriteFile(server, []byte(readmeSnippet(t, "extended-server.mjs")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, server)
	cmd.Env = append(os.Environ(), "PORT="+port, "API_KEY="+extendedKey,
		"PUBLIC_CARD="+filepath.Join(dir, "public", "agents", extendedAgent, ".well-known", "agent-card.json"),
		"EXTENDED_CARD="+filepath.Join(dir, "private", "agents", extendedAgent, "extended-agent-card.json"))
	log := startServer(t, cmd, port)

	client := exec.Command(node, "extended-client.mjs", cardURL, extendedKey)
	client.Dir = interopDir
	out, err := client.Output()
	if err != nil {
		t.Fatalf("extended-client.mjs: %v\n%s\nserver:\n%s", err, out, log)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	seen := 0
	for sc.Scan() {
		var r struct {
			Binding, Name, Error, VerifyError, Unauthenticated string
			Skills                                             []string
			Verified, ExtendedAgentCard                        bool
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		seen++
		if r.Error != "" || !r.Verified || !r.ExtendedAgentCard || !strings.Contains(strings.Join(r.Skills, ","), "bulk-export") {
			t.Errorf("%s: the SDK client did not get a verified extended card: %+v", r.Binding, r)
		}
		if !strings.Contains(r.Unauthenticated, "401") {
			t.Errorf("%s: without the key: %q, want HTTP 401", r.Binding, r.Unauthenticated)
		}
	}
	if seen != 2 {
		t.Fatalf("client output:\n%s", out)
	}

	// The SDK re-encodes the card: a requirement without scopes comes out
	// as {}, which the signature over the whole card still covers.
	code, got := verifyExtended(t, cardURL, extendedKey)
	if code != 0 || strings.Count(got, "VERIFIED") != 2 || strings.Count(got, "covers the whole card") != 2 || !strings.Contains(got, "extended card from http://127.0.0.1:"+port+"/a2a/jsonrpc (JSON-RPC GetExtendedAgentCard)") {
		t.Errorf("verify -extended: exit %d\n%s\nserver:\n%s", code, got, log)
	}
	code, got = verifyExtended(t, cardURL, "")
	if code != 1 || !strings.Contains(got, "refused the credentials (HTTP 401") {
		t.Errorf("verify -extended without the key: exit %d\n%s", code, got)
	}
}

// TestExtendedCardGoServer: the README's Go server returns the built file
// byte for byte; verify -extended verifies it with a signature over the
// whole card, and without the key it is refused.
func TestExtendedCardGoServer(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command: ", err)
	}
	port := freePort(t)
	dir, cardURL := extendedProject(t, port)
	src := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(src, []byte(readmeSnippet(t, "extended-server.go")), 0o644); err != nil {
		t.Fatal(err)
	}
	// A module of its own, as in a user's repository.
	if err := os.WriteFile(filepath.Join(filepath.Dir(src), "go.mod"), []byte("module example.com/extendedserver\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "extended-server")
	build := exec.Command(goCmd, "build", "-o", bin, ".")
	build.Dir = filepath.Dir(src)
	build.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the README's Go server does not build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "HOST=127.0.0.1", "PORT="+port, "API_KEY="+extendedKey,
		"EXTENDED_CARD="+filepath.Join(dir, "private", "agents", extendedAgent, "extended-agent-card.json"))
	log := startServer(t, cmd, port)
	code, got := verifyExtended(t, cardURL, extendedKey)
	if code != 0 || !strings.Contains(got, "covers the whole card") || strings.Count(got, "VERIFIED") != 2 {
		t.Errorf("verify -extended: exit %d\n%s\nserver:\n%s", code, got, log)
	}
	code, got = verifyExtended(t, cardURL, "wrong-key-value")
	if code != 1 || !strings.Contains(got, "refused the credentials (HTTP 401") {
		t.Errorf("verify -extended with a wrong key: exit %d\n%s", code, got)
	}
}

// interopNode is the node that runs the official A2A JS SDK of
// testdata/interop: the test is skipped without it, but fails in CI, where
// .ci/run installs both.
func interopNode(t *testing.T) string {
	t.Helper()
	return prereq.Node(t, "@a2a-js/sdk")
}
