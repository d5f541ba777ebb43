package markdown

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# Über uns", `<h1 id="über-uns">Über uns</h1>`},
		{"## 東京の天気", `<h2 id="東京の天気">東京の天気</h2>`},
		{"# A\n# A", `<h1 id="a-1">A</h1>`},
		{"| a | b |\n|---|---|\n| 1 | 2 |", "<table>"},
		{"- [x] done", `<input checked="" disabled="" type="checkbox"`},
		{"see https://example.com", `<a href="https://example.com">https://example.com</a>`},
		{"[ok](https://example.com/x?a=1&b=2)", `href="https://example.com/x?a=1&amp;b=2"`},
	} {
		got, err := Render(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got), tc.want) {
			t.Errorf("Render(%q) = %s, want it to contain %s", tc.in, got, tc.want)
		}
	}
}

// TestHostileIsInert: raw HTML, script, javascript: and data: links never
// come through.
func TestHostileIsInert(t *testing.T) {
	for _, in := range []string{
		"<script>alert(1)</script>",
		"hi <img src=x onerror=alert(1)>",
		"[x](javascript:alert(1))",
		"[x](JavaScript:alert(1))",
		"[x]( javascript:alert(1) )",
		"[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
		"![x](javascript:alert(1))",
		"<javascript:alert(1)>",
		"[x](vbscript:msgbox(1))",
		"<a href=\"javascript:alert(1)\">x</a>",
		"<iframe src=https://evil.example></iframe>",
		"[x](\"onmouseover=alert(1))",
	} {
		got, err := Render(in)
		if err != nil {
			t.Fatal(err)
		}
		low := strings.ToLower(string(got))
		for _, bad := range []string{"<script", "<iframe", "<img src=\"x\"", " onerror=", " onmouseover=", "href=\"javascript", "href=\"vbscript", "href=\"data:", "src=\"javascript", "href=\" javascript"} {
			if strings.Contains(low, bad) {
				t.Errorf("Render(%q) = %s: contains %s", in, got, bad)
			}
		}
	}
}

func TestSafeURL(t *testing.T) {
	for u, want := range map[string]bool{
		"https://a.example": true, "http://a.example": true, "mailto:x@example.com": true,
		"/agents/x/": true, "../x": true, "#frag": true,
		"javascript:alert(1)": false, " JAVASCRIPT:alert(1)": false, "data:text/html,x": false,
		"file:///etc/passwd": false, "vbscript:x": false,
	} {
		if got := SafeURL(u); got != want {
			t.Errorf("SafeURL(%q) = %v", u, got)
		}
	}
}

func TestReservedAndSharedIDs(t *testing.T) {
	ids := NewIDs("agents", "count")
	a, _ := RenderWith(ids, "## Agents\n## Usage")
	b, _ := RenderWith(ids, "## Usage")
	if !strings.Contains(string(a), `id="agents-1"`) || !strings.Contains(string(a), `id="usage"`) || !strings.Contains(string(b), `id="usage-1"`) {
		t.Errorf("got %s / %s", a, b)
	}
}
