package lint

import (
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/prefilter"
)

// injection reads a string for an order to a model: the chat markers and
// phrases of phrases.go, over the text and over its re-spellings
// (respell.go) and decodings (decode.go), unless only quoted (mention.go);
// then the structural rules of frame.go, directive.go and foreign.go.

// injection returns the phrase of s addressed to a model, or "".
func injection(s string, example bool) string { return injectionOf(s, ascii.Is(s), example) }

// injectionOf is injection; allASCII says whether s is all ASCII.
func injectionOf(s string, allASCII, example bool) string {
	// The pieces of ASCII text's folded words rule out, for most text,
	// what the gates below would each read the whole text for
	// (trigram.go); they are found, and the bytes markers need, as the
	// text is folded.
	var tgBuf trigrams
	var tg *trigrams
	var padded string
	var markers bool
	// present, for ASCII text, is the set of its bytes that fold reads
	// as gaps: the rules ask it whether s holds one before looking.
	var present *asciiSet
	// ones is how many one-byte words s has between spaces, counted for
	// ASCII text; for other text 4, so that despaced always runs.
	ones := 4
	if allASCII {
		var gaps asciiSet
		padded, gaps, ones = foldPaddedScan(s, &tgBuf)
		tg, markers, present = &tgBuf, gaps.meets(markerSet), &gaps
	} else {
		padded, markers = foldPaddedOf(s, false), mayHoldMarker(s, false)
	}
	folded := padded[2 : len(padded)-2]
	// Markers need their punctuation, or a phrase the folded text holds.
	if markers || tg == nil && strings.Contains(folded, "system prompt") || tg != nil && systemPrompt.holdsAny(tg, folded) {
		if m := marker(s, allASCII, example, tg); m != "" {
			return m
		}
	}
	// The classes of folded's words, for structuralInjection, are read
	// with the gate words (matchPaddedWords).
	var clsBuf [128]wordClass
	var startsBuf, marksBuf [16]int
	m, fw := matchPaddedWords(padded, example, foldedWords{cls: clsBuf[:0], starts: startsBuf[:0], marks: marksBuf[:0], on: true, tg: tg})
	if m != "" {
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
	if joined, ok := joinSpacedLetters(folded, fw.spaced); ok && makesPatternWord(folded, joined) {
		if m := matchFolded(joined, example); m != "" {
			return m
		}
	}
	for i := range 3 {
		var v string
		var ok bool
		switch i {
		case 0:
			// Four one-character words in a row (spacedLettersHalved)
			// are four words of one byte, in ASCII text.
			if ones >= 4 {
				v, ok = despaced(s)
			}
		case 1:
			if present.mayHold('-') {
				v, ok = unhyphenated(s, allASCII)
			}
		default:
			if present.mayHold('&') && present.mayHold(';') {
				v, ok = unescapedHTML(s)
			}
		}
		if ok {
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
	if !allASCII {
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
	return structuralInjection(s, folded, allASCII, example, &fw, present)
}

// systemPrompt is the phrase that lets marker run on text without a
// marker's punctuation, for a quick look first.
var systemPrompt = newProbes([]string{"system prompt"}, false)

// marker returns the chat-template or prompt marker of s, lower-cased,
// that a marker pattern finds, or "": each pattern runs over the text
// lower-cased when it holds one of its gate strings. allASCII says whether s
// is all ASCII; tg, when not nil, is the trigrams of s's padded folded
// text (ASCII s only).
func marker(s string, allASCII, example bool, tg *trigrams) string {
	var lower string
	var gates uint64
	if allASCII {
		if tg != nil && !markerGates().probes.mayHoldAny(tg, s) {
			return "" // no gate string: gates would be 0
		}
		gates = markerGates().in.inLower(s)
		if gates == 0 {
			return ""
		}
		lower = strings.ToLower(s)
	} else {
		lower = strings.ToLower(norm.NFKC.String(s))
		gates = markerGates().in.in(lower)
	}
	for i, p := range markerPatterns() {
		if gates&markerGates().of[i] == 0 {
			continue
		}
		if m := p.re.FindString(lower); m != "" && !citedMention(s, example) {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// markerGates are the gate strings of all marker patterns, and the set
// of each pattern's.
var markerGates = sync.OnceValue(func() (g struct {
	in *litSet
	of []uint64
	// probes are in's strings, which inLower matches against s.
	probes *probes
}) {
	var lits []string
	for _, p := range markerPatterns() {
		for _, gate := range p.gate {
			if !slices.Contains(lits, gate) {
				lits = append(lits, gate)
			}
		}
	}
	g.in = newLitSet(lits...)
	g.probes = newProbes(lits, true)
	for _, p := range markerPatterns() {
		var m uint64
		for _, gate := range p.gate {
			m |= g.in.bit(gate)
		}
		g.of = append(g.of, m)
	}
	return g
})

// structuralInjection applies the rules of frame.go, directive.go and
// foreign.go: links that run script or carry a template, text dressed as another role's message,
// sentences that give the reader orders, orders in other languages, and
// all of these once decoded. folded is fold(s), and allASCII says whether s
// is all ASCII; fw holds the classes of folded's words, when done, and,
// when its tg is not nil, the trigrams of ". " + folded + " ."; present,
// when not nil, is the set of the bytes of ASCII s that fold reads as
// gaps.
func structuralInjection(s, folded string, allASCII, example bool, fw *foldedWords, present *asciiSet) string {
	if m := linkOrderOf(s, present); m != "" {
		return m
	}
	if (fw.tg == nil || roleProbes.mayHoldAnyOf(fw.tg, s, present)) && roleGate.in(s) != 0 {
		if m := roleFrame().FindString(s); m != "" {
			return strings.TrimSpace(m)
		}
	}
	if m := structuralFoldedWords(s, folded, example, fw); m != "" && !describesAttacks(s) {
		return m
	}
	// mayBeForeign's hints are words between spaces, which fold keeps
	// as they are, as words: when the folded words held none, it is
	// false.
	if !allASCII || (fw.hint || !fw.done) && mayBeForeign(s) {
		if m := foreignOrder(s); m != "" {
			return m
		}
	}
	for _, d := range decodedVariantsOf(s, allASCII, fw.tg, present) {
		if m := matchFolded(fold(d), example); m != "" {
			return "decoded, " + m
		}
		if m := structural(d, example); m != "" {
			return "decoded, " + m
		}
	}
	return ""
}

// roleGate holds strings one of which text roleFrame runs over holds;
// roleProbes are the same, for a quick look first.
var (
	roleGate   = newLitSet(roleLits...)
	roleProbes = newProbes(roleLits, true)
	roleLits   = []string{"<", "[", "#", "role", "latform", "ou are", "game", "mode", "guidance", "here on", "ool ", "unction ", "perator"}
)

// compileAll compiles every expression compiled on first use (for tests:
// one that does not compile fails at once, not on the first card that
// needs it).
func compileAll() {
	for i := range injectionPatterns {
		anchoredPattern(i)
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
