package prefilter

import (
	"regexp/syntax"

	"github.com/agentcards/agentcards/internal/ascii"
)

// Set tells, in one pass over a text, which of many expressions may match
// it: the literals of all of them are looked up together (those of
// expressions ignoring case in a second pass, over the folded text).
type Set struct {
	n        int
	always   []int // expressions without literals
	exact    *table
	caseless *table
	// caselessIDs are the expressions whose literals are caseless.
	caselessIDs []int
	// lits are the literals of each expression exact holds, by id; nil
	// for the others.
	lits [][]string
}

// NewSet works out the literals of exprs, which must compile.
func NewSet(exprs []string) *Set {
	s := &Set{n: len(exprs), exact: newTable(), caseless: newTable(), lits: make([][]string, len(exprs))}
	for id, expr := range exprs {
		tree, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			panic("prefilter: " + err.Error())
		}
		caseless := ignoresCase(tree)
		need := needOf(tree.Simplify(), caseless)
		switch {
		case need == nil:
			s.always = append(s.always, id)
		case caseless:
			s.caselessIDs = append(s.caselessIDs, id)
			for _, lit := range need {
				if ascii.Is(lit) {
					s.caseless.add(lit, id)
				}
			}
		default:
			for _, lit := range need {
				s.exact.add(lit, id)
			}
			s.lits[id] = need
		}
	}
	return s
}

// Possible reports, for each expression in order, whether text may hold a
// match of it (or of it within any part of text): false means it surely
// does not.
func (s *Set) Possible(text string) []bool {
	may := make([]bool, s.n)
	s.Mark(text, may)
	return may
}

// Literals returns, for expression id, the strings Mark looks for in a
// text: may[id] is set exactly when the text holds one of them, byte for
// byte. ok is false when Mark looks for no such strings (the expression
// has none, and is always marked, or they are compared without case).
// The caller must not change lits.
func (s *Set) Literals(id int) (lits []string, ok bool) {
	return s.lits[id], s.lits[id] != nil
}

// Len is the number of expressions in the set.
func (s *Set) Len() int { return s.n }

// Mark is Possible, into may, which must hold Len values, all false.
func (s *Set) Mark(text string, may []bool) {
	may = may[:s.n]
	for _, id := range s.always {
		may[id] = true
	}
	mark(s.exact, text, may)
	if len(s.caselessIDs) > 0 {
		if f, other := fold(text); other {
			for _, id := range s.caselessIDs {
				may[id] = true
			}
		} else {
			mark(s.caseless, f.b, may)
			f.free()
		}
	}
}
