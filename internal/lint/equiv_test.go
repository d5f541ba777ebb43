package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/ascii"
)

// The fast forms of the linter's byte scans against plain ones, over
// random text built from pieces that make them decide.

// randomText joins up to n random pieces.
func randomText(rng *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range rng.IntN(n + 1) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

var scanPieces = []string{" ", "  ", "a", "b", "é", "\xc3", "\x80", "\xff", ".", "ab", "word", "0123456789abcdef", "DEADBEEF",
	"+/", "-_", "=", "\u200b", "日本", "x", "I", "g", "\n", ":", "QUJD", "ZGVm", "zz"}

// spacedLettersPlain is spacedLetters as first written.
func spacedLettersPlain(folded string) bool {
	run, n := 0, 0
	for i := 0; i <= len(folded); i++ {
		if i == len(folded) || folded[i] == ' ' {
			if n == 1 {
				run++
				if run >= 4 {
					return true
				}
			} else {
				run = 0
			}
			n = 0
			continue
		}
		if folded[i] == '.' {
			n = 2
		} else if folded[i] < utf8.RuneSelf || utf8.RuneStart(folded[i]) {
			n++
		}
	}
	return false
}

// runsPlain are the runs of min or more bytes in class, found byte by
// byte.
func runsPlain(s string, class uint8, min int) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && byteClass[s[i]]&class != 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= min {
			out = append(out, [2]int{start, i})
		}
		start = -1
	}
	return out
}

func isASCIIPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func hasLongLetterRunsPlain(s string) bool {
	n, run := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isLetterByte(s[i]) {
			run++
			continue
		}
		if run >= 3 {
			n++
		}
		run = 0
	}
	return n >= 3
}

// wordPieces make runs of one-letter words, and what breaks them.
var wordPieces = []string{"a ", "b ", ". ", "é ", "\x80", "\xc3 ", "ab ", " ", "  ", "   ", "x.", "日 ", "I"}

func TestScansSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		s := randomText(rng, wordPieces, 12)
		if got, want := spacedLetters(s), spacedLettersPlain(s); got != want {
			t.Fatalf("spacedLetters(%q) = %v, want %v", s, got, want)
		}
		if got, want := spacedLettersHalved(s), spacedLettersPlain(strings.ReplaceAll(s, "  ", " ")); got != want {
			t.Fatalf("spacedLettersHalved(%q) = %v, want %v", s, got, want)
		}
	}
	for range 50000 {
		s := randomText(rng, scanPieces, 30)
		if got, want := spacedLetters(s), spacedLettersPlain(s); got != want {
			t.Fatalf("spacedLetters(%q) = %v, want %v", s, got, want)
		}
		if got, want := ascii.Is(s), isASCIIPlain(s); got != want {
			t.Fatalf("ascii.Is(%q) = %v, want %v", s, got, want)
		}
		if got, want := hasLongLetterRuns(s), hasLongLetterRunsPlain(s); got != want {
			t.Fatalf("hasLongLetterRuns(%q) = %v, want %v", s, got, want)
		}
		for _, c := range []struct {
			class uint8
			min   int
		}{{hexByte, 16}, {base64Byte, 24}, {hexByte, 3}, {base64Byte, 1}} {
			var got [][2]int
			for a, b := range longRuns(s, c.class, c.min) {
				got = append(got, [2]int{a, b})
			}
			if want := runsPlain(s, c.class, c.min); !slices.Equal(got, want) {
				t.Fatalf("longRuns(%q, %d, %d) = %v, want %v", s, c.class, c.min, got, want)
			}
		}
	}
}

// wordsPlain is words as first written.
func wordsPlain(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.ContainsFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			n++
		}
	}
	return n
}

// textKeyPlain is textKey without its ASCII path.
func textKeyPlain(s string) string {
	return strings.Join(strings.FieldsFunc(foldCase(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	}), " ")
}

// foldASCIIPlain is foldASCII as first written.
func foldASCIIPlain(s string) string {
	b := make([]byte, 0, len(s)+8)
	gap, stop, digits := true, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '`':
			continue
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if gap && len(b) > 0 {
				if stop {
					b = append(b, " . "...)
				} else {
					b = append(b, ' ')
				}
			}
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			digits = digits || c <= '9'
			b = append(b, c)
			gap, stop = false, false
		default:
			gap = true
			stop = stop || endsSentence(c, s[i+1:])
		}
	}
	if digits {
		return leet(string(b))
	}
	return string(b)
}

// leetPlain is leet as first written.
func leetPlain(folded string) string {
	words := strings.Split(folded, " ")
	changed := false
	for i, w := range words {
		if strings.ContainsAny(w, "0134578") && strings.ContainsFunc(w, unicode.IsLetter) {
			words[i] = strings.NewReplacer("0", "o", "1", "i", "3", "e", "4", "a", "5", "s", "7", "t").Replace(w)
			changed = true
		}
	}
	if !changed {
		return folded
	}
	return strings.Join(words, " ")
}

var prosePieces = []string{" ", "  ", "\t", "\n", "\n\n", "\v", "\u00a0", "\u0085", "Word", "word", "x", "I", "3", "0", "ign0re",
	"'", "`", ".", ". ", ":", ": ", "8", "7a", "é5", "\u0661", "!", "?", ";", "<", ">", "(", ")", ",", "-", "_", "é", "\u0301", "\xff", "日本", "AB1"}

func TestProseScansSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 50000 {
		s := randomText(rng, prosePieces, 16)
		if got, want := words(s), wordsPlain(s); got != want {
			t.Fatalf("words(%q) = %d, want %d", s, got, want)
		}
		if got, want := textKey(s), textKeyPlain(s); got != want {
			t.Fatalf("textKey(%q) = %q, want %q", s, got, want)
		}
		if got, want := leet(s), leetPlain(s); got != want {
			t.Fatalf("leet(%q) = %q, want %q", s, got, want)
		}
		if got, want := foldASCII(s, false), foldASCIIPlain(s); got != want {
			t.Fatalf("foldASCII(%q) = %q, want %q", s, got, want)
		}
		if got, want := foldASCII(s, true), ". "+foldASCIIPlain(s)+" ."; got != want {
			t.Fatalf("foldASCII(%q, padded) = %q, want %q", s, got, want)
		}
	}
}

// TestTagKeySameAsPlain checks tagKey's ASCII loop against the fields
// of the folded tag, as first written.
func TestTagKeySameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pieces := []string{"a", "B", "Finance", "-", "_", " ", "\t", "\v", "\x1c", "--", "x-y", "ß", "\u00a0", "K", "\u212a", "Z_"}
	for range 50000 {
		s := randomText(rng, pieces, 8)
		want := strings.Join(strings.FieldsFunc(foldCase(s), func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '_' }), " ")
		if got := tagKey(s); got != want {
			t.Fatalf("tagKey(%q) = %q, want %q", s, got, want)
		}
	}
}

// shortSentencePlain is shortSentenceBetweenPatternWords as first
// written: every word visited.
func shortSentencePlain(folded string) bool {
	n, prev := 0, ""
	for rest := folded; rest != ""; {
		w, after, _ := strings.Cut(rest, " ")
		if w == "." {
			next, _, _ := strings.Cut(after, " ")
			if n > 0 && n <= 2 && patternWords()[prev] && patternWords()[next] {
				return true
			}
			n = 0
		} else {
			n++
		}
		prev, rest = w, after
	}
	return false
}

func TestShortSentenceSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pieces := []string{"ignore", "all", "previous", "x", ".", " ", " ", " ", "..", "a.", ".b", "instructions", "you"}
	found := 0
	for range 200000 {
		s := randomText(rng, pieces, 12)
		want := shortSentencePlain(s)
		if got := shortSentenceBetweenPatternWords(s); got != want {
			t.Fatalf("shortSentenceBetweenPatternWords(%q) = %v, want %v", s, got, want)
		}
		if want {
			found++
		}
	}
	// Folded text proper: words one space apart, now and then two.
	words := []string{"ignore", "all", "previous", "x", ".", ".", "instructions", "you", "a.", ""}
	for range 200000 {
		var b strings.Builder
		for i := range rng.IntN(9) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		s := b.String()
		want := shortSentencePlain(s)
		if got := shortSentenceBetweenPatternWords(s); got != want {
			t.Fatalf("shortSentenceBetweenPatternWords(%q) = %v, want %v", s, got, want)
		}
		if want {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no text had a short sentence between pattern words")
	}
}

// mayHoldMarkerPlain is mayHoldMarker as first written, finding out
// whether s is all ASCII on its way.
func mayHoldMarkerPlain(s string) bool {
	allASCII := true
	for i := 0; i < len(s); i++ {
		if markerBytes[s[i]] {
			return true
		}
		allASCII = allASCII && s[i] < utf8.RuneSelf
	}
	return !allASCII && strings.ContainsAny(s, "\uff1c\uff3b\uff1a")
}

// hiddenMarkupPlain is hiddenMarkup as first written, without its look
// for '<' and ']'.
func hiddenMarkupPlain(s string) string {
	if i := strings.Index(s, "<!--"); i >= 0 {
		c := s[i:]
		if j := strings.Index(c, "-->"); j >= 0 {
			c = c[:j+3]
		}
		return "holds an HTML comment (" + quote(c, 60) + "), which rendered Markdown and HTML hide from people but models read"
	}
	if strings.Contains(s, "]:") {
		if loc := markdownComment().FindStringIndex(s); loc != nil {
			return "holds a Markdown comment (" + quote(s[loc[0]:loc[1]], 60) + "), which rendered Markdown hides from people but models read"
		}
		if loc := markdownDefinition().FindStringIndex(s); loc != nil {
			return "holds a Markdown reference definition with a title (" + quote(s[loc[0]:loc[1]], 60) + "), which renders as nothing but models read"
		}
	}
	if strings.Contains(s, "](") {
		if loc := markdownTitle().FindStringIndex(s); loc != nil {
			return "holds a Markdown link title (" + quote(s[loc[0]:loc[1]], 60) + "), which people see only on hover but models read"
		}
	}
	if strings.Contains(s, "<") {
		if loc := hiddenHTML().FindStringIndex(strings.ToLower(s)); loc != nil {
			return "holds HTML that renders hidden (" + quote(s[loc[0]:loc[1]], 60) + "), which people do not see but models read"
		}
	}
	return ""
}

func TestMarkupGatesSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	pieces := append([]string{"<", "]", ":", "(", "<!--", "-->", "[//]: # (x)", "](u \"a title here\")", "\uff1c", "\uff1a", "é",
		"<span hidden>", "[a]: u \"t\"", "#", "\"", "|"}, scanPieces...)
	for range 100000 {
		s := randomText(rng, pieces, 10)
		if rng.IntN(2) == 0 {
			s = "[x]: y \"z\"\n" + s // a definition at a line's start
		}
		if got, want := mayHoldMarker(s, ascii.Is(s)), mayHoldMarkerPlain(s); got != want {
			t.Fatalf("mayHoldMarker(%q) = %v, want %v", s, got, want)
		}
		// (Cards' strings are valid UTF-8, as JSON decodes them.)
		if utf8.ValidString(s) {
			if got, want := hiddenMarkup(s), hiddenMarkupPlain(s); got != want {
				t.Fatalf("hiddenMarkup(%q) = %q, want %q", s, got, want)
			}
		}
		if w := s[:min(len(s), 6)]; lowerScheme(w) != map[bool]string{true: strings.ToLower(w)}[slices.Contains([]string{"bearer", "token", "basic"}, strings.ToLower(w))] {
			t.Fatalf("lowerScheme(%q) = %q", w, lowerScheme(w))
		}
	}
	for _, w := range []string{"Bearer", "TOKEN", "basic", "Basic1", "tokens", "beare"} {
		want := ""
		if l := strings.ToLower(w); l == "bearer" || l == "token" || l == "basic" {
			want = l
		}
		if got := lowerScheme(w); got != want {
			t.Fatalf("lowerScheme(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestLabelSuffixSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	pieces := []string{".", "a", "internal", "local", "nip.io", "io", "x", ".."}
	for range 50000 {
		h, s := randomText(rng, pieces, 4), randomText(rng, pieces, 2)
		if got, want := hasLabelSuffix(h, s), strings.HasSuffix(h, "."+s); got != want {
			t.Fatalf("hasLabelSuffix(%q, %q) = %v, want %v", h, s, got, want)
		}
	}
}

func TestLengthsSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	pieces := append([]string{"漢", "ひ", "한", "ق"}, scanPieces...)
	for range 50000 {
		s := randomText(rng, pieces, 12)
		n, weighted := lengths(s)
		if n != utf8.RuneCountInString(s) || weighted != weightedLength(s) {
			t.Fatalf("lengths(%q) = %d, %d; want %d, %d", s, n, weighted, utf8.RuneCountInString(s), weightedLength(s))
		}
	}
}

// matchPaddedPlain is matchPadded as first written: which patterns the
// text may hold worked out before its words are read.
func matchPaddedPlain(text string, example bool) string {
	possible := make([]bool, phraseSet().Len())
	phraseSet().Mark(text, possible)
	for lo := 0; lo < len(text); {
		end := strings.IndexByte(text[lo:], ' ')
		if end < 0 {
			end = len(text)
		} else {
			end += lo
		}
		if g, _ := gateIndex.get(text[lo:end]); g != nil {
			may := func(i int) bool { return possible[i] }
			atSentence := lo >= 2 && text[lo-2:lo] == ". " && g.mayMatch(may, true, example)
			atWord := g.mayMatch(may, false, example)
			if m := matchRef(g, text, lo, end, atSentence, atWord, example); m != "" {
				return m
			}
		}
		lo = end + 1
	}
	return ""
}

func TestMatchPaddedSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	words := []string{"ignore", "all", "previous", "instructions", "you", "are", "now", "a", ".", "tag", "json", "the", "user",
		"do", "not", "tell", "must", "call", "this", "agent", "first", "new", "task", "x"}
	matched := 0
	for range 20000 {
		var b strings.Builder
		b.WriteString(". ")
		for i := range rng.IntN(10) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString(" .")
		text, example := b.String(), rng.IntN(2) == 0
		want := matchPaddedPlain(text, example)
		if got := matchPadded(text, example); got != want {
			t.Fatalf("matchPadded(%q, %v) = %q, want %q", text, example, got, want)
		}
		if want != "" {
			matched++
		}
	}
	if matched == 0 {
		t.Fatal("no text matched a pattern")
	}
}

// TestFoldedWordsSameAsClassify: the classes matchPaddedWords reads with
// the gate words are, sentence by sentence, what classifyFolded makes of
// each sentence strings.Split(folded, " . ") has (and fw.split has those
// sentences), whether the words hold
// spaced letters is spacedLetters's answer, and it finds what matchPadded
// finds.
func TestFoldedWordsSameAsClassify(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	words := []string{"ignore", "all", "previous", "instructions", "you", "must", "call", "the", "assistant", "model", "agent",
		"reads", "please", "and", "then", "do", "not", "tell", "user", "this", "first", ".", "x", "data", "sales", "send",
		"i", "g", "n", "o", "r", "e", "é", "日"}
	pieces := append([]string{" ", ". ", "! ", "\n", ", ", "3", "'"}, words...)
	checked := 0
	for n := range 30000 {
		var folded string
		if n%2 == 0 {
			var b strings.Builder
			for i := range rng.IntN(12) {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[rng.IntN(len(words))])
			}
			folded = b.String()
			if strings.HasPrefix(folded, ". ") || strings.HasSuffix(folded, " .") || folded == "." || strings.Contains(folded, ". .") {
				continue // not what fold makes
			}
		} else {
			folded = fold(randomText(rng, pieces, 14))
		}
		padded, example := ". "+folded+" .", rng.IntN(2) == 0
		m, fw := matchPaddedWords(padded, example, foldedWords{on: true})
		if want := matchPadded(padded, example); m != want {
			t.Fatalf("matchPaddedWords(%q) = %q, want %q", padded, m, want)
		}
		if m != "" {
			continue
		}
		sentences := strings.Split(folded, " . ")
		if fw.spaced != spacedLetters(folded) {
			t.Fatalf("%q: spaced %v, want %v", folded, fw.spaced, !fw.spaced)
		}
		if !fw.done || fw.sentences() != len(sentences) {
			t.Fatalf("%q: %d sentences (done %v), want %d", folded, fw.sentences(), fw.done, len(sentences))
		}
		if split := fw.split(folded); !slices.Equal(split, sentences) {
			t.Fatalf("%q: split %q, want %q", folded, split, sentences)
		}
		for i, sen := range sentences {
			if got := fw.text(folded, i); got != sen {
				t.Fatalf("%q, sentence %d: %q, want %q", folded, i, got, sen)
			}
			cls, seen := fw.sentence(i)
			wantCls, wantSeen := classifyFolded(sen, nil)
			if !slices.Equal(cls, wantCls) || seen != wantSeen {
				t.Fatalf("%q, sentence %d %q: classes %v, %v; want %v, %v", folded, i, sen, cls, seen, wantCls, wantSeen)
			}
		}
		checked++
	}
	if checked < 10000 {
		t.Fatalf("only %d texts checked", checked)
	}
}

// TestCountWordsSameAsPlain: countWords, which stops at its limit, counts
// what words as first written does, up to the limit.
func TestCountWordsSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for range 50000 {
		s := randomText(rng, prosePieces, 16)
		for limit := 1; limit <= 8; limit++ {
			if got, want := countWords(s, limit), min(wordsPlain(s), limit); got != want {
				t.Fatalf("countWords(%q, %d) = %d, want %d", s, limit, got, want)
			}
		}
	}
}

// TestLengthsOfSameAsPlain: told nothing of a text (allASCII false),
// lengthsOf counts it the long way, ASCII or not, as lengths does.
func TestLengthsOfSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	pieces := append([]string{"漢", "ひ", "한", "ق"}, scanPieces...)
	for range 50000 {
		s := randomText(rng, pieces, 12)
		n, weighted := lengthsOf(s, false)
		if n != utf8.RuneCountInString(s) || weighted != weightedLength(s) {
			t.Fatalf("lengthsOf(%q, false) = %d, %d; want %d, %d", s, n, weighted, utf8.RuneCountInString(s), weightedLength(s))
		}
	}
}
