package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/verify"
)

// TestReportIsTerminalSafe: kid, alg and other card-controlled text cannot
// forge report lines or send terminal escapes.
func TestReportIsTerminalSafe(t *testing.T) {
	rep := &verify.Report{Cards: []verify.Card{{
		Source: "card.json", Version: "1.0\x1b[8m", Name: "n", Outcome: verify.OutcomeNotVerified,
		Signatures: []verify.Signature{{KID: "k\nverified: 1 card(s)\x1b[8m", Alg: "EdDSA\r", Reason: "bad\u2028line"}},
	}}}
	verify.Finish(rep)
	var b strings.Builder
	printReport(&b, rep, true)
	out := b.String()
	if strings.ContainsAny(out, "\x1b\r\u2028") {
		t.Errorf("escape characters reach the terminal: %q", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "verified") {
			t.Errorf("forged line %q", line)
		}
	}
}

// TestHeaderValuesWithLineBreaksRefused: a header value (from -H or the
// environment) with a line break could add headers of its own; it is a
// usage error (exit 2), and the value is not repeated.
func TestHeaderValuesWithLineBreaksRefused(t *testing.T) {
	env := func(k string) string {
		if k == "EVIL" {
			return "secret-part\r\nX-Evil: 1"
		}
		return ""
	}
	for _, args := range [][]string{
		{"verify", "-extended", "-header-env", "X-API-Key=EVIL", "https://agents.example.test"},
		{"verify", "-extended", "-H", "X-API-Key: secret-part\nX-Evil: 1", "https://agents.example.test"},
		{"mcp", "fetch", "-H", "Authorization: secret-part\x00", "https://mcp.example.test/mcp"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr, env); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "control character (not repeated here)") || strings.Contains(stderr.String(), "secret-part") || strings.Contains(stderr.String(), "X-Evil") {
			t.Errorf("%q: %s", args, stderr.String())
		}
	}
}
