// Package htmlexec runs html/template's templates as compiled Go code:
// it compiles html/template's own escaped parse tree of a template (the
// escapers html/template inserted included) into a program of closures,
// which writes what html/template's ExecuteTemplate writes, byte for
// byte, without text/template's reflective interpreter: a field is found
// once per type, not by name at each use, and an escaper is a plain call,
// not reflect.Value.Call.
//
// It compiles a whole template or refuses it: a node, a function or an
// escaper it does not know, a variable the parser let through. A page
// whose data its program cannot render exactly (a method to call, a map,
// a missing field's error, HTML in an attribute...) is rendered by
// html/template instead, from its start, so that output and errors are
// always html/template's.
package htmlexec

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"reflect"
	"strconv"
	"sync/atomic"
	"text/template/parse"
)

// Template is a compiled html/template template.
type Template struct {
	html *template.Template
	name string
	main *proc
}

// Compile compiles the template name of t's set, which must not have
// been executed yet; html/template escapes a copy of the set first (as
// its first execution would), and nothing of it runs; t is left as it
// was, for html/template to run. t's set must use
// html/template's defaults: no functions of its own (Funcs), no Option.
// The error says why a template is not compiled: it then runs with
// html/template only. Compile refuses every template when this package's
// escapers do not give this Go's html/template's bytes (Agrees).
func Compile(t *template.Template, name string) (*Template, error) {
	if err := Agrees(); err != nil {
		return nil, err
	}
	return compile(t, name)
}

// compile is Compile without asking Agrees.
func compile(t *template.Template, name string) (*Template, error) {
	escaped, err := escape(t, name)
	if err != nil {
		return nil, fmt.Errorf("htmlexec: %s: %w", name, err)
	}
	c := &compiler{set: escaped, procs: map[string]*proc{}}
	p, err := c.proc(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Template{html: t, name: name, main: p}, nil
}

// escaperName is the template escape adds to its copy of a set.
const escaperName = "htmlexec: escape"

// escape returns a copy of t's set (html/template's Clone: the trees
// copied) in which html/template has escaped the template name, and the
// templates it calls, as its first execution would, without running any
// of it; t's set is left as it was. html/template escapes the templates a
// template calls with it, both branches of an if, and those of a template
// called behind {{if false}} in the context a page starts in are escaped
// as executing them would; executing such a template runs nothing of
// theirs. It fails as executing name would when name cannot be escaped,
// when t's set has been executed (html/template then refuses to copy
// it), and when the set defines or calls a template of the caller's name,
// which the copy would then run.
func escape(t *template.Template, name string) (*template.Template, error) {
	if t.Lookup(name) == nil {
		return nil, fmt.Errorf("no template %q", name)
	}
	for _, x := range t.Templates() {
		if x.Name() == escaperName || x.Tree != nil && callsTemplate(x.Tree.Root, escaperName) {
			return nil, fmt.Errorf("the set defines or calls a template named %q", escaperName)
		}
	}
	escaped, err := t.Clone()
	if err != nil {
		return nil, err
	}
	caller, err := escaped.New(escaperName).Parse(`{{if false}}{{template ` + strconv.Quote(name) + ` .}}{{end}}`)
	if err != nil {
		return nil, err
	}
	if err := caller.Execute(io.Discard, nil); err != nil {
		return nil, fmt.Errorf("cannot be escaped: %w", err)
	}
	return escaped, nil
}

// callsTemplate reports whether a {{template}} under n names name.
func callsTemplate(n parse.Node, name string) bool {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return false
		}
		for _, c := range n.Nodes {
			if callsTemplate(c, name) {
				return true
			}
		}
	case *parse.TemplateNode:
		return n.Name == name
	case *parse.IfNode:
		return callsTemplate(n.List, name) || callsTemplate(n.ElseList, name)
	case *parse.RangeNode:
		return callsTemplate(n.List, name) || callsTemplate(n.ElseList, name)
	case *parse.WithNode:
		return callsTemplate(n.List, name) || callsTemplate(n.ElseList, name)
	}
	return false
}

// Execute writes to out what html/template's t.ExecuteTemplate(out, name,
// data) writes, and returns the error it returns, name and t those given
// to Compile.
func (t *Template) Execute(out *bytes.Buffer, data any) error {
	start := out.Len()
	if t.run(out, data) {
		if crosscheck.Load() {
			return t.check(out.Bytes()[start:], data)
		}
		return nil
	}
	fallbacks.Add(1)
	out.Truncate(start)
	return t.html.ExecuteTemplate(out, t.name, data)
}

// run runs the compiled program alone: it reports false when it could
// not render data exactly as html/template does (out then holds a part of
// the page).
func (t *Template) run(out *bytes.Buffer, data any) (ok bool) {
	defer func() {
		// A value reflect refuses to give (html/template would report an
		// error): html/template has the last word.
		if recover() != nil {
			ok = false
		}
	}()
	v, isValue := data.(reflect.Value)
	if !isValue {
		v = reflect.ValueOf(data)
	}
	vars := make([]reflect.Value, t.main.nvars)
	vars[0] = v
	s := state{out: out, vars: vars}
	return t.main.body(&s, v) != fail
}

var (
	crosscheck atomic.Bool
	fallbacks  atomic.Int64
)

// Crosscheck makes every later Execute that ran the compiled program run
// html/template too and return an error if their bytes differ: for tests,
// which then hold every page they render to html/template's (at twice the
// cost). on false ends it.
func Crosscheck(on bool) { crosscheck.Store(on) }

// Fallbacks is how many Executes have left their page to html/template
// (since the program started).
func Fallbacks() int64 { return fallbacks.Load() }

// check compares got, what the program wrote, with html/template's page.
func (t *Template) check(got []byte, data any) error {
	var want bytes.Buffer
	if err := t.html.ExecuteTemplate(&want, t.name, data); err != nil {
		return fmt.Errorf("htmlexec: %s: compiled, but html/template fails: %w", t.name, err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		i := 0
		for i < len(got) && i < len(want.Bytes()) && got[i] == want.Bytes()[i] {
			i++
		}
		lo := max(0, i-80)
		return fmt.Errorf("htmlexec: %s: the compiled page differs from html/template's at byte %d:\n compiled: %q\n html/template: %q",
			t.name, i, got[lo:min(len(got), i+80)], want.Bytes()[lo:min(want.Len(), i+80)])
	}
	return nil
}
