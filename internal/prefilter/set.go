package prefilter

import "regexp/syntax"

// Set tells, in one pass over a text, which of many expressions may match
// it: the literals of all of them are looked up together.
type Set struct {
	n      int
	always []int // expressions without literals
	lits   *table
}

// NewSet works out the literals of exprs, which must compile.
func NewSet(exprs []string) *Set {
	s := &Set{n: len(exprs), lits: newTable()}
	for id, expr := range exprs {
		tree, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			panic("prefilter: " + err.Error())
		}
		need := needOf(tree.Simplify())
		if need == nil {
			s.always = append(s.always, id)
			continue
		}
		for _, lit := range need {
			s.lits.add(lit, id)
		}
	}
	return s
}

// Possible reports, for each expression in order, whether text may hold a
// match of it (or of it within any part of text): false means it surely
// does not.
func (s *Set) Possible(text string) []bool {
	may := make([]bool, s.n)
	f, ok := fold(text)
	if !ok {
		for i := range may {
			may[i] = true
		}
		return may
	}
	defer f.free()
	for _, id := range s.always {
		may[id] = true
	}
	s.lits.scan(f.b, func(id int) bool {
		may[id] = true
		return false
	})
	return may
}
