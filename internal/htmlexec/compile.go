package htmlexec

import (
	"bytes"
	"fmt"
	"html/template"
	"reflect"
	"strings"
	"text/template/parse"
)

// This file compiles an escaped parse tree into Go closures that do
// what text/template's exec.go does walking it.

// ctl is how a statement ends: on to the next, a break or continue of the
// innermost range, or a failure (html/template runs the page instead).
type ctl uint8

const (
	next ctl = iota
	brk
	cont
	fail
)

// state is one execution's: the output and the variables of the
// template being run.
type state struct {
	out   *bytes.Buffer
	vars  []reflect.Value
	depth int
}

// maxDepth is how deep templates may call templates before the program
// fails and leaves the page to html/template (which allows deeper).
const maxDepth = 1000

// A stmt runs a node with dot as dot.
type stmt func(s *state, dot reflect.Value) ctl

// An expr evaluates a pipeline, a command or an argument; ok false when
// it fails.
type expr func(s *state, dot reflect.Value) (v reflect.Value, ok bool)

// A proc is a compiled template: its body and how many variables it has.
type proc struct {
	body  stmt
	nvars int
}

// compiler compiles the templates of one set.
type compiler struct {
	set   *template.Template
	procs map[string]*proc
}

// refusal is why a template is not compiled.
type refusal struct{ why string }

func (r *refusal) Error() string { return "htmlexec: " + r.why }

func refuse(format string, args ...any) error {
	return &refusal{fmt.Sprintf(format, args...)}
}

// proc compiles the template name of the set (once, however many times it
// is called).
func (c *compiler) proc(name string) (*proc, error) {
	if p := c.procs[name]; p != nil {
		return p, nil
	}
	t := c.set.Lookup(name)
	if t == nil || t.Tree == nil || t.Tree.Root == nil {
		// html/template's derived templates (a template called in another
		// context than text) are not in its own set: not compiled.
		return nil, refuse("no template %q", name)
	}
	p := &proc{}
	c.procs[name] = p
	sc := &scope{c: c}
	sc.push("$")
	body, err := sc.list(t.Tree.Root)
	if err != nil {
		return nil, err
	}
	p.body, p.nvars = body, sc.n
	return p, nil
}

// scope compiles the nodes of one template, with its variables: each
// declaration takes a new slot of the template's variables, and a name
// means the slot of its latest declaration in scope, as text/template's
// stack of variables does.
type scope struct {
	c    *compiler
	live []variable
	n    int
}

type variable struct {
	name string
	slot int
}

func (sc *scope) push(name string) int {
	sc.live = append(sc.live, variable{name, sc.n})
	sc.n++
	return sc.n - 1
}

func (sc *scope) mark() int    { return len(sc.live) }
func (sc *scope) pop(mark int) { sc.live = sc.live[:mark] }
func (sc *scope) slot(name string) (int, error) {
	for i := len(sc.live) - 1; i >= 0; i-- {
		if sc.live[i].name == name {
			return sc.live[i].slot, nil
		}
	}
	// The parser allows some uses that fail at run time (a variable of
	// an if's branch named in its else).
	return 0, refuse("variable %s not in scope", name)
}

func (sc *scope) list(l *parse.ListNode) (stmt, error) {
	var stmts []stmt
	if l != nil {
		for _, n := range l.Nodes {
			st, err := sc.node(n)
			if err != nil {
				return nil, err
			}
			if st != nil {
				stmts = append(stmts, st)
			}
			if t := n.Type(); t == parse.NodeBreak || t == parse.NodeContinue {
				// What follows never runs, and html/template leaves it
				// unescaped. (What follows an if or a with whose every
				// branch ends so is left unescaped too, and refused: an
				// action there has no escaper.)
				break
			}
		}
	}
	switch len(stmts) {
	case 0:
		return func(*state, reflect.Value) ctl { return next }, nil
	case 1:
		return stmts[0], nil
	}
	return func(s *state, dot reflect.Value) ctl {
		for _, st := range stmts {
			if c := st(s, dot); c != next {
				return c
			}
		}
		return next
	}, nil
}

func (sc *scope) node(n parse.Node) (stmt, error) {
	switch n := n.(type) {
	case *parse.TextNode:
		text := n.Text
		return func(s *state, _ reflect.Value) ctl {
			s.out.Write(text)
			return next
		}, nil
	case *parse.CommentNode:
		return nil, nil
	case *parse.ActionNode:
		return sc.action(n)
	case *parse.IfNode:
		return sc.ifWith(&n.BranchNode, false)
	case *parse.WithNode:
		return sc.ifWith(&n.BranchNode, true)
	case *parse.RangeNode:
		return sc.rangeNode(n)
	case *parse.TemplateNode:
		return sc.template(n)
	case *parse.BreakNode:
		return func(*state, reflect.Value) ctl { return brk }, nil
	case *parse.ContinueNode:
		return func(*state, reflect.Value) ctl { return cont }, nil
	}
	return nil, refuse("node %s", n)
}

// action compiles {{pipeline}}: a declaration, or a value and the
// escapers html/template put after it, which it prints.
func (sc *scope) action(n *parse.ActionNode) (stmt, error) {
	pipe := n.Pipe
	if len(pipe.Decl) > 0 {
		val, slots, err := sc.declPipe(pipe)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot reflect.Value) ctl {
			if _, ok := declare(val, slots, s, dot); !ok {
				return fail
			}
			return next
		}, nil
	}
	if len(pipe.Cmds) < 2 {
		return nil, refuse("%s prints without an escaper", n)
	}
	val, err := sc.command(pipe.Cmds[0])
	if err != nil {
		return nil, err
	}
	return sc.escaped(val, pipe.Cmds[1:])
}

// escaped prints val through the escapers named by cmds.
func (sc *scope) escaped(val expr, cmds []*parse.CommandNode) (stmt, error) {
	var names []string
	for _, cmd := range cmds {
		id, ok := cmd.Args[0].(*parse.IdentifierNode)
		if !ok || len(cmd.Args) != 1 {
			return nil, refuse("%s is not an escaper", cmd)
		}
		names = append(names, id.Ident)
	}
	js := names[0] == jsValEscaperName
	if js {
		names = names[1:]
	}
	chain := make([]escaper, len(names))
	for i, name := range names {
		e, ok := escapers[name]
		if !ok {
			return nil, refuse("function %s", name)
		}
		chain[i] = e
	}
	return func(s *state, dot reflect.Value) ctl {
		v, ok := val(s, dot)
		if !ok {
			return fail
		}
		var str string
		c := contentPlain
		if js {
			if str, ok = jsValEscaper(argument(v)); !ok {
				return fail
			}
			if len(chain) == 0 {
				s.out.WriteString(str)
				return next
			}
		} else {
			str, c = stringify(v)
		}
		last := len(chain) - 1
		for _, e := range chain[:last] {
			if str, ok = e.str(str, c); !ok {
				return fail
			}
			c = contentPlain // an escaper's result is a string
		}
		if !chain[last].write(s.out, str, c) {
			return fail
		}
		return next
	}, nil
}

// declPipe compiles a pipeline that declares variables ($x := ...), and
// declares them (for what follows, until the scope is popped).
func (sc *scope) declPipe(pipe *parse.PipeNode) (expr, []int, error) {
	if pipe.IsAssign {
		return nil, nil, refuse("assignment %s", pipe)
	}
	val, err := sc.pipeline(pipe)
	if err != nil {
		return nil, nil, err
	}
	var slots []int
	for _, d := range pipe.Decl {
		slots = append(slots, sc.push(d.Ident[0]))
	}
	return val, slots, nil
}

// pipeline compiles a pipeline of one command (no escapers, no
// functions fed by the pipeline), without declarations.
func (sc *scope) pipeline(pipe *parse.PipeNode) (expr, error) {
	if len(pipe.Cmds) != 1 {
		return nil, refuse("pipeline %s", pipe)
	}
	return sc.command(pipe.Cmds[0])
}

// branch is an if's, a with's or a range's pipeline, the slots of the
// variables it declares, its list and its else list (nil when none).
type branch struct {
	pipe           expr
	slots          []int
	list, elseList stmt
}

// branch compiles b, its variables scoped as text/template scopes them:
// those the pipeline declares live in both lists, those declared in the
// list only there.
func (sc *scope) branch(b *parse.BranchNode) (br branch, err error) {
	mark := sc.mark()
	if br.pipe, br.slots, err = sc.declPipe(b.Pipe); err != nil {
		return br, err
	}
	inner := sc.mark()
	if br.list, err = sc.list(b.List); err != nil {
		return br, err
	}
	sc.pop(inner)
	if b.ElseList != nil {
		if br.elseList, err = sc.list(b.ElseList); err != nil {
			return br, err
		}
	}
	sc.pop(mark)
	return br, nil
}

// declare evaluates a pipeline and sets the variables it declares to its
// value; false when the program must stop.
func declare(val expr, slots []int, s *state, dot reflect.Value) (reflect.Value, bool) {
	v, ok := val(s, dot)
	if ok {
		for _, i := range slots {
			s.vars[i] = v
		}
	}
	return v, ok
}

// ifWith compiles an if, or a with when with is true.
func (sc *scope) ifWith(b *parse.BranchNode, with bool) (stmt, error) {
	br, err := sc.branch(b)
	if err != nil {
		return nil, err
	}
	cond, slots, list, elseList := br.pipe, br.slots, br.list, br.elseList
	return func(s *state, dot reflect.Value) ctl {
		v, ok := declare(cond, slots, s, dot)
		if !ok {
			return fail
		}
		truth, ok := isTrue(indirectInterface(v))
		if !ok {
			return fail
		}
		if truth {
			if with {
				return list(s, v)
			}
			return list(s, dot)
		}
		if elseList != nil {
			return elseList(s, dot)
		}
		return next
	}, nil
}

// rangeNode compiles a range over a slice or an array (or nothing); a
// range over anything else fails at run time.
func (sc *scope) rangeNode(r *parse.RangeNode) (stmt, error) {
	br, err := sc.branch(&r.BranchNode)
	if err != nil {
		return nil, err
	}
	val, slots, body, elseList := br.pipe, br.slots, br.list, br.elseList
	// With one variable it is the element; with two, the index and the
	// element.
	elemSlot, indexSlot := -1, -1
	switch len(slots) {
	case 1:
		elemSlot = slots[0]
	case 2:
		indexSlot, elemSlot = slots[0], slots[1]
	}
	return func(s *state, dot reflect.Value) ctl {
		v, ok := declare(val, slots, s, dot)
		if !ok {
			return fail
		}
		seq, _ := indirectValue(v)
		switch seq.Kind() {
		case reflect.Array, reflect.Slice:
			n := seq.Len()
			if n == 0 {
				break
			}
			for i := range n {
				elem := seq.Index(i)
				if elemSlot >= 0 {
					s.vars[elemSlot] = elem
				}
				if indexSlot >= 0 {
					s.vars[indexSlot] = reflect.ValueOf(i)
				}
				switch body(s, elem) {
				case brk:
					return next
				case fail:
					return fail
				}
			}
			return next
		case reflect.Invalid:
		default:
			// Maps (sorted), integers, channels, iterators and errors.
			return fail
		}
		if elseList != nil {
			return elseList(s, dot)
		}
		return next
	}, nil
}

// template compiles {{template "name" pipeline}}.
func (sc *scope) template(n *parse.TemplateNode) (stmt, error) {
	p, err := sc.c.proc(n.Name)
	if err != nil {
		return nil, err
	}
	val := expr(func(*state, reflect.Value) (reflect.Value, bool) { return reflect.Value{}, true })
	if n.Pipe != nil {
		if len(n.Pipe.Decl) > 0 {
			return nil, refuse("declaration in %s", n)
		}
		if val, err = sc.pipeline(n.Pipe); err != nil {
			return nil, err
		}
	}
	return func(s *state, dot reflect.Value) ctl {
		v, ok := val(s, dot)
		if !ok || s.depth >= maxDepth {
			return fail
		}
		// The called template sees only $, its dot; p.nvars is known once
		// the whole set is compiled.
		vars := make([]reflect.Value, p.nvars)
		vars[0] = v
		inner := state{out: s.out, vars: vars, depth: s.depth + 1}
		if p.body(&inner, v) == fail {
			return fail
		}
		return next
	}, nil
}

// command compiles a command that gives a value: its first word is not
// fed by a previous command.
func (sc *scope) command(cmd *parse.CommandNode) (expr, error) {
	first := cmd.Args[0]
	if id, ok := first.(*parse.IdentifierNode); ok {
		return sc.call(id.Ident, cmd.Args[1:])
	}
	if len(cmd.Args) != 1 {
		// A method's arguments, or arguments to a non-function.
		return nil, refuse("arguments in %s", cmd)
	}
	return sc.operand(first)
}

// operand compiles a word that is a value: a field chain, a variable,
// dot, a constant, a parenthesized pipeline.
func (sc *scope) operand(n parse.Node) (expr, error) {
	switch n := n.(type) {
	case *parse.FieldNode:
		return fieldChain(func(_ *state, dot reflect.Value) (reflect.Value, bool) { return dot, true }, n.Ident), nil
	case *parse.VariableNode:
		slot, err := sc.slot(n.Ident[0])
		if err != nil {
			return nil, err
		}
		return fieldChain(func(s *state, _ reflect.Value) (reflect.Value, bool) { return s.vars[slot], true }, n.Ident[1:]), nil
	case *parse.ChainNode:
		switch n.Node.(type) {
		case *parse.FieldNode, *parse.VariableNode, *parse.PipeNode, *parse.DotNode:
		default:
			return nil, refuse("chain %s", n)
		}
		recv, err := sc.operand(n.Node)
		if err != nil {
			return nil, err
		}
		return fieldChain(recv, n.Field), nil
	case *parse.PipeNode:
		if len(n.Decl) > 0 {
			return nil, refuse("declaration in %s", n)
		}
		return sc.pipeline(n)
	case *parse.DotNode:
		// Dot may be an interface's value (an element of a []any): a
		// command's value is taken out of it.
		return func(_ *state, dot reflect.Value) (reflect.Value, bool) { return unwrap(dot), true }, nil
	case *parse.StringNode:
		return constant(reflect.ValueOf(n.Text)), nil
	case *parse.BoolNode:
		return constant(reflect.ValueOf(n.True)), nil
	case *parse.NumberNode:
		// text/template's idealConstant, for an int.
		if n.IsComplex || n.IsFloat && !isHexInt(n.Text) && !isRuneInt(n.Text) && strings.ContainsAny(n.Text, ".eEpP") ||
			!n.IsInt || int64(int(n.Int64)) != n.Int64 {
			return nil, refuse("number %s", n)
		}
		return constant(reflect.ValueOf(int(n.Int64))), nil
	}
	return nil, refuse("operand %s", n)
}

func isRuneInt(s string) bool { return len(s) > 0 && s[0] == '\'' }

func isHexInt(s string) bool {
	return len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !strings.ContainsAny(s, "pP")
}

func constant(v reflect.Value) expr {
	return func(*state, reflect.Value) (reflect.Value, bool) { return v, true }
}

// fieldChain is .A.B.C of the value recv gives. After it, as after every
// command, a value in an empty interface is taken out of it.
func fieldChain(recv expr, names []string) expr {
	fields := make([]*field, len(names))
	for i, name := range names {
		fields[i] = &field{name: name}
	}
	return func(s *state, dot reflect.Value) (reflect.Value, bool) {
		v, ok := recv(s, dot)
		if !ok {
			return v, false
		}
		for _, f := range fields {
			if v, ok = f.of(v); !ok {
				return v, false
			}
		}
		return unwrap(v), true
	}
}

// unwrap is what text/template does to each command's value: one held in
// an interface{} is taken out.
func unwrap(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Interface && v.Type().NumMethod() == 0 {
		return v.Elem()
	}
	return v
}

// call compiles a call of one of the builtins on args.
func (sc *scope) call(name string, args []parse.Node) (expr, error) {
	b, ok := builtins[name]
	if !ok || len(args) < b.nargs || !b.variadic && len(args) > b.nargs {
		return nil, refuse("call of %s", name)
	}
	vals := make([]expr, len(args))
	for i, a := range args {
		switch a.(type) {
		case *parse.NilNode:
			vals[i] = constant(reflect.Value{})
			continue
		case *parse.IdentifierNode:
			return nil, refuse("function %s as an argument", a)
		}
		v, err := sc.operand(a)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return func(s *state, dot reflect.Value) (reflect.Value, bool) {
		var buf [3]reflect.Value
		argv := buf[:0]
		for _, val := range vals {
			v, ok := val(s, dot)
			if !ok {
				return v, false
			}
			argv = append(argv, v)
		}
		v, ok := b.call(argv)
		return unwrap(v), ok
	}, nil
}
