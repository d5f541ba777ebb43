package htmlexec

import (
	"bytes"
	"fmt"
	"html/template"
	"sync"
)

// The escapers of this package are copies of html/template's (and of
// encoding/json's string encoding, for JSON-LD): a Go release that
// changes those would leave compiled pages behind. Agrees holds the
// copies to the html/template of the Go that built the program, once per
// process, before anything is compiled.

// escaperContexts are tiny templates in each of which html/template puts
// one escaper, or the shortest chain that holds it, after {{.V}}: every
// escaper of the package (Agrees tries these), then every chain of the
// built-in templates (the tests try all).
var escaperContexts = []struct{ src, chain string }{
	{`<p>{{.V}}</p>`, "_html_template_htmlescaper"},
	{`<p title="{{.V}}">`, "_html_template_attrescaper"},
	{`<title>{{.V}}</title>`, "_html_template_rcdataescaper"},
	{`<script>var x = {{.V}};</script>`, "_html_template_jsvalescaper"},
	{`<style>p{background:url(/x{{.V}})}</style>`, "_html_template_urlnormalizer"},
	{`<style>p{background:url(/x?q={{.V}})}</style>`, "_html_template_urlescaper"},
	{`<style>p{background:url('{{.V}}')}</style>`, "_html_template_urlfilter | _html_template_urlnormalizer"},
	// The chains of the built-in templates.
	{`<a href="{{.V}}">`, "_html_template_urlfilter | _html_template_urlnormalizer | _html_template_attrescaper"},
	{`<a href="/x{{.V}}">`, "_html_template_urlnormalizer | _html_template_attrescaper"},
	{`<a href="/x?q={{.V}}">`, "_html_template_urlescaper | _html_template_attrescaper"},
	{`<a onclick="f({{.V}})">`, "_html_template_jsvalescaper | _html_template_attrescaper"},
	{`<script type="application/ld+json">{{.V}}</script>`, "_html_template_jsvalescaper"},
}

// escapersAlone is how many of escaperContexts hold each escaper alone:
// a chain of escapers that each agree with html/template's agrees.
const escapersAlone = 7

// agreeStrings are the strings Agrees tries each escaper on: one for
// each way the escapers treat text (the tests try many more).
var agreeStrings = []string{
	"", "plain text", `"quoted" & 'single' <b>`, "</script><!-- */", "javascript:alert(1)", " JavaScript:x",
	"data:text/html,<b>", "http://a.example/b?c=d&e=f#g", "%41%zz%4 a+b=c;d,e []@!$'()*", "x\x00y\t\n\r\f\v",
	"\u2028\u2029", "\xff\xfe invalid \xc3", "é ü 日本 🙂 \ufdd0", "{\"a\":1}", "1e9", "$x_9",
}

// agreeData is the data of an escaper context.
type agreeData struct{ V any }

// agreeValues are values of the kinds pages hold, from s.
func agreeValues(s string) []any {
	return []any{
		s, template.HTML(s), template.URL(s), nil, len(s),
		map[string]any{"@type": s, s: map[string]any{"name": s, "url": nil}},
	}
}

// Agrees reports why the package's escapers do not give the bytes of
// html/template (of the Go that built the program) for every hostile
// string, as a value of each kind pages hold, in each escaper context;
// nil when they do. It checks once per process (about 3 ms).
var Agrees = sync.OnceValue(func() error { return agree(escaperContexts[:escapersAlone], agreeStrings) })

// agree is Agrees over the contexts and strings given.
func agree(contexts []struct{ src, chain string }, strs []string) error {
	for _, ctx := range contexts {
		tpl, err := template.New("x").Parse(ctx.src)
		if err != nil {
			return err
		}
		c, err := compile(tpl, "x")
		if err != nil {
			return fmt.Errorf("htmlexec: %s: %w", ctx.src, err)
		}
		for _, s := range strs {
			for _, v := range agreeValues(s) {
				var got, want bytes.Buffer
				d := agreeData{V: v}
				if !c.run(&got, d) {
					continue // html/template renders it
				}
				if err := tpl.Execute(&want, d); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
					return fmt.Errorf("htmlexec: the escapers differ from html/template's: %s with %T %.40q: %.60q, not %.60q (%v)",
						ctx.src, v, s, got.Bytes(), want.Bytes(), err)
				}
			}
		}
	}
	return nil
}
