package htmlexec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile are strings every escaper is tried on.
var hostile = []string{
	"", "plain text", `"quoted" & 'single'`, "<script>alert(1)</script>", "</script><!--", "*/ x /*",
	"javascript:alert(1)", "JavaScript:x", " javascript:x", "data:text/html,<b>", "http://a.example/b?c=d&e=f#g",
	"HTTPS://A.EXAMPLE/", "mailto:a@b.example", "/a:b", "a/b:c", "//host/x", "?q=1&r=2", "#frag",
	"%41%zz%4", "%%", "a+b=c;d,e", "[]@!$'()*", "&amp; &lt;", "x\x00y", "\t\n\r\f\v", "\u2028\u2029",
	"\xff\xfe invalid \xc3", "é ü 日本 🙂", "\ufdd0\uffff", "{\"a\":1}", "1e9", "null", "$x_9",
	strings.Repeat("<&>\"'+", 300),
}

// stringer is a fmt.Stringer; badJSON a json.Marshaler that fails.
type (
	stringer string
	named    string
	badJSON  string
	holder   struct{ V any }
)

func (s stringer) String() string            { return "str:" + string(s) }
func (badJSON) MarshalJSON() ([]byte, error) { return nil, errors.New("no </script> */ here") }

// valuesOf are values of every type a page's data may hold, from s.
func valuesOf(s string) []any {
	p := s
	sp := stringer(s)
	return []any{
		s, template.HTML(s), template.HTMLAttr(s), template.URL(s), template.JS(s), template.JSStr(s),
		template.CSS(s), template.Srcset(s), named(s), stringer(s), &sp, (*stringer)(nil), &p, (*string)(nil),
		nil, len(s), -7, int64(1) << 40, uint8(3), 2.5, true, false, []string{s, "x"}, map[string]any{"k": s, "n": 1},
		errors.New(s), struct{ A string }{s}, json.RawMessage(`"x"`), badJSON(s), []byte(s),
		// JSON-LD: maps of strings, maps and nils.
		map[string]any{"@type": s, s: map[string]any{"name": s, "url": nil, "": map[string]any{}}, "z" + s: "a"},
		map[string]any(nil), map[string]any{"n": nil, "m": map[string]any(nil)},
	}
}

// escapedChain is the escapers html/template put after {{.V}} in t.
func escapedChain(t *template.Template) string {
	m := regexp.MustCompile(`\{\{\.V \| ([^}]*)\}\}`).FindStringSubmatch(t.Tree.Root.String())
	if m == nil {
		return ""
	}
	return m[1]
}

// escaperTemplate is a context's template and its compiled program.
type escaperTemplate struct {
	src string
	tpl *template.Template
	c   *Template
}

// compileContexts compiles every context's template.
func compileContexts(t testing.TB) []escaperTemplate {
	var out []escaperTemplate
	for _, ctx := range escaperContexts {
		tpl := template.Must(template.New("x").Parse(ctx.src))
		c, err := Compile(tpl, "x")
		if err != nil {
			t.Fatal(err)
		}
		// Compile escaped a copy; executing escapes the set itself.
		if err := tpl.Execute(io.Discard, holder{}); err != nil {
			t.Fatal(err)
		}
		if got := escapedChain(tpl); got != ctx.chain {
			t.Fatalf("%s: html/template escapes with %q, not %q", ctx.src, got, ctx.chain)
		}
		out = append(out, escaperTemplate{ctx.src, tpl, c})
	}
	return out
}

// compareEscaper renders e with each value from s by html/template and
// by its compiled program.
func compareEscaper(t *testing.T, e escaperTemplate, s string) {
	for _, v := range valuesOf(s) {
		var want, got bytes.Buffer
		werr := e.tpl.Execute(&want, holder{V: v})
		gerr := e.c.Execute(&got, holder{V: v})
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%s with %T %q:\n compiled:      %q (%v)\n html/template: %q (%v)", e.src, v, s, got.Bytes(), gerr, want.Bytes(), werr)
		}
	}
}

// TestEscapers: each escaper, in the context where html/template puts
// it, gives html/template's bytes for every hostile string as a value of
// every type.
func TestEscapers(t *testing.T) {
	for _, e := range compileContexts(t) {
		for _, s := range hostile {
			compareEscaper(t, e, s)
		}
	}
}

// TestEscapersCompiled: the compiled programs run strings, ints and the
// html/template types themselves, but for HTML in an attribute (which
// html/template runs).
func TestEscapersCompiled(t *testing.T) {
	for _, ctx := range escaperContexts {
		tpl := template.Must(template.New("x").Parse(ctx.src))
		c, err := Compile(tpl, "x")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{"a<b", 7, true, template.HTML("<b>x</b>"), template.URL("javascript:x"), nil, stringer("s")} {
			var buf bytes.Buffer
			_, isHTML := v.(template.HTML)
			// HTML reaching attrescaper first has its tags stripped.
			want := !isHTML || ctx.chain != "_html_template_attrescaper"
			if got := c.run(&buf, holder{V: v}); got != want {
				t.Errorf("%s with %T: ran %v, want %v", ctx.src, v, got, want)
			}
		}
	}
}

// FuzzEscapers holds every escaper to html/template's on any string.
func FuzzEscapers(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	contexts := compileContexts(f)
	f.Fuzz(func(t *testing.T, s string) {
		for _, e := range contexts {
			compareEscaper(t, e, s)
		}
	})
}

// TestAppendJSON: appendJSON gives json.Marshal's bytes for the values it
// takes, and refuses the others.
func TestAppendJSON(t *testing.T) {
	deep := map[string]any{"x": "y"}
	for range 150 {
		deep = map[string]any{"d": deep}
	}
	for _, s := range hostile {
		for _, v := range []any{s, nil, map[string]any{s: s, "a" + s: map[string]any{"b": nil, s: "c"}}, deep} {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendJSON(nil, v, 0)
			if v, isMap := v.(map[string]any); isMap && v["d"] != nil {
				if ok {
					t.Error("a map 150 deep: encoded")
				}
				continue
			}
			if !utf8.ValidString(s) && v != nil {
				// Left to encoding/json, whose versions differ here.
				if ok {
					t.Errorf("%q, not UTF-8: encoded", s)
				}
				continue
			}
			if !ok || !bytes.Equal(got, want) {
				t.Errorf("%q: %q (%v), json.Marshal: %q", s, got, ok, want)
			}
		}
	}
	for _, v := range []any{1, true, []string{"a"}, map[string]string{"a": "b"}, map[string]any{"n": 1}, template.HTML("x")} {
		if _, ok := appendJSON(nil, v, 0); ok {
			t.Errorf("%T: encoded", v)
		}
	}
}

// TestAgrees: the escapers give this Go's html/template's bytes (Agrees
// is nil), and an escaper that does not is caught.
func TestAgrees(t *testing.T) {
	if err := Agrees(); err != nil {
		t.Fatal(err)
	}
	// Agrees tries every escaper.
	for _, name := range append(slices.Collect(maps.Keys(escapers)), jsValEscaperName) {
		found := false
		for _, ctx := range escaperContexts[:escapersAlone] {
			found = found || strings.Contains(ctx.chain, name)
		}
		if !found {
			t.Errorf("Agrees does not try %s", name)
		}
	}
	const name = "_html_template_htmlescaper"
	good := escapers[name]
	t.Cleanup(func() { escapers[name] = good })
	// The RCDATA escaper escapes what html/template leaves as it is in
	// text: typed HTML.
	escapers[name] = escapers["_html_template_rcdataescaper"]
	if err := agree(escaperContexts[:1], hostile); err == nil {
		t.Error("an escaper of another context agreed")
	}
}

// FuzzAppendJSON holds appendJSON to json.Marshal on any string, as a
// key and as a value.
func FuzzAppendJSON(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := map[string]any{s: s, "k": map[string]any{s: nil}}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendJSON(nil, v, 0)
		if !utf8.ValidString(s) {
			// Left to encoding/json, whose versions differ here.
			if ok {
				t.Fatalf("%q, not UTF-8: encoded", s)
			}
			return
		}
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("%q: %q (%v), json.Marshal: %q", s, got, ok, want)
		}
	})
}

// TestHasLineSeparator: hasLineSeparator finds U+2028 and U+2029 as a
// rune by rune reading does, in valid and invalid UTF-8.
func TestHasLineSeparator(t *testing.T) {
	for _, s := range append(hostile, "\xe2\x80", "\xe2\xe2\x80\xa8", "\xf0\xe2\x80\xa9", "a\xe2\x80\xa7", "\u2029x", "\xe2\x80\xa8") {
		want := strings.ContainsFunc(s, func(r rune) bool { return r == '\u2028' || r == '\u2029' })
		if got := hasLineSeparator([]byte(s)); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
}
