package lint

import (
	"fmt"

	"github.com/agentcards/agentcards/internal/card"
)

// Unsigned lints a card as a build encodes it, before signing, and marks
// the findings of the rules silenced (rule id -> reason).
func Unsigned(unsigned []byte, silenced map[string]string) ([]Finding, error) {
	doc, err := card.Decode(unsigned, card.Strict)
	if err != nil {
		return nil, err
	}
	findings := Card(doc)
	Silence(findings, silenced)
	return findings, nil
}

// String is the finding on one line, "PATH: SEVERITY RULE: MESSAGE", with
// "(card)" for the whole card. Its text comes from the card: escape it for
// a terminal.
func (f Finding) String() string {
	path := f.Path
	if path == "" {
		path = "(card)"
	}
	return fmt.Sprintf("%s: %s %s: %s", path, f.Severity, f.Rule, f.Message)
}
