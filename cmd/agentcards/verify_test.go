package main

import (
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
	var b strings.Builder
	printReport(&b, rep)
	out := b.String()
	if strings.ContainsAny(out, "\x1b\r\u2028") {
		t.Errorf("escape characters reach the terminal: %q", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "verified: ") {
			t.Errorf("forged line %q", line)
		}
	}
}
