package lint

import (
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"

	"github.com/agentcards/agentcards/internal/prefilter"
)

// injection reads a string for an order to a model: the chat markers and
// phrases of phrases.go, over the text and over its re-spellings
// (respell.go) and decodings (decode.go), unless only quoted (mention.go);
// then the structural rules of frame.go, directive.go and foreign.go.

// injection returns the phrase of s addressed to a model, or "".
func injection(s string, example bool) string {
	// Markers need their punctuation, or a phrase the folded text holds.
	folded := fold(s)
	if mayHoldMarker(s) || strings.Contains(folded, "system prompt") {
		lower := s
		if !isASCII(s) {
			lower = norm.NFKC.String(s)
		}
		lower = strings.ToLower(lower)
		for _, p := range markerPatterns() {
			for _, g := range p.gate {
				if strings.Contains(lower, g) {
					if m := p.re.FindString(lower); m != "" && !citedMention(s, example) {
						return strings.TrimSpace(m)
					}
					break
				}
			}
		}
	}
	if m := matchFolded(folded, example); m != "" {
		if quotedMention(s, example) || citedMention(s, example) {
			return ""
		}
		// A security product's card describes the orders it catches
		// ("text telling the model to ignore its guidelines"); one that
		// starts a sentence is given, not described.
		if describesAttacks(s) && !strings.Contains(". "+folded, ". "+m) {
			return ""
		}
		return m
	}
	// Words taken apart: "i g n o r e previous", "I g n o r e   a l l",
	// "Ign-ore", "IGNORE. ALL. PREVIOUS.". A variant is read only when
	// putting the pieces together makes a word some pattern uses.
	if joined, ok := joinSpacedLetters(folded); ok && makesPatternWord(folded, joined) {
		if m := matchFolded(joined, example); m != "" {
			return m
		}
	}
	for _, v := range []func(string) (string, bool){despaced, unhyphenated, unescapedHTML} {
		if v, ok := v(s); ok {
			if m := matchFolded(fold(v), example); m != "" {
				return m
			}
		}
	}
	if joined, ok := joinShortSentences(folded); ok {
		if m := matchFolded(joined, example); m != "" {
			return m
		}
	}
	if !isASCII(s) {
		if m := foreignInjection(s); m != "" {
			return m
		}
	}
	// Orders in base64, which models read as readily as text.
	for _, d := range base64Texts(s) {
		if m := injection(d, example); m != "" {
			return "base64 for " + m
		}
	}
	return structuralInjection(s, folded, example)
}

// structuralInjection applies the rules of frame.go, directive.go and
// foreign.go: links that run script or carry a template, text dressed as another role's message,
// sentences that give the reader orders, orders in other languages, and
// all of these once decoded. folded is fold(s).
func structuralInjection(s, folded string, example bool) string {
	if m := linkOrder(s); m != "" {
		return m
	}
	if strings.ContainsAny(s, "<[#") || strings.Contains(s, "role") || strings.Contains(s, "latform") || strings.Contains(s, "ou are") || strings.Contains(s, "game") || strings.Contains(s, "mode") ||
		strings.Contains(s, "guidance") || strings.Contains(s, "here on") || strings.Contains(s, "ool ") || strings.Contains(s, "unction ") ||
		strings.Contains(s, "perator") {
		if m := roleFrame().FindString(s); m != "" {
			return strings.TrimSpace(m)
		}
	}
	if m := structuralFolded(s, folded, example); m != "" && !describesAttacks(s) {
		return m
	}
	if !isASCII(s) || mayBeForeign(s) {
		if m := foreignOrder(s); m != "" {
			return m
		}
	}
	for _, d := range decodedVariants(s) {
		if m := matchFolded(fold(d), example); m != "" {
			return "decoded, " + m
		}
		if m := structural(d, example); m != "" {
			return "decoded, " + m
		}
	}
	return ""
}

// compileAll compiles every expression compiled on first use (for tests:
// one that does not compile fails at once, not on the first card that
// needs it).
func compileAll() {
	for _, g := range byGate {
		g.once.Do(g.compile)
	}
	markerPatterns()
	foreignPatterns()
	patternWords()
	for _, re := range []func() *prefilter.Regexp{benign, quoted, detectionWords, attackWords, markdownComment, markdownDefinition, markdownTitle, hiddenHTML} {
		re()
	}
}

// lazyRegexp compiles expr on first use: the linter's expressions cost
// nothing to a command that never lints. Each runs only over text that
// holds the literals its matches need (package prefilter): most text
// holds no order to a model, and is passed over at the speed of a
// substring search.
func lazyRegexp(expr string) func() *prefilter.Regexp {
	return sync.OnceValue(func() *prefilter.Regexp { return prefilter.MustCompile(expr) })
}
