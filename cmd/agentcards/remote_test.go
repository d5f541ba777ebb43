package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentcards/agentcards/internal/prereq"
	"github.com/agentcards/agentcards/internal/remote"
)

// remoteAgent is testdata/interop/remote-agent.mjs running: someone
// else's agent, served by the official JS SDK on loopback.
type remoteAgent struct {
	URL, KID string
	cmd      *exec.Cmd
	exited   chan error
}

// startRemoteAgent starts remote-agent.mjs and waits for its origin.
func startRemoteAgent(t *testing.T) *remoteAgent {
	t.Helper()
	node := prereq.Node(t, "@a2a-js/sdk", "express", "jose")
	cmd := exec.Command(node, "remote-agent.mjs")
	cmd.Dir = prereq.InteropDir(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a := &remoteAgent{cmd: cmd, exited: make(chan error, 1)}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- line
		a.exited <- cmd.Wait()
	}()
	t.Cleanup(a.stop)
	select {
	case line := <-lines:
		if err := json.Unmarshal([]byte(line), a); err != nil || a.URL == "" {
			t.Fatalf("remote-agent.mjs printed %q: %v\n%s", line, err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("remote-agent.mjs did not start\n%s", stderr.String())
	}
	return a
}

// stop ends the agent (once).
func (a *remoteAgent) stop() {
	if a.cmd.ProcessState == nil && a.exited != nil {
		a.cmd.Process.Kill()
		<-a.exited
		a.exited = nil
	}
}

// change asks the agent for a change (remote-agent.mjs's /admin/...) and
// returns the kid that signs its card now.
func (a *remoteAgent) change(t *testing.T, what string) string {
	t.Helper()
	resp, err := http.Post(a.URL+"/admin/"+what, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var signer struct{ KID string }
	if err := json.NewDecoder(resp.Body).Decode(&signer); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/admin/%s: %s %v", what, resp.Status, err)
	}
	return signer.KID
}

// agentcards runs the command in-process: exit code, stdout, stderr.
func agentcards(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr, func(string) string { return "" })
	return code, stdout.String(), stderr.String()
}

// TestRemoteAgentSDK runs remote fetch and remote refresh against an agent
// the official JS SDK serves, with a card signed by the SDK with a key of
// its own: the snapshot reads back; a refresh that finds nothing new
// leaves it byte for byte; a new skill and a new key are said, exit 1 and
// rewrite it; a card whose signature fails, one too big and an agent gone
// are errors that leave it as it was.
func TestRemoteAgentSDK(t *testing.T) {
	a := startRemoteAgent(t)
	t.Chdir(t.TempDir())
	code, stdout, stderr := agentcards("remote", "fetch", a.URL)
	if code != 0 {
		t.Fatalf("remote fetch: exit %d\n%s%s", code, stdout, stderr)
	}
	path := filepath.Join("remote", "partner-travel.json")
	wantWrote := `wrote remote/partner-travel.json: "Partner Travel" 1.0.0 (A2A 1.0), 1 skill; verified with ` + a.URL + `/.well-known/jwks.json, key ` + a.KID + "\n"
	if !strings.HasPrefix(stdout, wantWrote) || !strings.Contains(stdout, "\n[[remoteAgents]]\nid = \"partner-travel\"\n") {
		t.Errorf("remote fetch printed\n%s\nwant first\n%s", stdout, wantWrote)
	}
	s, err := remote.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verification.Result != "verified" || s.Verification.KeySource != remote.KeysFromOrigin || len(s.Verification.KIDs) != 1 || s.Verification.KIDs[0] != a.KID {
		t.Errorf("verification %+v", s.Verification)
	}

	// Nothing new: the file stays as it was, fetchedAt included.
	s.FetchedAt = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := s.Write(path); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, path)
	refresh := func(wantCode int, wantStdout, wantStderr string) {
		t.Helper()
		code, stdout, stderr := agentcards("remote", "refresh", "-allow-private")
		if code != wantCode || stdout != wantStdout || stderr != wantStderr {
			t.Errorf("remote refresh: exit %d\n%s%s\nwant exit %d\n%s%s", code, stdout, stderr, wantCode, wantStdout, wantStderr)
		}
	}
	refresh(0, "partner-travel: unchanged\nrefreshed 1 snapshot from remote: 0 changed, 1 unchanged, 0 failed\n", "")
	if !bytes.Equal(readFile(t, path), before) {
		t.Error("a refresh that found nothing new rewrote the snapshot")
	}

	a.change(t, "add-skill")
	refresh(1, "partner-travel: changed, remote/partner-travel.json rewritten:\n"+
		"  + skill \"book\" (Book a trip)\n"+
		"refreshed 1 snapshot from remote: 1 changed, 0 unchanged, 0 failed\n", "")
	refresh(0, "partner-travel: unchanged\nrefreshed 1 snapshot from remote: 0 changed, 1 unchanged, 0 failed\n", "")

	old, kid := a.KID, a.change(t, "rotate-key")
	refresh(1, "partner-travel: changed, remote/partner-travel.json rewritten:\n"+
		"  ~ signed by: "+old+" -> "+kid+"\n"+
		"  ! JWKS: key \""+kid+"\" added\n"+
		"  ! JWKS: key \""+old+"\" removed\n"+
		"  WARNING: partner-travel changed the keys its card is verified with: confirm with its owner that they did before you publish this\n"+
		"refreshed 1 snapshot from remote: 1 changed, 0 unchanged, 0 failed\n", "")

	failed := "refreshed 1 snapshot from remote: 0 changed, 0 unchanged, 1 failed\n"
	last := "agentcards remote: 1 of 1 snapshot could not be refreshed (above)\n"
	cardURL := a.URL + "/.well-known/agent-card.json"
	before = readFile(t, path)
	a.change(t, "tamper")
	refresh(1, failed, "partner-travel: remote card refused: the card at "+cardURL+" does not verify with the JWKS at "+a.URL+
		"/.well-known/jwks.json: signature \""+kid+"\": signature does not verify; the snapshot was left as it was\n"+last)
	a.change(t, "big")
	code, _, stderr = agentcards("remote", "refresh", "-allow-private")
	if code != 1 || !strings.HasPrefix(stderr, "partner-travel: remote card refused: fetch "+cardURL+": body ") ||
		!strings.Contains(stderr, " is over the 1048576-byte limit; the snapshot was left as it was\n") {
		t.Errorf("a card too big: exit %d, %s", code, stderr)
	}
	a.stop()
	code, _, stderr = agentcards("remote", "refresh", "-allow-private")
	if code != 1 || !strings.Contains(stderr, "partner-travel: remote card refused: fetch "+cardURL+": dial tcp ") {
		t.Errorf("an agent gone: exit %d, %s", code, stderr)
	}
	if !bytes.Equal(readFile(t, path), before) {
		t.Error("a refresh that failed changed the snapshot")
	}
}

// TestRemoteSubcommandHelp: each subcommand's -h is help on standard
// output, with its own flags.
func TestRemoteSubcommandHelp(t *testing.T) {
	for args, flag := range map[string]string{"remote fetch -h": "-allow-unsigned", "remote refresh x -h": "-dir folder", "help remote": "remote refresh"} {
		code, stdout, stderr := agentcards(strings.Fields(args)...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "Usage:") || !strings.Contains(stdout, flag) {
			t.Errorf("agentcards %s: exit %d, stderr %q, stdout %.200q; want help naming %s", args, code, stderr, stdout, flag)
		}
	}
}

// remoteDoc is the docs page on remote agents, whose workflow
// TestRemoteRefreshWorkflow checks.
var remoteDoc = filepath.Join("..", "..", "site", "docs", "remote.md")

// TestRemoteRefreshWorkflow runs actionlint (with shellcheck) on the
// scheduled refresh workflow site/docs/remote.md gives, and checks what it
// promises: daily and on demand, no permission but the refresh job's to
// push a branch and open a pull request, no secret, the refresh before
// the pull request of the snapshots, and a failed refresh failing the run.
func TestRemoteRefreshWorkflow(t *testing.T) {
	data, err := os.ReadFile(remoteDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) != 1 {
		t.Fatalf("%s should hold one yaml block, the refresh workflow; found %d", remoteDoc, len(blocks))
	}
	content := blocks[0][1]
	for _, e := range lintWorkflow(t, "remote-refresh", content) {
		t.Errorf("actionlint: %s", e.Error())
	}
	var w workflow
	if err := yaml.Unmarshal([]byte(content), &w); err != nil {
		t.Fatal(err)
	}
	checkJobPermissions(t, &w, map[string]map[string]string{"refresh": {"contents": "write", "pull-requests": "write"}})
	if _, ok := w.On["workflow_dispatch"]; !ok || w.On["schedule"] == nil {
		t.Errorf("triggers %v, want schedule and workflow_dispatch", w.On)
	}
	if strings.Contains(content, "secrets.") {
		t.Error("the workflow uses a secret")
	}
	refresh := w.stepIndex("refresh", func(_, run string) bool { return strings.Contains(run, "agentcards remote refresh") })
	pr := w.stepIndex("refresh", func(uses, _ string) bool { return strings.HasPrefix(uses, "peter-evans/create-pull-request@") })
	fail := w.stepIndex("refresh", func(_, run string) bool { return strings.Contains(run, `-s "$RUNNER_TEMP/failed.txt"`) })
	if !(refresh >= 0 && refresh < pr && pr < fail) {
		t.Fatalf("order: refresh %d, pull request %d, fail on a failed refresh %d", refresh, pr, fail)
	}
	if with := w.Jobs["refresh"].Steps[pr].With; with["add-paths"] != "remote/*.json" || with["token"] != nil {
		t.Errorf("create-pull-request with %v: want the snapshots alone, and the job's own token", with)
	}
}
