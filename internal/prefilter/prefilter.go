// Package prefilter speeds up regular expressions that rarely match: it
// reads, from an expression's syntax, literal strings one of which every
// match must contain, and runs the expression only over text that holds
// one. An expression that is a choice of alternatives ("a|b|c") is split
// into them, each with its own literals, so that text holding only the
// literals of "b" runs only "b". Results are those of package regexp,
// exactly: the literals are a necessary condition, never a sufficient one.
//
// The literals of an expression that ignores letter case ((?i)) are
// compared without case, and only over ASCII text: text holding any other
// byte runs the expression as it is. Those of other expressions are
// compared byte for byte, over any text.
package prefilter

import (
	bits64 "math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"sync"

	"github.com/agentcards/agentcards/internal/ascii"
)

// Regexp is a compiled regular expression with the literals its matches
// contain. It is safe for concurrent use, as regexp.Regexp is.
type Regexp struct {
	re *regexp.Regexp
	// need holds strings one of which any match holds (folded when
	// caseless); nil when no such set is known (the expression always
	// runs).
	need []string
	// caseless is whether the expression ignores letter case anywhere.
	caseless bool
	// index finds the literals in text: those of need, as id 0, or,
	// when the expression is split, those of each alternative, as its
	// index in alts.
	index *table
	// alts are the expression's alternatives, in its order, when it is
	// split; always are those without literals, which always run.
	alts   []*alternative
	always []int
	// lits are the literals index holds, of every id.
	lits []string
}

// alternative is one alternative of a split expression, compiled the
// first time it runs: compiling one takes its source text, which
// regexp/syntax works out slowly, and most alternatives of a large choice
// never run in a process that reads little text.
type alternative struct {
	tree *syntax.Regexp
	once sync.Once
	re   *regexp.Regexp
}

// regexp is the alternative, compiled; nil in the unforeseen case that
// its source text does not compile, when the caller runs the whole
// expression instead.
func (a *alternative) regexp() *regexp.Regexp {
	a.once.Do(func() { a.re, _ = regexp.Compile(a.tree.String()) })
	return a.re
}

// MustCompile compiles expr as regexp.MustCompile does, and works out its
// literals; it panics when expr does not compile.
func MustCompile(expr string) *Regexp {
	re := regexp.MustCompile(expr)
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic("prefilter: " + err.Error())
	}
	caseless := ignoresCase(tree)
	p := &Regexp{re: re, need: needOf(tree.Simplify(), caseless), caseless: caseless}
	if p.need == nil {
		return p
	}
	p.index = newTable()
	if subs := alternatives(tree); subs != nil && p.split(subs) {
		return p
	}
	for _, lit := range p.need {
		p.add(lit, 0)
	}
	return p
}

// split makes p a choice of subs, each run only over text that holds its
// literals, unless all need the same (splitting would then only run the
// expression in pieces).
func (p *Regexp) split(subs []*syntax.Regexp) bool {
	needs := make([][]string, len(subs))
	same := true
	for i, sub := range subs {
		needs[i] = needOf(sub.Simplify(), p.caseless)
		same = same && slices.Equal(needs[i], p.need)
	}
	if same {
		return false
	}
	for i, sub := range subs {
		p.alts = append(p.alts, &alternative{tree: sub})
		if needs[i] == nil {
			p.always = append(p.always, i)
		}
		for _, lit := range needs[i] {
			p.add(lit, i)
		}
	}
	return true
}

// add indexes literal lit as id.
func (p *Regexp) add(lit string, id int) {
	if p.caseless && !ascii.Is(lit) {
		// A caseless literal outside ASCII is in no text that fold
		// reads.
		return
	}
	p.index.add(lit, id)
	if !slices.Contains(p.lits, lit) {
		p.lits = append(p.lits, lit)
	}
}

// Literals returns the strings MayMatch looks for: MayMatch(s) is false
// exactly when s holds none of them, byte for byte. ok is false when
// MayMatch looks for no such strings (it is always true for some text
// without them, or they are compared without case). The caller must not
// change lits.
func (p *Regexp) Literals() (lits []string, ok bool) {
	if p.index == nil || len(p.always) > 0 || p.caseless {
		return nil, false
	}
	return p.lits, true
}

// String is the source text of the expression.
func (p *Regexp) String() string { return p.re.String() }

// Regexp is the expression without its prefilter.
func (p *Regexp) Regexp() *regexp.Regexp { return p.re }

// maxSplitRuns is how many alternatives may run one by one over a text;
// when it may hold more, the whole expression runs once instead, so that
// text crafted to hold every alternative's literals costs no more than it
// would without the prefilter.
const maxSplitRuns = 4

// MatchString reports whether s holds a match, as regexp's does.
func (p *Regexp) MatchString(s string) bool {
	if p.alts == nil {
		return p.MayMatch(s) && p.re.MatchString(s)
	}
	may, all := p.possible(s)
	if all || may.count() > maxSplitRuns {
		return p.re.MatchString(s)
	}
	for i, a := range p.alts {
		if !may.has(i) {
			continue
		}
		re := a.regexp()
		if re == nil { // not compiled: the whole expression tells
			return p.re.MatchString(s)
		}
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// FindStringIndex returns the leftmost match's bounds, as regexp's does.
func (p *Regexp) FindStringIndex(s string) []int {
	if p.alts == nil {
		if !p.MayMatch(s) {
			return nil
		}
		return p.re.FindStringIndex(s)
	}
	// The leftmost match of a choice starts where the leftmost of its
	// alternatives' matches does; of those starting there, the first
	// alternative's is the one chosen (leftmost-first, as Perl).
	may, all := p.possible(s)
	if all || may.count() > maxSplitRuns {
		return p.re.FindStringIndex(s)
	}
	var best []int
	for i, a := range p.alts {
		if !may.has(i) {
			continue
		}
		re := a.regexp()
		if re == nil { // not compiled: the whole expression tells
			return p.re.FindStringIndex(s)
		}
		if loc := re.FindStringIndex(s); loc != nil && (best == nil || loc[0] < best[0]) {
			best = loc
		}
	}
	return best
}

// FindString returns the text of the leftmost match, as regexp's does.
func (p *Regexp) FindString(s string) string {
	if loc := p.FindStringIndex(s); loc != nil {
		return s[loc[0]:loc[1]]
	}
	return ""
}

// FindAllString returns successive matches, as regexp's does.
func (p *Regexp) FindAllString(s string, n int) []string {
	if !p.MayMatch(s) {
		return nil
	}
	return p.re.FindAllString(s, n)
}

// FindAllStringIndex returns successive matches' bounds, as regexp's does.
func (p *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if !p.MayMatch(s) {
		return nil
	}
	return p.re.FindAllStringIndex(s, n)
}

// ReplaceAllString replaces every match, as regexp's does.
func (p *Regexp) ReplaceAllString(src, repl string) string {
	if !p.MayMatch(src) {
		return src
	}
	return p.re.ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc replaces every match with repl's result, as
// regexp's does.
func (p *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if !p.MayMatch(src) {
		return src
	}
	return p.re.ReplaceAllStringFunc(src, repl)
}

// Split slices s around the matches, as regexp's does (without the
// prefilter).
func (p *Regexp) Split(s string, n int) []string { return p.re.Split(s, n) }

// MayMatch reports whether s may hold a match: false means it surely
// holds none (nor does any part of it), true that the expression must be
// run to tell.
func (p *Regexp) MayMatch(s string) bool {
	if p.index == nil || len(p.always) > 0 {
		return true
	}
	found := false
	read := p.scan(s, func(int) bool {
		found = true
		return true
	})
	return found || !read
}

// possible returns which alternatives s may hold a match of, or true
// when it may hold any.
func (p *Regexp) possible(s string) (may bits, all bool) {
	may = newBits(len(p.alts))
	for _, i := range p.always {
		may.set(i)
	}
	if !p.scan(s, func(id int) bool {
		may.set(id)
		return false
	}) {
		return may, true
	}
	return may, false
}

// scan calls found with the id of each literal s holds, as table's scan
// does, and reports whether it could read s (a caseless expression reads
// only ASCII text).
func (p *Regexp) scan(s string, found func(int) bool) bool {
	if !p.caseless {
		scan(p.index, s, found)
		return true
	}
	f, other := fold(s)
	if other {
		return false
	}
	defer f.free()
	scan(p.index, f.b, found)
	return true
}

// bits is a set of small numbers.
type bits []uint64

func newBits(n int) bits      { return make(bits, (n+63)/64) }
func (b bits) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bits) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

// count is how many numbers b holds.
func (b bits) count() int {
	n := 0
	for _, w := range b {
		n += bits64.OnesCount64(w)
	}
	return n
}

// folded is ASCII text with its letters in upper case.
type folded struct{ b []byte }

var foldedPool = sync.Pool{New: func() any { return &folded{} }}

// fold returns s with its letters in upper case, or true when s holds a
// byte outside ASCII.
func fold(s string) (*folded, bool) {
	if !ascii.Is(s) {
		return nil, true
	}
	f := foldedPool.Get().(*folded)
	f.b = f.b[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		f.b = append(f.b, c)
	}
	return f, false
}

func (f *folded) free() {
	if cap(f.b) <= 64<<10 {
		foldedPool.Put(f)
	}
}

// alternatives returns re as a choice of two or more expressions that
// match what it does, in its order of preference, or nil. A choice is one
// itself; so is a sequence with a choice in it whose pieces before the
// choice can match in one way only (literals, classes, anchors): " (?:a|
// b)\b" is " a\b| b\b", tried in the same order.
func alternatives(re *syntax.Regexp) []*syntax.Regexp {
	if re.Op == syntax.OpAlternate {
		return re.Sub
	}
	if re.Op != syntax.OpConcat {
		return nil
	}
	for k, sub := range re.Sub {
		switch sub.Op {
		case syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL,
			syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
			continue
		case syntax.OpAlternate:
			out := make([]*syntax.Regexp, len(sub.Sub))
			for i, alt := range sub.Sub {
				pieces := append(append(append([]*syntax.Regexp(nil), re.Sub[:k]...), alt), re.Sub[k+1:]...)
				out[i] = &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: pieces}
			}
			return out
		}
		return nil
	}
	return nil
}
