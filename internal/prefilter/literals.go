package prefilter

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSet bounds the strings a set of literals holds: past it, the set is
// given up (the expression then runs over more text, never less).
const maxSet = 64

// maxNeed bounds the strings of a choice's need, one of which a match
// holds.
const maxNeed = 512

// info is what the literals of a piece of an expression say of its
// matches.
type info struct {
	// exact, when known, is every string the piece can match, folded.
	exact []string
	// need, when known, holds strings one of which every match of the
	// piece holds, folded; never the empty string.
	need []string
}

// ignoresCase reports whether any literal of re ignores letter case. (A
// class that does is spelt out in both cases by the parser already.)
func ignoresCase(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase != 0 {
		return true
	}
	for _, sub := range re.Sub {
		if ignoresCase(sub) {
			return true
		}
	}
	return false
}

// needOf returns strings one of which every match of re holds, folded
// when caseless, or nil when none are known.
func needOf(re *syntax.Regexp, caseless bool) []string {
	in := literals{caseless}.analyze(re)
	need := in.need
	if need == nil {
		need = nonEmpty(in.exact)
	}
	if need == nil {
		return nil
	}
	return minimal(need)
}

// minimal drops from set every string that holds another of its strings:
// text holding it holds the other too.
func minimal(set []string) []string {
	var out []string
	for i, s := range set {
		redundant := false
		for j, t := range set {
			if i != j && strings.Contains(s, t) && (len(t) < len(s) || j < i) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, s)
		}
	}
	return out
}

// addMinimal is minimal(union(set, add)) for a set that minimal leaves
// as it is: of set's strings only those that hold one of add's can go, so
// each of set's is tried against add's alone.
func addMinimal(set, add []string) []string {
	fresh := union(nil, add)
	fresh = slices.DeleteFunc(fresh, func(s string) bool { return slices.Contains(set, s) })
	holdsOther := func(s string, in []string) bool {
		for _, t := range in {
			if len(t) < len(s) && strings.Contains(s, t) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, s := range set {
		if !holdsOther(s, fresh) {
			out = append(out, s)
		}
	}
	for _, s := range fresh {
		if !holdsOther(s, set) && !holdsOther(s, fresh) {
			out = append(out, s)
		}
	}
	return out
}

// nonEmpty returns set when none of its strings is empty, else nil.
func nonEmpty(set []string) []string {
	if set == nil || slices.Contains(set, "") {
		return nil
	}
	return set
}

// literals works out the literals of expressions.
type literals struct {
	caseless bool // fold them (foldRunes)
}

// runes is runes as literals are compared: folded when caseless.
func (l literals) runes(runes []rune) string {
	if l.caseless {
		return foldRunes(runes)
	}
	return string(runes)
}

// analyze works out the literals of re.
func (l literals) analyze(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, utf8.RuneError) {
			// regexp reads each byte of invalid UTF-8 as U+FFFD, which
			// no byte search finds.
			return info{}
		}
		return info{exact: []string{l.runes(re.Rune)}}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return info{exact: []string{""}}
	case syntax.OpCharClass:
		return info{exact: l.classStrings(re.Rune)}
	case syntax.OpCapture:
		return l.analyze(re.Sub[0])
	case syntax.OpPlus:
		sub := l.analyze(re.Sub[0])
		return info{need: needOfInfo(sub)}
	case syntax.OpRepeat:
		if re.Min < 1 {
			return info{}
		}
		sub := l.analyze(re.Sub[0])
		if re.Min == 1 && re.Max == 1 {
			return sub
		}
		return info{need: needOfInfo(sub)}
	case syntax.OpQuest:
		sub := l.analyze(re.Sub[0])
		if sub.exact != nil {
			return info{exact: union([]string{""}, sub.exact)}
		}
		return info{}
	case syntax.OpConcat:
		return l.concat(re.Sub)
	case syntax.OpAlternate:
		return l.alternate(re.Sub)
	}
	// Any character, repetitions that may be empty, and what else there
	// is: nothing known.
	return info{}
}

// needOfInfo is the need of a piece: its own, or its exact strings when
// none is empty.
func needOfInfo(in info) []string {
	if in.need != nil {
		return in.need
	}
	return nonEmpty(in.exact)
}

// concat works out the literals of pieces matched one after another: the
// exact strings of neighbours are joined while the product stays small,
// and the need kept is the best of the pieces' (the one whose shortest
// string is longest, then the one with fewest strings).
func (l literals) concat(subs []*syntax.Regexp) info {
	var best, bestMinimal []string
	consider := func(set []string) {
		if set = nonEmpty(set); set != nil {
			if m := minimal(set); best == nil || better(m, bestMinimal) {
				best, bestMinimal = set, m
			}
		}
	}
	run := []string{""} // the exact strings of the pieces joined so far
	allExact := true
	for _, sub := range subs {
		in := l.analyze(sub)
		if in.exact != nil && run != nil && len(run)*len(in.exact) <= maxSet {
			run = product(run, in.exact)
			continue
		}
		consider(run)
		consider(in.need)
		if in.exact == nil {
			allExact = false
			run = []string{""}
			continue
		}
		consider(in.exact)
		allExact = false
		run = in.exact
	}
	consider(run)
	if allExact {
		return info{exact: run, need: best}
	}
	return info{need: best}
}

// alternate works out the literals of a choice: every alternative must
// be known for the choice to be.
func (l literals) alternate(subs []*syntax.Regexp) info {
	var exact, need []string
	exactKnown, needKnown := true, true
	for _, sub := range subs {
		in := l.analyze(sub)
		if exactKnown && in.exact != nil && len(exact)+len(in.exact) <= maxSet {
			exact = union(exact, in.exact)
		} else {
			exactKnown = false
		}
		n := needOfInfo(in)
		if needKnown && n != nil && len(need)+len(n) <= maxNeed {
			need = addMinimal(need, n)
		} else {
			needKnown = false
		}
	}
	var out info
	if exactKnown {
		out.exact = exact
	}
	if needKnown {
		out.need = need
	}
	return out
}

// selective is the length from which a literal is taken to pass little
// text: of two sets whose shortest strings are both that long, the one
// with fewer strings is the better (each string is one search).
const selective = 5

// better reports whether set a narrows text more than b, both as minimal
// leaves them: its shortest string is longer (up to selective), or as
// long with fewer strings.
func better(a, b []string) bool {
	la, lb := min(shortest(a), selective), min(shortest(b), selective)
	return la > lb || la == lb && len(a) < len(b)
}

func shortest(set []string) int {
	n := -1
	for _, s := range set {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

// product is every string of a followed by every string of b.
func product(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return union(nil, out)
}

// union is the strings of a and b, each once, in order.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// classStrings is the characters of a class given by rune ranges, as
// runes gives them, or nil when there are too many.
func (l literals) classStrings(ranges []rune) []string {
	var seen []rune // each character as a string of it is, once
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo <= utf8.RuneError && utf8.RuneError <= hi {
			return nil // as for literals: invalid UTF-8 is U+FFFD
		}
		if hi-lo >= maxSet {
			return nil
		}
		for r := lo; r <= hi; r++ {
			c := r
			if l.caseless {
				c = foldRune(r)
			}
			if !utf8.ValidRune(c) {
				c = utf8.RuneError // as a string holds it
			}
			if !slices.Contains(seen, c) {
				seen = append(seen, c)
			}
			if len(seen) > maxSet/4 {
				return nil
			}
		}
	}
	if seen == nil {
		return nil
	}
	out := make([]string, len(seen))
	for i, c := range seen {
		out[i] = string(c)
	}
	return out
}

// foldRunes is runes as fold sees them: each rune replaced by foldRune's.
func foldRunes(runes []rune) string {
	var b strings.Builder
	for _, r := range runes {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune is the least rune r matches without case (so "k", "K" and the
// Kelvin sign are all "K"), which for ASCII letters is the upper-case
// letter. A least rune outside ASCII means no rune this one matches is in
// ASCII text: the literal then passes no text fold reads, which is right.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		// In ASCII any other character folds to no other.
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}
