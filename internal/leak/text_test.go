package leak

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestNoFalsePositives: ordinary text that shares words with private text,
// and URLs and ids that only begin like a private one, are not found.
func TestNoFalsePositives(t *testing.T) {
	for _, tc := range []struct{ name, file, data string }{
		{"ordinary words", "index.html", "<p>We export invoices to accounting tools in bulk, every month, in one file.</p>"},
		{"ordinary words, upper case", "site/index.md", "BULK EXPORTS TO ACCOUNTING FIRMS. A MONTH OF INVOICES."},
		{"a longer path segment", "site/index.md", "See https://example.com/docs/ledger-lens/customers-overview."},
		{"a longer path segment in a link", "index.html", `<a href="https://example.com/docs/ledger-lens/customers-overview">x</a>`},
		{"the URL's parent", "index.html", `<a href="https://example.com/docs/ledger-lens/">docs</a>`},
		{"another port", "site/index.md", "https://example.com:8443/docs/ledger-lens/customers"},
		{"another host", "site/index.md", "https://example.company/docs/ledger-lens/customers"},
		{"another host, same suffix", "site/index.md", "https://docs.example.com/docs/ledger-lens/customers"},
		{"longer ids", "index.html", "<code>private-exporter</code> <code>private-export-v2</code> <code>my-private-export</code>"},
		{"words, not the id", "site/index.md", "Private export is not offered."},
		{"table cells separate words", "index.html", "<table><tr><td>Bulk export to acc</td><td>ounting</td></tr></table>"},
		{"a line break separates words", "index.html", "<p>private<br>-export</p>"},
		{"a title is not in the text", "index.html", `<p><span title="Bulk">export to accounting</span></p>`},
		{"a class is not text", "index.html", `<p class="bulk">export to accounting</p>`},
		{"a comment in a script", "search.js", "// https://example.com/docs/ledger-lens is where the docs are\nconst a = 1;"},
		{"CSS escapes of other text", "style.css", `.x::after { content: "\2014  export"; }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := findAll(tc.file, tc.data); len(got) > 0 {
				t.Errorf("%s: %q: found %q", tc.file, tc.data, got)
			}
		})
	}
}

// TestExemptionNormalized: public text written another way still exempts.
func TestExemptionNormalized(t *testing.T) {
	for _, tc := range []struct {
		public []string
		s      string
	}{
		{[]string{"HTTP://Example.com:443/docs/ledger-lens/customers"}, privURL},
		{[]string{"The bulk export to accounting skill"}, privSentence},
		{[]string{"https://example.com/docs/ledger-lens/customers/guide"}, privURL},
		{[]string{"Exports a month of extracted invoices in one ﬁle. More."}, privFile},
	} {
		if !publicHolds(tc.public, tc.s) {
			t.Errorf("public %q does not hold %q", tc.public, tc.s)
		}
	}
}

// TestDefaultIgnorable: the generated table is the property as
// DerivedCoreProperties.txt derives it, for every code point, from the
// tables of Go's unicode package; and it holds what the old hand list
// missed, and nothing of the neighbours that are not ignorable.
func TestDefaultIgnorable(t *testing.T) {
	derived := func(r rune) bool {
		in := unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
			unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r)
		out := unicode.Is(unicode.White_Space, r) ||
			(r >= 0xFFF9 && r <= 0xFFFB) || (r >= 0x13430 && r <= 0x1343F) ||
			unicode.Is(unicode.Prepended_Concatenation_Mark, r)
		return in && !out
	}
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		got := unicode.Is(DefaultIgnorable, r)
		if got != derived(r) {
			t.Errorf("U+%04X: in the table %v, derived %v (go generate?)", r, got, !got)
		}
		if got {
			n++
		}
	}
	if n != 4174 {
		t.Errorf("%d code points, want 4174 (Unicode 15.0.0)", n)
	}
	for _, r := range []rune{
		0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180E, 0x180F,
		0x200B, 0x200E, 0x200F, 0x202A, 0x202E, 0x2060, 0x2062, 0x2063, 0x2065, 0x206F,
		0x3164, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0, 0xFFF8, 0x1BCA0, 0x1BCA3,
		0x1D173, 0x1D17A, 0xE0000, 0xE0001, 0xE0020, 0xE007F, 0xE0100, 0xE01EF, 0xE0FFF,
	} {
		if !unicode.Is(DefaultIgnorable, r) {
			t.Errorf("U+%04X is default-ignorable", r)
		}
	}
	for _, r := range []rune{
		' ', 0x00A0, 0x0600, 0x0605, 0x06DD, 0x110BD, // white space, prepended concatenation marks
		0x1100, 0x115E, 0x1161, 0x11A7, 0x11FF, // Hangul jamo other than the fillers
		0x17B3, 0x17B6, 0x180A, 0x1810, 0x200A, 0x2010, 0x2028, 0x2029, 0x205F,
		0xFE10, 0xFFF9, 0xFFFB, 0xFFFC, 0x13430, 0x1343F, 0x1D172, 0x1D17B, 0xE1000,
	} {
		if unicode.Is(DefaultIgnorable, r) {
			t.Errorf("U+%04X is not default-ignorable", r)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Bulk\u00A0 Export\n\tTO":                                         "bulk export to",
		"Re\u0301sume\u0301":                                              "résumé",
		"ＡＢＣ ﬁle ℌ ㎏ Straße":                                              "abc file h kg strasse",
		"a\u2063b\U000E0020c\u034Fd\u3164e\uFFA0f":                        "abcdef",
		"e\u034F\u0301":                                                   "é",
		"see HTTPS://Docs.Example.COM.:443/a/./b//c/../d/ now":            "see //docs.example.com/a/b/d now",
		"(//example.com:80/x?q=1#f)":                                      "(//example.com/x?q=1#f)",
		"http://user@example.com/a, then https://[::1]:443/b.":            "//example.com/a, then //[::1]/b.",
		"ftp://example.com/a // comment a//b https://:443/ https://x.y:z": "ftp://example.com/a // comment a//b https://:443/ https://x.y:z",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`\70 a\000070 b\70  c\0 \110000 \d800 \`: "pa" + "pb" + "p c" + "\uFFFD\uFFFD\uFFFD",
		"\\70\r\nx\\\r\ny\\\"":                   "pxy\"",
	} {
		if got := cssUnescape(in); got != want {
			t.Errorf("cssUnescape(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		`\u0070\u{70}\u{00000070}\x70\160\1600\67\t\/\q`: "pppppp0" + "7\t/q",
		`\uD83D\uDE00 \uD83D x \u{110000} \u12 \x7`:      "\U0001F600 \uFFFD x u{110000} u12 x7",
		"a\\\nb\\\r\nc\\\u2028d\\":                       "abcd",
	} {
		if got := jsUnescape(in); got != want {
			t.Errorf("jsUnescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTextHTML: what Text makes of a page, word by word.
func TestTextHTML(t *testing.T) {
	page := `<!doctype html><html><head><title>T&amp;C</title><meta name="description" content="Desc">` +
		`<style>a::after{content:"\41 "}</style></head><body><h1>Wel<em>come</em></h1><!-- no -->` +
		`<p>one<br>two <a href="HTTP://X.example:80/a/">three</a><img alt="Four" src="//cdn.example/i.png"></p>` +
		`<input type="hidden" value="secret-ish"><input value="Five"><div data-x="no">six</div></body></html>`
	got := strings.Fields(string(Text("page.html", []byte(page))))
	// The comment is not shown but is published: it is read with the
	// attributes; data-x: CSS attr() shows it.
	want := strings.Fields(`t&c a::after{content:"a"} welcome one two three six desc no //x.example/a four //cdn.example/i.png five no`)
	if !slices.Equal(got, want) {
		t.Errorf("Text = %q,\nwant %q", got, want)
	}
}
