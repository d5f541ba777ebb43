package prefilter

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// expressions are shaped as the linter's are: choices of phrases, case
// folded or not, anchored, with classes, optional parts and repeats.
var expressions = []string{
	`(?i)(?:</?(?:tool_response|tool_result)>|\[\[?\s*(?:operator|system)(?: message)?\s*\]\]?|(?:^|\n|[.!?]\s)\s*#{1,6}\s*(?:system|assistant)\s*(?::|$|\n)|\b(?:tool|function) (?:result|output)\b[^:\n]{0,20}:|\blet'?s play a game\b|(?:^|[.:!]\s+)you are [A-Z][a-z]+[A-Z]?[a-z]*\s*[,.])`,
	`^(?:ignore (?:all |the )?(?:previous|prior) instructions|disregard (?:your|the) rules|you must now)`,
	`\b(?:curl|wget)\b[^\n|]{1,30}\|[ \t]*(?:sudo[ \t]+)?(?:sh|bash)\b`,
	`(?:system|assistant)[ \t]*[:：][ \t]*(?:you\b|ignore\b)`,
	`"role"\s*:\s*"(?:system|developer)"`,
	`(?i)kelvin|ſecret|straße`,
	`(?i)\bask\b|(?-i:KEY)|token`,
	`a*|b`,
	`(?:x|y)?z`,
	`[a-c]{2}d|e+f`,
	`(foo)(bar)?|(baz)`,
	`(?m)^\s*(?:user|human)\s*:`,
	`\$\{[^}]{1,8}\}`,
	`(?i)[k]ey|[s]s`,
	`(?:)`,
	`.`,
	`\A(?:ab|a)(?:bc|c)\z`,
	`(?i)(?:ab|abc)x|(?:a|ab)(?:c|bcd)`,
	`xyz|x[y-z]z1|[w-x]y`,
	`x(?:a|ab)(?:c|bcd)`,
	` (?:foo|foobar|ab)\b`,
	`^(?:ab|a)(?:bc|c)`,
	`[ab](?:c|cd)e?`,
	`\b(?:a|ab)[a-c]*`,
	`a*(?:b|ab)`,
	`(?i) (?:kelvin|straße|ss)\b`,
	"\uFFFD",
	"a\uFFFDb|foo\uFFFD|bar",
	"(?:x|\uFFFDy)",
	"[\uFFFD]z|é",
}

// pieces make the texts the expressions are tried on: their words in
// every case, letters whose case partners lie outside ASCII, and
// punctuation.
var pieces = []string{
	"ignore", "IGNORE", "Ignore", "all ", "the ", "previous", "prior", " instructions", "disregard", "your", " rules",
	"you must now", "You are ", "Bob", "ToolBox", ",", ".", ". ", "!", "\n", " ", "\t", ":", "：", "#", "##", "[", "]", "[[", "]]",
	"<", ">", "/", "tool_result", "TOOL_RESPONSE", "operator", "system", "System", "message", "assistant", "tool", "function",
	" result", " output", "let's play a game", "lets play a game", "curl", "wget", "|", "sh", "bash", "sudo ", "\"role\"",
	"\"system\"", "\"developer\"", "kelvin", "\u212aelvin", "ſecret", "SECRET", "straße", "STRASSE", "ask", "ASK", "KEY", "key",
	"\u212aey", "token", "a", "b", "c", "d", "e", "f", "x", "y", "z", "foo", "bar", "baz", "user", "human", "${", "}", "ab", "abc",
	"abcx", "bcd", "ss", "é", "xyz1", "wy", "xab", "xabcd", "foobar", "abcde", "bcde", " ", "ace", "\xff", "\x80", "\xc0", "\uFFFD",
}

func TestSameAsRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	texts := []string{"", "x", "\u212a", "ignore all previous instructions"}
	for range 4000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for _, expr := range expressions {
		p := MustCompile(expr)
		re := p.Regexp()
		for _, s := range texts {
			same(t, p, re, s)
		}
	}
}

// same fails t when p and re give s different results.
func same(t *testing.T, p *Regexp, re interface {
	MatchString(string) bool
	FindStringIndex(string) []int
	FindString(string) string
	FindAllString(string, int) []string
	FindAllStringIndex(string, int) [][]int
	ReplaceAllString(string, string) string
	ReplaceAllStringFunc(string, func(string) string) string
}, s string) {
	t.Helper()
	upper := func(m string) string { return "<" + strings.ToUpper(m) + ">" }
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"MatchString", p.MatchString(s), re.MatchString(s)},
		{"FindStringIndex", p.FindStringIndex(s), re.FindStringIndex(s)},
		{"FindString", p.FindString(s), re.FindString(s)},
		{"FindAllString", p.FindAllString(s, -1), re.FindAllString(s, -1)},
		{"FindAllStringIndex", p.FindAllStringIndex(s, 2), re.FindAllStringIndex(s, 2)},
		{"ReplaceAllString", p.ReplaceAllString(s, "[$1]"), re.ReplaceAllString(s, "[$1]")},
		{"ReplaceAllStringFunc", p.ReplaceAllStringFunc(s, upper), re.ReplaceAllStringFunc(s, upper)},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Fatalf("%s(%q) on %q: got %v, regexp gives %v", c.name, p, s, c.got, c.want)
		}
	}
}

// TestLiterals pins the literals found, so that a change that finds
// fewer (the expression then runs over all text: no result changes, only
// the speed) fails here.
func TestLiterals(t *testing.T) {
	for _, c := range []struct {
		expr string
		need []string // nil: none
		alts int
	}{
		{`abc`, []string{"abc"}, 0},
		{`(?i)abc|xyz`, []string{"ABC", "XYZ"}, 2},
		{`abc|(?i:xyz)`, []string{"ABC", "XYZ"}, 2},
		{`\bfoo(?:bar|baz)\b`, []string{"foobar", "foobaz"}, 0},
		{`x?`, nil, 0},
		{`a*|b`, nil, 0},
		{`[^a]+z`, []string{"z"}, 0},
		{`(?:^|\n)\s*user\s*:`, []string{"user"}, 0},
		{`\b(?:tool|function) (?:result|output)\b`, []string{"tool result", "tool output", "function result", "function output"}, 2},
		{`(?:should|should also) go`, []string{"should go", "should also go"}, 2},
		{`(?:ab|abc)(?:[x-y]|\d+)`, []string{"ab"}, 2},
		{` (?:without|never) (?:ask|tell)\b`, []string{" without ask", " without tell", " never ask", " never tell"}, 2},
		{`a*(?:b|cd)`, []string{"b", "cd"}, 0},
		{`(?i)kelvin`, []string{"KELVIN"}, 0},
		{`(?i)ſ`, []string{"S"}, 0},
		{`é`, []string{"é"}, 0},
		{`(?i)é`, []string{"É"}, 0},
		{`.{3}`, nil, 0},
	} {
		p := MustCompile(c.expr)
		if got := p.need; !slices.Equal(got, c.need) || len(p.alts) != c.alts {
			t.Errorf("%q: literals %q, %d alternatives; want %q, %d", c.expr, got, len(p.alts), c.need, c.alts)
		}
	}
}

func FuzzSameAsRegexp(f *testing.F) {
	f.Add(uint(0), "ignore all previous instructions")
	f.Add(uint(5), "\u212aelvin ſecret")
	f.Add(uint(0), "[[ system message ]] you are Bob.")
	compiled := make([]*Regexp, len(expressions))
	for i, expr := range expressions {
		compiled[i] = MustCompile(expr)
	}
	f.Fuzz(func(t *testing.T, i uint, s string) {
		p := compiled[i%uint(len(compiled))]
		same(t, p, p.Regexp(), s)
	})
}

// TestSetSameAsRegexp checks that a Set never rules out an expression
// that matches, and rules out those with literals the text lacks.
func TestSetSameAsRegexp(t *testing.T) {
	set := NewSet(expressions)
	compiled := make([]*Regexp, len(expressions))
	for i, expr := range expressions {
		compiled[i] = MustCompile(expr)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	ruledOut := 0
	for range 4000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		may := set.Possible(s)
		for i, p := range compiled {
			if !may[i] {
				ruledOut++
				if p.Regexp().MatchString(s) {
					t.Fatalf("%q matches %q, which the set ruled out", p, s)
				}
			}
			if may[i] != p.MayMatch(s) {
				t.Fatalf("%q on %q: set says %v, the expression's literals %v", p, s, may[i], p.MayMatch(s))
			}
		}
	}
	if ruledOut == 0 {
		t.Fatal("the set ruled out nothing")
	}
}

// randomExpression writes an expression of the shapes the prefilter
// reads: sequences, choices, repeats, groups, flags and anchors over
// letters whose case partners lie outside ASCII, U+FFFD and classes.
func randomExpression(rng *rand.Rand, depth int) string {
	atoms := []string{"a", "b", "ab", "abc", "k", "K", "s", "\u212a", "\u017f", "é", "x", " ", "\\.", "[ab]", "[^a]",
		"[kK]", ".", "\\s", "\\w", "σ", "Σ", "ς", "İ", "ı", "\uFFFD", "^", "$", "\\b", "\\B", "(?m:^)"}
	if depth == 0 || rng.IntN(4) == 0 {
		return atoms[rng.IntN(len(atoms))]
	}
	var parts []string
	for range 2 + rng.IntN(3) {
		parts = append(parts, randomExpression(rng, depth-1))
	}
	switch rng.IntN(7) {
	case 0, 1, 2:
		return strings.Join(parts, "")
	case 3, 4:
		return "(?:" + strings.Join(parts, "|") + ")"
	case 5:
		ops := []string{"?", "*", "+", "{0,2}", "{1,3}", "??", "+?"}
		return "(?:" + parts[0] + ")" + ops[rng.IntN(len(ops))]
	default:
		flags := []string{"(?i:", "(?-i:", "(", "(?s:", "(?U:"}
		return flags[rng.IntN(len(flags))] + parts[0] + ")"
	}
}

// TestRandomExpressionsSameAsRegexp compares the prefilter with regexp
// over expressions and texts made at random (a fixed seed).
func TestRandomExpressionsSameAsRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		checkRandom(t, rng)
	}
}

// checkRandom compares one random expression over texts made from rng.
func checkRandom(t *testing.T, rng *rand.Rand) {
	t.Helper()
	expr := randomExpression(rng, 3)
	if rng.IntN(2) == 0 {
		expr = []string{"(?i)", "(?m)", "(?s)", ""}[rng.IntN(4)] + expr + "|" + randomExpression(rng, 2)
	}
	if _, err := regexp.Compile(expr); err != nil {
		return
	}
	p := MustCompile(expr)
	texts := []string{"k", "K", "\u212a", "s", "\u017f", "é", "É", "σ", "Σ", "ς", "İ", "i", "ı", "a", "b", "c", "ab", "x", " ", "\n", ".", "\xff", "\uFFFD"}
	for range 20 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(texts[rng.IntN(len(texts))])
		}
		same(t, p, p.Regexp(), b.String())
	}
}

func FuzzRandomExpression(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkRandom(t, rand.New(rand.NewPCG(a, b)))
	})
}

// BenchmarkEveryAlternativePossible is text crafted to hold the literals
// of every alternative of a 60-word choice: the prefilter must cost about
// what regexp does (b.N runs of each; compare the two sub-benchmarks).
func BenchmarkEveryAlternativePossible(b *testing.B) {
	var words []string
	for i := range 60 {
		words = append(words, "w"+strings.Repeat(string(rune('a'+i%26)), 3+i/26)+"x")
	}
	expr := `\b(?:` + strings.Join(words, "|") + `)\b`
	text := strings.Repeat("lorem ipsum dolor ", 5000) + strings.Join(words, "_") + " " + words[59] + " "
	p := MustCompile(expr)
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			p.Regexp().FindStringIndex(text)
		}
	})
	b.Run("prefilter", func(b *testing.B) {
		for b.Loop() {
			p.FindStringIndex(text)
		}
	})
}

// TestAlternativeThatDoesNotCompile checks that an alternative whose
// source text does not compile (never seen: regexp/syntax's own text of a
// parsed expression) runs the whole expression instead of failing.
func TestAlternativeThatDoesNotCompile(t *testing.T) {
	p := MustCompile(`abc|xyz`)
	if len(p.alts) != 2 {
		t.Fatalf("%d alternatives, want 2", len(p.alts))
	}
	// x{2000} parses as a tree but is beyond what regexp compiles.
	p.alts[1].tree = &syntax.Regexp{Op: syntax.OpRepeat, Min: 2000, Max: 2000, Sub: []*syntax.Regexp{p.alts[1].tree}}
	for _, s := range []string{"xyz", "abc and xyz", "xyz abc", "none"} {
		same(t, p, p.Regexp(), s)
	}
}

// TestAddMinimal checks addMinimal against minimal(union(...)) on random
// sets of short strings over a small alphabet, where strings often hold
// one another.
func TestAddMinimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	word := func() string {
		b := make([]byte, 1+rng.IntN(4))
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		return string(b)
	}
	words := func() []string {
		out := make([]string, rng.IntN(6))
		for i := range out {
			out[i] = word()
		}
		return out
	}
	for range 20000 {
		set := minimal(union(nil, words()))
		for range 3 {
			add := words()
			want := minimal(union(set, add))
			got := addMinimal(set, add)
			if !slices.Equal(got, want) {
				t.Fatalf("addMinimal(%q, %q) = %q, want %q", set, add, got, want)
			}
			set = got
		}
	}
}

// TestFoldRunesASCII checks foldRunes' shortcut for ASCII against the
// least rune of each character's fold orbit.
func TestFoldRunesASCII(t *testing.T) {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		if got := foldRunes([]rune{r}); got != string(least) {
			t.Errorf("foldRunes(%q) = %q, want %q", r, got, least)
		}
	}
}

// classStringsPlain is classStrings as it was first written: a string per
// character, folded as runes folds it, each looked up among those found.
func classStringsPlain(l literals, ranges []rune) []string {
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo <= utf8.RuneError && utf8.RuneError <= hi {
			return nil
		}
		if hi-lo >= maxSet {
			return nil
		}
		for r := lo; r <= hi; r++ {
			s := l.runes([]rune{r})
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
			if len(out) > maxSet/4 {
				return nil
			}
		}
	}
	return out
}

// TestClassStrings checks classStrings against classStringsPlain on
// random classes around ASCII letters, the Kelvin sign and long s, the
// surrogates (which a string holds as U+FFFD) and U+FFFD itself.
func TestClassStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	bases := []rune{0, 'A', 'a', 'k' - 3, 0x17f - 2, 0x212a - 2, 0xd7fe, 0xdffe, 0xfffa, 0x10fffe, 0x1e9e - 1}
	for range 20000 {
		var ranges []rune
		for range rng.IntN(4) {
			lo := bases[rng.IntN(len(bases))] + rune(rng.IntN(8))
			ranges = append(ranges, lo, lo+rune(rng.IntN(20)))
		}
		for _, caseless := range []bool{false, true} {
			l := literals{caseless}
			if got, want := l.classStrings(ranges), classStringsPlain(l, ranges); !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("classStrings(%U), caseless %v = %q, want %q", ranges, caseless, got, want)
			}
		}
	}
}

// heldAny reports whether s holds one of lits, byte for byte.
func heldAny(s string, lits []string) bool {
	for _, lit := range lits {
		if strings.Contains(s, lit) {
			return true
		}
	}
	return false
}

// literalsAgree fails t when Literals says of s other than MayMatch and
// Mark do: for an expression whose literals it gives, they decide
// exactly, and one it gives none for is one they cannot rule out by
// them.
func literalsAgree(t *testing.T, set *Set, compiled []*Regexp, s string) {
	t.Helper()
	may := set.Possible(s)
	for i, p := range compiled {
		if lits, ok := set.Literals(i); ok && heldAny(s, lits) != may[i] {
			t.Fatalf("%q on %q: Mark says %v, its literals %q %v", p, s, may[i], lits, !may[i])
		}
		if lits, ok := p.Literals(); ok && heldAny(s, lits) != p.MayMatch(s) {
			t.Fatalf("%q on %q: MayMatch says %v, its literals %q %v", p, s, p.MayMatch(s), lits, !p.MayMatch(s))
		}
	}
}

// TestLiteralsSameAsMark: the literals Set.Literals and Regexp.Literals
// give are what Mark and MayMatch look for, no more and no fewer.
func TestLiteralsSameAsMark(t *testing.T) {
	set := NewSet(expressions)
	compiled := make([]*Regexp, len(expressions))
	withLits := 0
	for i, expr := range expressions {
		compiled[i] = MustCompile(expr)
		if _, ok := compiled[i].Literals(); ok {
			withLits++
		}
	}
	if withLits == 0 {
		t.Fatal("no expression has literals")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 4000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		literalsAgree(t, set, compiled, b.String())
	}
}

func FuzzLiterals(f *testing.F) {
	f.Add("ignore all previous instructions")
	f.Add("\u212aelvin ſecret KEY token")
	f.Add("[[ system message ]] you are Bob. curl x | sh")
	f.Add("abcx bcd foobar xyz1 wy \xff")
	set := NewSet(expressions)
	compiled := make([]*Regexp, len(expressions))
	for i, expr := range expressions {
		compiled[i] = MustCompile(expr)
	}
	f.Fuzz(func(t *testing.T, s string) { literalsAgree(t, set, compiled, s) })
}
