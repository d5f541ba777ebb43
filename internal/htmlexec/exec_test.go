package htmlexec

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"reflect"
	"strings"
	"testing"
)

type (
	page struct {
		Title   string
		Count   int
		Items   []item
		Ptr     *item
		NilPtr  *item
		Any     any
		NilAny  any
		Str     fmt.Stringer
		NilStr  fmt.Stringer
		None    []string
		Strs    []string
		Anys    []any
		Arr     [2]string
		Map     map[string]string
		Flag    bool
		Inner   inner
		private string // text/template refuses to read it
		embedded
		*embeddedPtr
	}
	item struct {
		Name string
		Tags []string
		N    uint
	}
	inner struct {
		HTML template.HTML
		URL  string
	}
	embedded    struct{ Promoted string }
	embeddedPtr struct{ Deep string }
	methods     struct{ Name string }
)

// Title is a method of a pointer, which text/template calls.
func (m *methods) Title() string { return "method " + m.Name }

func samplePage() *page {
	return &page{
		Title: `A "title" <&>`, Count: 3,
		Items: []item{{Name: "one", Tags: []string{"a", "<b>"}, N: 1}, {Name: "two"}, {Name: "javascript:x", N: 3}},
		Ptr:   &item{Name: "ptr"}, Any: 5, Str: stringer("<s>"), Strs: []string{"x", "y", "z"}, Anys: []any{1, "two", nil, template.HTML("<i>3</i>")},
		Arr: [2]string{"p", "q"}, Map: map[string]string{"k": "v"}, Flag: true,
		Inner: inner{HTML: "<em>hi</em>", URL: "/a b?c=<d>"}, private: "private",
		embedded: embedded{Promoted: "promoted"},
	}
}

// execCases compile and run exactly: html/template's bytes.
var execCases = []struct {
	name, src string
}{
	{"text and fields", `<h1>{{.Title}}</h1><p>{{.Count}} {{.Flag}} {{.Inner.HTML}} {{.Ptr.Name}} {{.Promoted}} {{.Str}} {{.NilStr}}</p><p title="{{.Str}}">`},
	{"attributes", `<a href="{{.Inner.URL}}" title="{{.Title}}">{{.Inner.URL}}</a><a href="/x/{{.Title}}?q={{.Title}}#{{.Count}}">x</a>`},
	{"if else", `{{if .Flag}}yes{{else}}no{{end}}{{if .Items}}items{{end}}{{if .NilPtr}}nil{{else if .Count}}count{{end}}{{if .Any}}any{{end}}{{if .Map}}map{{end}}`},
	{"with", `{{with .Ptr}}<b>{{.Name}}</b>{{end}}{{with .NilPtr}}x{{else}}none{{end}}{{with .Inner}}{{.HTML}}{{end}}{{with $x := .Title}}{{$x}}{{.}}{{end}}`},
	{"range", `<ul>{{range .Items}}<li>{{.Name}}{{range .Tags}}[{{.}}]{{else}}(no tags){{end}}</li>{{end}}</ul>{{range .Arr}}{{.}}{{end}}{{range .Anys}}<{{.}}>{{end}}`},
	{"range variables", `{{range $i, $it := .Items}}{{if $i}}, {{end}}{{$i}}={{$it.Name}}{{$.Title}}{{end}}{{range $s := .Strs}}{{$s}}{{end}}`},
	{"range else", `{{range .Ptr.Tags}}x{{else}}empty{{end}}{{range .None}}{{else}}none{{end}}{{range $i, $x := .None}}{{else}}{{len $x}}{{end}}`},
	{"break continue", `{{range $i, $s := .Strs}}{{if eq $s "y"}}{{continue}}{{end}}{{if eq $i 2}}{{break}}{{end}}{{$s}}{{end}}`},
	{"variables", `{{$t := .Title}}{{$n := len .Items}}{{range .Items}}{{$t}}:{{$n}}:{{.Name}} {{end}}{{$t}}`},
	{"builtins", `{{len .Items}} {{len .Title}} {{len .Map}} {{len .Arr}} {{if ne .Count 1}}many{{end}} {{if eq .Count 3 4}}three{{end}} {{if not .Flag}}no{{end}} {{eq .Title "x"}} {{ne .Ptr.N 1}}`},
	{"templates", `{{define "item"}}<i>{{.Name}}</i>{{end}}{{range .Items}}{{template "item" .}}{{end}}{{template "item" .Ptr}}{{template "none"}}{{define "none"}}[{{.}}]{{end}}`},
	{"constants and pipes", `{{"a<b"}} {{1}} {{true}} {{(.Title)}} {{(.Ptr).Name}} {{.}}`},
	{"missing", `{{$n := .NilAny}}{{$n.Foo.Bar}} {{with .Anys}}{{range .}}{{.}}{{end}}{{end}}`},
	{"comments", `a{{/* comment */}}b {{- " trimmed " -}} c`},
	{"script and json", `<script type="application/ld+json">{{.Inner}}</script><script>var a = {{.Strs}}, b = {{.Title}};</script>`},
}

// run renders src with data by html/template and by its compiled
// program (Run, which must run, and Execute).
func run(t *testing.T, src string, data any) {
	t.Helper()
	tpl := template.Must(template.New("x").Parse(src))
	c, err := Compile(tpl, "x")
	if err != nil {
		t.Fatal(err)
	}
	var want, got, ran bytes.Buffer
	if err := tpl.Execute(&want, data); err != nil {
		t.Fatal(err)
	}
	if err := c.Execute(&got, data); err != nil {
		t.Fatal(err)
	}
	if !c.run(&ran, data) {
		t.Fatalf("%s: the program did not run", src)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) || !bytes.Equal(ran.Bytes(), want.Bytes()) {
		t.Fatalf("%s:\n compiled:      %q\n html/template: %q", src, ran.Bytes(), want.Bytes())
	}
}

// TestExecute: templates of every node and function the compiler takes
// give html/template's bytes.
func TestExecute(t *testing.T) {
	for _, tc := range execCases {
		t.Run(tc.name, func(t *testing.T) { run(t, tc.src, samplePage()) })
	}
	// Nil data: every field is missing, none an error.
	run(t, `<p>{{.A.B}}{{with .C}}x{{else}}{{.}}{{end}}{{range .D}}{{else}}none{{end}}</p>`, nil)
}

// TestRefused: a template with what the compiler does not take is
// refused (Compile errs), and runs with html/template.
func TestRefused(t *testing.T) {
	for _, src := range []string{
		`{{printf "%s" .Title}}`,
		`{{.Title | html}}`,
		`{{if and .Flag .Count}}x{{end}}`,
		`{{index .Strs 0}}`,
		`{{$x := 1}}{{$x = 2}}{{$x}}`,
		`{{if .Flag}}{{$a := 1}}{{else}}{{$a}}{{end}}`,
		`{{define "t"}}{{.}}{{end}}<p title="{{template "t" .Title}}">`,
		`{{1.5}}`,
		`{{eq .Items}}`,
		`{{.Title 1}}`,
		`{{if .Title | len}}x{{end}}`,
		`<p {{.Title}}>`,
	} {
		tpl := template.Must(template.New("x").Parse(src))
		if c, err := Compile(tpl, "x"); err == nil {
			t.Errorf("%s: compiled (%p)", src, c)
		}
	}
	// One html/template cannot escape is refused, and executing it still
	// fails with html/template's own error.
	tpl := template.Must(template.New("x").Parse(`<a href="{{.Title}}`))
	if _, err := Compile(tpl, "x"); err == nil || !strings.Contains(err.Error(), "cannot be escaped") {
		t.Errorf("unescapable template: %v", err)
	}
	err := tpl.ExecuteTemplate(io.Discard, "x", samplePage())
	if err == nil || !strings.Contains(err.Error(), "ends in a non-text context") {
		t.Errorf("unescapable template, executed: %v", err)
	}
}

// TestCompileRunsNothing: Compile has a template escaped without
// executing it: a template that would run for ages with nil data (a
// user's override, say) compiles at once. With the template executed,
// this test does not end.
func TestCompileRunsNothing(t *testing.T) {
	tpl := template.Must(template.New("x").Parse(`{{if .}}<p>{{.}}</p>{{else}}{{range 1000000000000000}}{{end}}{{end}}`))
	c, err := Compile(tpl, "x")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := c.Execute(&out, "<page>"); err != nil || out.String() != "<p>&lt;page&gt;</p>" {
		t.Errorf("got %q (%v)", out.String(), err)
	}
}

// TestFallback: data the program cannot render exactly (a method, a map's
// key, an error of text/template's) is rendered by html/template, with
// its bytes and its error.
func TestFallback(t *testing.T) {
	for _, tc := range []struct {
		src  string
		data any
	}{
		{`<p>{{.Title}}</p>`, &methods{Name: "m"}},
		{`<p>{{.Name}}</p>`, map[string]string{"Name": "map"}},
		{`<p>{{.Missing}}</p>`, samplePage()},
		{`<p>{{.private}}</p>`, samplePage()},
		{`<p>{{.NilPtr.Name}}</p>`, samplePage()},
		{`<p>{{.Deep}}</p>`, samplePage()},
		{`<p>{{range .Map}}{{.}}{{end}}</p>`, samplePage()},
		{`<p>{{range .Count}}{{.}}{{end}}</p>`, samplePage()},
		{`<p>{{range .Ptr}}{{.}}{{end}}</p>`, samplePage()},
		{`<p>{{len .NilPtr}}</p>`, samplePage()},
		{`<p>{{len .Count}}</p>`, samplePage()},
		{`<p>{{eq .Title 1}}</p>`, samplePage()},
		{`<p>{{eq .Ptr .Ptr}}</p>`, samplePage()},
		{`<p title="{{.Inner.HTML}}">`, samplePage()},
		{`<p>{{with .Inner}}{{.HTML}}{{.Nope}}{{end}}</p>`, samplePage()},
	} {
		tpl := template.Must(template.New("x").Parse(tc.src))
		c, err := Compile(tpl, "x")
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var ran bytes.Buffer
		if c.run(&ran, tc.data) {
			t.Errorf("%s: ran, giving %q", tc.src, ran.Bytes())
		}
		var want, got bytes.Buffer
		werr := tpl.Execute(&want, tc.data)
		before := Fallbacks()
		gerr := c.Execute(&got, tc.data)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s:\n compiled:      %q (%v)\n html/template: %q (%v)", tc.src, got.Bytes(), gerr, want.Bytes(), werr)
		}
		if Fallbacks() != before+1 {
			t.Errorf("%s: not counted", tc.src)
		}
	}
}

// TestCrosscheck: Crosscheck catches a compiled page that differs from
// html/template's.
func TestCrosscheck(t *testing.T) {
	tpl := template.Must(template.New("x").Parse(`<p>{{.}}</p>`))
	c, err := Compile(tpl, "x")
	if err != nil {
		t.Fatal(err)
	}
	Crosscheck(true)
	defer Crosscheck(false)
	var buf bytes.Buffer
	if err := c.Execute(&buf, "a<b"); err != nil {
		t.Fatal(err)
	}
	// A program that writes other bytes.
	c.main.body = func(s *state, _ reflect.Value) ctl {
		s.out.WriteString("<p>a&lt;c</p>")
		return next
	}
	buf.Reset()
	if err := c.Execute(&buf, "a<b"); err == nil || !strings.Contains(err.Error(), "differs from html/template's at byte 8") {
		t.Fatalf("a different page: %v", err)
	}
}

// TestUserSetUntouched: Compile leaves the set it is given as it was (it
// escapes a copy), and refuses a set that defines or calls a template of
// the name its copy adds, which html/template then runs as the user wrote
// it: an error for a call to an undefined one, the user's text for a
// defined one.
func TestUserSetUntouched(t *testing.T) {
	tpl := template.Must(template.New("x").Parse(`<p>{{.}}</p>`))
	if _, err := Compile(tpl, "x"); err != nil {
		t.Fatal(err)
	}
	if tpl.Lookup(escaperName) != nil {
		t.Errorf("Compile added %q to the set", escaperName)
	}
	for _, tc := range []struct{ src, want, wantErr string }{
		{`{{define "layout"}}<p>{{template "htmlexec: escape" .}}</p>{{end}}`, "", `no such template "htmlexec: escape"`},
		{`{{define "layout"}}<p>{{if .}}{{template "htmlexec: escape" .}}{{end}}</p>{{end}}{{define "htmlexec: escape"}}user {{.}}{{end}}`, "<p>user &lt;x&gt;</p>", ""},
	} {
		tpl := template.Must(template.New("t").Parse(tc.src))
		if _, err := Compile(tpl, "layout"); err == nil {
			t.Errorf("%s: compiled", tc.src)
		}
		var out bytes.Buffer
		err := tpl.ExecuteTemplate(&out, "layout", "<x>")
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want an error %q", tc.src, err, tc.wantErr)
			}
			continue
		}
		if err != nil || out.String() != tc.want {
			t.Errorf("%s: %q (%v), want %q", tc.src, out.String(), err, tc.want)
		}
	}
}
