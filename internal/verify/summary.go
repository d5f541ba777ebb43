package verify

import (
	"bytes"
	"maps"
	"slices"
	"strings"
)

// Summary is a run in numbers: the cards verified and failed, and the
// keys whose signatures verified them.
type Summary struct {
	Verified int `json:"verified"`
	Failed   int `json:"failed"`
	// Keys are the kids of every signature that verified, sorted.
	Keys []string `json:"keys"`
	// DevelopmentKey counts the cards a development key signed.
	DevelopmentKey int `json:"developmentKey,omitempty"`
	// NotCards counts the targets that were no card at all: empty, not
	// JSON, an HTML page (a wrong path or URL, not a forgery).
	NotCards int `json:"notCards,omitempty"`
	// EntriesFailed counts the catalog entries that failed or were
	// skipped; Problems the site and catalog problems.
	EntriesFailed int `json:"entriesFailed,omitempty"`
	Problems      int `json:"problems,omitempty"`
}

// summarize counts rep's outcomes (Finish).
func summarize(rep *Report) *Summary {
	t := rep.emitted
	t.keys = maps.Clone(t.keys)
	for _, c := range rep.Cards {
		t.count(c)
	}
	s := &Summary{Keys: []string{}, Problems: len(rep.Problems), Verified: t.verified, Failed: t.failed, DevelopmentKey: t.developmentKey, NotCards: t.notCards}
	for k := range t.keys {
		s.Keys = append(s.Keys, k)
	}
	slices.Sort(s.Keys)
	for _, e := range rep.Entries {
		if e.Outcome == EntryFailed || e.Outcome == EntrySkipped {
			s.EntriesFailed++
		}
	}
	return s
}

// tally counts cards as summarize does, one at a time.
type tally struct {
	verified, failed, developmentKey, notCards int
	// keys are the kids of the signatures that verified.
	keys map[string]bool
	// sigFailed says a card with signatures did not verify.
	sigFailed bool
}

// count adds c to t.
func (t *tally) count(c Card) {
	if c.Verified {
		t.verified++
	} else {
		t.failed++
		t.sigFailed = t.sigFailed || len(c.Signatures) > 0
	}
	if c.DevelopmentKey {
		t.developmentKey++
	}
	if c.notCard {
		t.notCards++
	}
	for _, sig := range c.Signatures {
		if sig.Verified && sig.KID != "" {
			if t.keys == nil {
				t.keys = map[string]bool{}
			}
			t.keys[sig.KID] = true
		}
	}
}

// Add adds the outcome of a card to rep: to Cards, or, when set, to
// Emit.
func (rep *Report) Add(c Card) {
	if rep.Emit == nil {
		rep.Cards = append(rep.Cards, c)
		return
	}
	rep.emitted.count(c)
	rep.Emit(c)
}

// CardCount is the number of cards in the report: those in Cards and
// those given to Emit.
func (rep *Report) CardCount() int {
	return len(rep.Cards) + rep.emitted.verified + rep.emitted.failed
}

// SignatureFailed reports a card with signatures that did not verify
// (in Cards, or given to Emit).
func (rep *Report) SignatureFailed() bool {
	if rep.emitted.sigFailed {
		return true
	}
	for _, c := range rep.Cards {
		if !c.Verified && len(c.Signatures) > 0 {
			return true
		}
	}
	return false
}

// notACard says, in plain words, what body is when it is no card at all
// (empty, an HTML page, not JSON, cut short), given the error decoding it
// gave; "" when it is JSON that the card rules refuse. A file and a
// response (source a URL) are named as what they are.
func notACard(source string, body []byte, err error) string {
	what, hint := "file", "is the path right?"
	if strings.HasPrefix(source, "https://") || strings.HasPrefix(source, "http://") {
		what, hint = "response", "is the URL right?"
	}
	text := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	switch {
	case len(text) == 0:
		return "empty " + what + " (" + hint + ")"
	case text[0] == '<':
		return "an HTML page, not a card (" + hint + ")"
	case err.Error() == "unexpected end of JSON":
		return "not JSON: the " + what + " ends before the JSON does (truncated?)"
	case !bytes.ContainsAny(text[:1], `{["-0123456789tfn`):
		return "not JSON: " + strings.TrimPrefix(err.Error(), "not valid JSON: ") + " (" + hint + ")"
	}
	return ""
}
