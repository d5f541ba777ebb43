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
	"errors"
	"fmt"
	"html/template"
	"reflect"
	"sync/atomic"
	texttemplate "text/template"
)

// Template is a compiled html/template template.
type Template struct {
	html *template.Template
	name string
	main *proc
}

// Compile compiles the template name of t's set; html/template escapes
// the set first (as its first execution would). t's set must use
// html/template's defaults: no functions of its own (Funcs), no Option.
// The error says why a template is not compiled: it then runs with
// html/template only.
func Compile(t *template.Template, name string) (*Template, error) {
	// html/template escapes a template when it first executes it; this
	// execution, with nil data, stops at its first write. It errs before
	// executing when the template cannot be escaped; an error of the
	// execution itself (which nil data may cause) is text/template's
	// ExecError, and the template was escaped.
	err := t.ExecuteTemplate(stopWriter{}, name, nil)
	var execErr texttemplate.ExecError
	if err != nil && !errors.Is(err, errStop) && !errors.As(err, &execErr) {
		return nil, fmt.Errorf("htmlexec: %s: %w", name, err)
	}
	c := &compiler{set: t, procs: map[string]*proc{}}
	p, err := c.proc(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Template{html: t, name: name, main: p}, nil
}

// Execute writes to out what html/template's t.ExecuteTemplate(out, name,
// data) writes, and returns the error it returns, name and t those given
// to Compile.
func (t *Template) Execute(out *bytes.Buffer, data any) error {
	start := out.Len()
	if t.Run(out, data) {
		if verify.Load() {
			return t.check(out.Bytes()[start:], data)
		}
		return nil
	}
	fallbacks.Add(1)
	out.Truncate(start)
	return t.html.ExecuteTemplate(out, t.name, data)
}

// Run runs the compiled program alone: it reports false when it could
// not render data exactly as html/template does (out then holds a part of
// the page).
func (t *Template) Run(out *bytes.Buffer, data any) (ok bool) {
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
	verify    atomic.Bool
	fallbacks atomic.Int64
)

// Verify makes every later Execute that ran the compiled program run
// html/template too and return an error if their bytes differ: for tests,
// which then hold every page they render to html/template's (at twice the
// cost). on false ends it.
func Verify(on bool) { verify.Store(on) }

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
