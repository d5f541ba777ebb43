package main

import (
	"bufio"
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

// TestCardStreamWritesTheReport: the cards written as verify checks them
// (verify.Report.Emit), then the rest, are the bytes of the report
// written whole, in text and in JSON, with no card, one, or several.
func TestCardStreamWritesTheReport(t *testing.T) {
	cards := []verify.Card{
		{Source: "a/agent-card.json", JWKS: "j", Version: "1.0", Name: "A \u202e<b>", Verified: true, Outcome: verify.OutcomeVerified, Signatures: []verify.Signature{{KID: "k", Alg: "EdDSA", Verified: true, Covers: "strict"}}},
		{Source: "a/agent.json", JWKS: "j", Outcome: verify.OutcomeNotVerified, Signatures: []verify.Signature{}, Problems: []string{"empty file"}},
		{Source: "b/agent-card.json", JWKS: "j", Version: "0.3.0", Name: "B", Verified: true, Outcome: verify.OutcomeSDKProjection, Signatures: []verify.Signature{{KID: "k", Alg: "EdDSA", Verified: true, Covers: "sdk-projection", Uncovered: []string{"x"}}}},
	}
	for n := range len(cards) + 1 {
		for _, asJSON := range []bool{false, true} {
			for _, verbose := range []bool{false, true} {
				whole := &verify.Report{Cards: append([]verify.Card{}, cards[:n]...), Problems: []string{"p"}, Notes: []string{"n"}}
				verify.Finish(whole)
				var want bytes.Buffer
				if asJSON {
					if err := writeJSON(&want, whole); err != nil {
						t.Fatal(err)
					}
				} else {
					printReport(&want, whole, verbose)
				}
				var got bytes.Buffer
				w := bufio.NewWriter(&got)
				s := &cardStream{w: w, json: asJSON, verbose: verbose}
				streamed := &verify.Report{Cards: []verify.Card{}, Problems: []string{"p"}, Notes: []string{"n"}, Emit: s.write}
				for _, c := range cards[:n] {
					streamed.Add(c)
				}
				verify.Finish(streamed)
				if asJSON {
					if err := s.finishJSON(streamed); err != nil {
						t.Fatal(err)
					}
				} else {
					printReport(w, streamed, verbose)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("%d cards, json %v, -v %v: streamed\n%s\nwant\n%s", n, asJSON, verbose, got.String(), want.String())
				}
			}
		}
	}
}
