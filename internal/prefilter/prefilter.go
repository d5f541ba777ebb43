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
	"regexp"
	"regexp/syntax"
	"sync"
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
	// index finds the strings of need in text.
	index *table
	// alts are the expression's alternatives, in its order, when it is a
	// choice of two or more and at least one has a need of its own.
	alts []*Regexp
}

// MustCompile compiles expr as regexp.MustCompile does, and works out its
// literals; it panics when expr does not compile.
func MustCompile(expr string) *Regexp {
	re := regexp.MustCompile(expr)
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic("prefilter: " + err.Error())
	}
	p := newRegexp(re, tree)
	if tree.Op != syntax.OpAlternate || p.need == nil {
		return p
	}
	// Every alternative has literals of its own (else the whole would
	// have none): each runs only over text that holds them.
	for _, sub := range tree.Sub {
		p.alts = append(p.alts, newRegexp(regexp.MustCompile(sub.String()), sub))
	}
	return p
}

// newRegexp is re, whose syntax is tree, with its literals.
func newRegexp(re *regexp.Regexp, tree *syntax.Regexp) *Regexp {
	caseless := ignoresCase(tree)
	p := &Regexp{re: re, need: needOf(tree.Simplify(), caseless), caseless: caseless}
	if p.need != nil {
		p.index = newTable()
		for _, lit := range p.need {
			if !caseless || isASCII(lit) {
				// A caseless literal outside ASCII is in no text that
				// fold reads.
				p.index.add(lit, 0)
			}
		}
	}
	return p
}

// String is the source text of the expression.
func (p *Regexp) String() string { return p.re.String() }

// Regexp is the expression without its prefilter.
func (p *Regexp) Regexp() *regexp.Regexp { return p.re }

// MatchString reports whether s holds a match, as regexp's does.
func (p *Regexp) MatchString(s string) bool {
	t := text{s: s}
	defer t.free()
	if !p.may(&t) {
		return false
	}
	if p.alts != nil {
		for _, a := range p.alts {
			if a.may(&t) && a.re.MatchString(s) {
				return true
			}
		}
		return false
	}
	return p.re.MatchString(s)
}

// FindStringIndex returns the leftmost match's bounds, as regexp's does.
func (p *Regexp) FindStringIndex(s string) []int {
	t := text{s: s}
	defer t.free()
	if !p.may(&t) {
		return nil
	}
	if p.alts == nil {
		return p.re.FindStringIndex(s)
	}
	// The leftmost match of a choice starts where the leftmost of its
	// alternatives' matches does; of those starting there, the first
	// alternative's is the one chosen (leftmost-first, as Perl).
	var best []int
	for _, a := range p.alts {
		if !a.may(&t) {
			continue
		}
		if loc := a.re.FindStringIndex(s); loc != nil && (best == nil || loc[0] < best[0]) {
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
	t := text{s: s}
	defer t.free()
	return p.may(&t)
}

// may reports whether t may hold a match of the whole expression.
func (p *Regexp) may(t *text) bool {
	if p.index == nil {
		return true
	}
	if !p.caseless {
		return holds(p.index, t.s)
	}
	f, ok := t.folded()
	return !ok || holds(p.index, f)
}

// text is a text being matched, folded once when first needed.
type text struct {
	s     string
	fold  *folded
	other bool // s holds a byte outside ASCII
}

// folded returns t with its letters in upper case, or false when t holds
// a byte outside ASCII.
func (t *text) folded() ([]byte, bool) {
	if t.fold == nil && !t.other {
		t.fold, t.other = fold(t.s)
	}
	if t.other {
		return nil, false
	}
	return t.fold.b, true
}

func (t *text) free() {
	if t.fold != nil {
		t.fold.free()
	}
}

// folded is ASCII text with its letters in upper case.
type folded struct{ b []byte }

var foldedPool = sync.Pool{New: func() any { return &folded{} }}

// fold returns s with its letters in upper case, or true when s holds a
// byte outside ASCII.
func fold(s string) (*folded, bool) {
	if !isASCII(s) {
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
