package leak

import (
	"testing"
	"unicode/utf8"
)

// FuzzText: reading any file as a reader would never panics, gives valid
// UTF-8 for valid input, and finding private text in it never panics.
func FuzzText(f *testing.F) {
	f.Add("index.html", `<p title="a&#112;b">pri<tt>vate</tt>-export <a href="HTTPS://Ex.com:443/a/./b">x</a></p><iframe srcdoc="&lt;b&gt;x">`)
	f.Add("style.css", `.x::after { content: "\70 rivate" "-export"; }`)
	f.Add("search.js", `const s = "\u{70}rivate\x2dexport\160";`)
	f.Add("site/index.md", "批量导出 docs.example.com/a/../b user@h.example/x Bulk\u00adexport\u2010x")
	fd := New([]string{"Bulk export to accounting"}, []string{"private-export", "https://example.com/docs/a"})
	f.Fuzz(func(t *testing.T, name, data string) {
		out := Text(name, []byte(data))
		if utf8.ValidString(data) && !utf8.Valid(out) {
			t.Errorf("Text(%q) is not valid UTF-8: %q", data, out)
		}
		fd.Find(out)
		fd.Find([]byte(data))
	})
}
