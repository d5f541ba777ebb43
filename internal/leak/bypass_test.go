package leak

import (
	"fmt"
	"slices"
	"testing"
)

// The private text of the bypass tests: an overlay's sentence, a URL and a
// skill id, and prose with accents.
const (
	privSentence = "Bulk export to accounting"
	privFile     = "Exports a month of extracted invoices in one file."
	privAccents  = "Résumé export for naïve customers"
	privURL      = "https://example.com/docs/ledger-lens/customers"
	privID       = "private-export"
)

// findAll is what the build finds in a file: as written, and in the text a
// reader sees.
func findAll(name, data string) []string {
	f := New([]string{privSentence, privFile, privAccents}, []string{privURL, privID})
	got := f.Find([]byte(data))
	for _, s := range f.Find(textFor(name, []byte(data))) {
		if !slices.Contains(got, s) {
			got = append(got, s)
		}
	}
	return got
}

type bypassCase struct {
	name, file, data, want string
}

func runBypass(t *testing.T, cases []bypassCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := findAll(tc.file, tc.data); !slices.Contains(got, tc.want) {
				t.Errorf("%s: %q: found %q, want %q", tc.file, tc.data, got, tc.want)
			}
		})
	}
}

// TestInvisibleAndCompatibilityForms: a default-ignorable code point
// inside a word, decomposed accents, compatibility forms and letter case
// change nothing a reader sees.
func TestInvisibleAndCompatibilityForms(t *testing.T) {
	var cases []bypassCase
	for _, r := range []rune{
		// Tried on the old check.
		0x2063, 0x2062, 0x200E, 0x034F, 0xFE0F, 0x180E, 0xE0020,
		// More of Default_Ignorable_Code_Point.
		0x061C, 0x115F, 0x1160, 0x17B4, 0x180B, 0x200F, 0x202E, 0x2064, 0x2066, 0x206F,
		0x3164, 0xFE00, 0xFFA0, 0xFFF0, 0x1BCA0, 0x1D173, 0xE0001, 0xE007F, 0xE0100, 0xE0FFF,
	} {
		cases = append(cases,
			bypassCase{"U+" + hex(r) + " in Markdown", "site/index.md", "Bulk export to acc" + string(r) + "ounting.", privSentence},
			bypassCase{"U+" + hex(r) + " in HTML", "index.html", "<p>Ask for private" + string(r) + "-export</p>", privID},
		)
	}
	cases = append(cases, []bypassCase{
		{"NFD", "site/index.md", "Re\u0301sume\u0301 export for nai\u0308ve customers", privAccents},
		{"NFD with a grapheme joiner", "index.html", "<p>Re\u034F\u0301sume\u0301 export for nai\u0308ve customers</p>", privAccents},
		{"fullwidth letters", "site/index.md", "Ｂｕｌｋ ｅｘｐｏｒｔ to accounting", privSentence},
		{"fullwidth hyphen", "index.html", "<p>private－export</p>", privID},
		{"fi ligature", "site/index.md", "Exports a month of extracted invoices in one \uFB01le.", privFile},
		{"mathematical bold", "site/index.md", "𝐁𝐮𝐥𝐤 export to accounting", privSentence},
		{"circled letters", "site/index.md", "Bulk export to ⓐⓒⓒⓞⓤⓝⓣⓘⓝⓖ", privSentence},
		{"upper case", "site/index.md", "BULK EXPORT TO ACCOUNTING", privSentence},
		{"upper case id", "index.html", "<code>PRIVATE-EXPORT</code>", privID},
		{"sharp s folded", "site/index.md", "RÉSUMÉ EXPORT FOR NAÏVE CUSTOMERS", privAccents},
	}...)
	runBypass(t, cases)
}

// TestHTMLAsRead: HTML is read by a tokenizer: the attributes a reader
// sees count, character references are decoded there too, and only block
// elements separate words.
func TestHTMLAsRead(t *testing.T) {
	runBypass(t, []bypassCase{
		{"alt, decimal reference", "404.html", `<img src="x.png" alt="Bulk export to acc&#111;unting">`, privSentence},
		{"title, hex reference", "404.html", `<abbr title="Bulk&#x20;export to &#X61;ccounting">BE</abbr>`, privSentence},
		{"aria-label, named reference", "404.html", `<nav aria-label="Bulk&Tab;export to accounting"></nav>`, privSentence},
		{"placeholder", "404.html", `<input placeholder="&#x42;ulk export to accounting" name="q">`, privSentence},
		{"input value", "404.html", `<input type="submit" value="&#112;rivate-export">`, privID},
		{"meta description", "404.html", `<meta name="description" content="Bulk export to acc&#x200B;ounting">`, privSentence},
		{"href with a colon reference", "404.html", `<a href="https&#58;//example.com/docs/ledger-lens/customers">docs</a>`, privURL},
		{"tt", "404.html", `<p>Bulk export to acc<tt>oun</tt>ting</p>`, privSentence},
		{"font", "404.html", `<p>Bulk export to acc<font color="red">oun</font>ting</p>`, privSentence},
		{"label", "404.html", `<p>Bulk export to acc<label>oun</label>ting</p>`, privSentence},
		{"img", "404.html", `<p>Bulk export to acc<img src="dot.png">ounting</p>`, privSentence},
		{"big and nobr", "404.html", `<p>private<big>-</big><nobr>export</nobr></p>`, privID},
		{"a custom element", "404.html", `<p>priv<x-w>ate-ex</x-w>port</p>`, privID},
		{"upper-case tags", "404.html", `<P>Bulk export to acc<TT>oun</TT>ting</P>`, privSentence},
		{"inline script escapes", "404.html", `<script>var s = "\u0070rivate-export";</script>`, privID},
		{"inline style escapes", "404.html", `<style>p::after { content: "\70 rivate-export" }</style>`, privID},
		{"noscript read as HTML", "404.html", `<noscript><p>priv<tt>ate</tt>-export</p></noscript>`, privID},
	})
}

// TestEscapesInAssets: a style sheet's and a script's escapes are decoded.
func TestEscapesInAssets(t *testing.T) {
	runBypass(t, []bypassCase{
		{"CSS escape with a space", "style.css", `.x::after { content: "\70 rivate-export"; }`, privID},
		{"CSS escape of six digits", "style.css", `.x::after { content: "\000070rivate-export"; }`, privID},
		{"CSS escape, CR LF after it", "style.css", ".x::after { content: \"\\70\r\nrivate-export\"; }", privID},
		{"CSS escapes in a sentence", "style.css", `.x::after { content: "Bulk\20 export to \61 \63 counting"; }`, privSentence},
		{"CSS identity escape", "style.css", `.x::after { content: "pri\vate-export"; }`, privID},
		{"CSS line continuation", "style.css", ".x::after { content: \"private-ex\\\nport\"; }", privID},
		{"JS \\u", "search.js", `const s = "\u0070rivate-export";`, privID},
		{"JS \\u{}", "search.js", `const s = "\u{70}rivate-export";`, privID},
		{"JS \\u{} with zeros", "search.js", `const s = "\u{0000070}rivate-export";`, privID},
		{"JS \\x", "search.js", `const s = '\x70rivate-export';`, privID},
		{"JS octal", "search.js", `const s = "\160rivate-export";`, privID},
		{"JS identity escape", "search.js", `const s = "priv\ate-export";`, privID},
		{"JS line continuation", "search.js", "const s = \"private-ex\\\nport\";", privID},
		{"JS surrogate pair", "search.js", `const s = "\uD835\uDC01ulk export to accounting";`, privSentence},
		{"JSON \\u", "search-index.json", `{"d":"\u0042ulk export to accounting"}`, privSentence},
		{"JSON escaped slashes", "search-index.json", `{"u":"https:\/\/example.com\/docs\/ledger-lens\/customers"}`, privURL},
	})
}

// TestURLForms: the same URL written another way is the same URL.
func TestURLForms(t *testing.T) {
	var cases []bypassCase
	for _, u := range []string{
		"https://example.com:443/docs/ledger-lens/customers",
		"//example.com/docs/ledger-lens/customers",
		"http://example.com/docs/ledger-lens/customers",
		"https://example.com./docs/ledger-lens/customers",
		"https://example.com/docs/./ledger-lens/customers",
		"https://example.com/docs//ledger-lens/customers",
		"http://example.com:80/docs/ledger-lens/customers",
		"https://example.com:/docs/ledger-lens/customers",
		"HTTPS://EXAMPLE.COM/docs/ledger-lens/customers",
		"https://example.com/docs/guides/../ledger-lens/./customers",
		"https://example.com/./docs///ledger-lens/customers/",
		"https://example.com.../docs/ledger-lens/customers?tab=1",
		"https://ｅｘａｍｐｌｅ.com/docs/ledger-lens/customers",
	} {
		cases = append(cases,
			bypassCase{u + " in Markdown", "site/index.md", "See " + u + ".", privURL},
			bypassCase{u + " in a link", "index.html", `<a href="` + u + `">docs</a>`, privURL},
		)
	}
	runBypass(t, cases)
}

// TestExemptionWholeWords: public text exempts private text only where it
// holds it as a whole word, normalized as the files are.
func TestExemptionWholeWords(t *testing.T) {
	for _, tc := range []struct {
		name   string
		public []string
		s      string
		want   bool
	}{
		{"a longer path segment", []string{"See https://example.com/docs/ledger-lens/customers-overview"}, privURL, false},
		{"a longer word", []string{"Bulk export to accountings"}, privSentence, false},
		{"an id with a suffix", []string{"private-export-v2"}, privID, false},
		{"an id with a prefix", []string{"my-private-export"}, privID, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := publicHolds(tc.public, tc.s); got != tc.want {
				t.Errorf("public %q holds %q: %v, want %v", tc.public, tc.s, got, tc.want)
			}
		})
	}
}

func hex(r rune) string { return fmt.Sprintf("%04X", r) }

// TestSecondRoundBypasses: what the attack review of the reader's-view
// check got through: scripts written without spaces, URLs without a
// scheme or with user information, dashes a reader takes for hyphens,
// and markup a browser renders or follows that the check did not read.
func TestSecondRoundBypasses(t *testing.T) {
	const privZH = "每月一次把全部发票导出到客户的会计系统。"
	find := func(name, data string) []string {
		f := New([]string{privSentence, privZH}, []string{privURL, privID})
		got := f.Find([]byte(data))
		for _, s := range f.Find(textFor(name, []byte(data))) {
			if !slices.Contains(got, s) {
				got = append(got, s)
			}
		}
		return got
	}
	for _, tc := range []bypassCase{
		{"Chinese inside a sentence", "site/index.md", "我们的批量导出功能" + privZH + "欢迎使用。", privZH},
		{"an id between Chinese letters", "site/index.md", "请使用private-export功能导出发票。", privID},
		{"a URL without a scheme", "site/index.md", "Customer guide: example.com/docs/ledger-lens/customers", privURL},
		{"a URL with user information", "site/index.md", "See <https://guest@example.com/docs/ledger-lens/customers>.", privURL},
		{"U+2010 hyphen", "site/index.md", "Ask about private\u2010export today.", privID},
		{"U+2011 in a template", "index.html", "<p>private&#x2011;export</p>", privID},
		{"iframe srcdoc", "index.html", `<iframe srcdoc="&lt;p&gt;priv&amp;#97;te-export&lt;/p&gt;"></iframe>`, privID},
		{"a data- attribute shown by attr()", "index.html", `<span class="x" data-x="&#112;rivate-export"></span>`, privID},
		{"a CSS variable in a style attribute", "index.html", `<p style='--x:"\70 rivate-export"'></p>`, privID},
		{"CSS strings next to each other", "style.css", `.x::after { content: "private" "-export"; }`, privID},
		{"a tab in a link", "index.html", `<a href="https://example.com/docs/ledger-lens/cust&#9;omers">x</a>`, privURL},
		{"backslashes in a link", "index.html", `<a href="https:\\example.com\docs\ledger-lens\customers">x</a>`, privURL},
		{"Cyrillic look-alikes in a sentence", "site/index.md", "Bulk \u0435xport t\u043e acc\u043eunting.", privSentence},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := find(tc.file, tc.data); !slices.Contains(got, tc.want) {
				t.Errorf("%s: %q: found %q, want %q", tc.file, tc.data, got, tc.want)
			}
		})
	}
	// Another host whose name ends like the private one's is not it.
	if got := find("site/index.md", "See docs.example.com/docs/ledger-lens/customers today."); slices.Contains(got, privURL) {
		t.Errorf("another host: found %q", got)
	}
}

// TestFourthRoundBypasses: a private sentence shown backwards by a
// right-to-left override, published without its last words, or
// hyphenated across a line is what a reader reads, and is found.
func TestFourthRoundBypasses(t *testing.T) {
	const privLong = "Escalates refunds above five thousand euros to the finance on-call rota overnight."
	find := func(name, data string) []string {
		f := New(Pieces(privLong), []string{privID})
		got := f.Find([]byte(data))
		for _, s := range f.Find(textFor(name, []byte(data))) {
			if !slices.Contains(got, s) {
				got = append(got, s)
			}
		}
		return got
	}
	reversed := func(s string) string {
		r := []rune(s)
		slices.Reverse(r)
		return string(r)
	}
	for _, tc := range []struct{ name, file, data string }{
		{"a right-to-left override in Markdown", "site/index.md", "Our policy: \u202e" + reversed(privLong) + "\u202c Thanks."},
		{"an override up to the end of the line", "site/index.md", "\u202e" + reversed("Escalates refunds above five thousand euros to the finance") + "\nmore"},
		{"bdo dir=rtl in a template", "index.html", `<p>Policy: <bdo dir="rtl">` + reversed("Escalates refunds above five thousand euros to the finance on-call rota") + `</bdo></p>`},
		{"the last words cut off", "site/index.md", "Escalates refunds above five thousand euros to the finance"},
		{"the first words cut off", "index.html", "<p>five thousand euros to the finance on-call rota overnight</p>"},
		{"hyphenated across a line", "site/index.md", "Escalates refunds above five thou-\nsand euros to the fi-\nnance on-call rota overnight."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := find(tc.file, tc.data); len(got) == 0 {
				t.Errorf("%s: %q: found nothing", tc.file, tc.data)
			}
		})
	}
	// Fewer words in a row than a window, or the words in another order,
	// are not the sentence.
	for _, data := range []string{
		"We escalate refunds above five thousand euros.",
		"The finance rota is on call overnight; refunds above five thousand euros escalate.",
	} {
		if got := find("site/index.md", data); len(got) != 0 {
			t.Errorf("%q: found %q", data, got)
		}
	}
	if got := find("index.html", "<p>Ask for private-\nexport now</p>"); !slices.Contains(got, privID) {
		t.Errorf("an id hyphenated across a line: found %q", got)
	}
}

// TestFifthRoundBypasses: a private URL with percent-encoded letters, a
// word split by a hidden element, and a comment written with character
// references.
func TestFifthRoundBypasses(t *testing.T) {
	runBypass(t, []bypassCase{
		{"an encoded letter in the path", "index.html", `<a href="https://example.com/docs/ledger-lens/%63ustomers">x</a>`, privURL},
		{"an encoded letter, upper-case hex", "index.html", `<a href="https://example.com/docs/ledger-lens/cust%6Fmers">x</a>`, privURL},
		{"an encoded hyphen", "site/index.md", "See https://example.com/docs/ledger%2Dlens/customers now.", privURL},
		{"an encoded letter in the host", "index.html", `<a href="https://ex%61mple.com/docs/ledger-lens/customers">x</a>`, privURL},
		{"an encoded trailing dot", "index.html", `<a href="https://example.com%2e/docs/ledger-lens/customers">x</a>`, privURL},
		{"a hidden span inside a word", "index.html", `<p>Bulk export to acc<span hidden>zz</span>ounting</p>`, privSentence},
		{"display:none inside a word", "index.html", `<p>Bulk export to acc<span style="display: none">zz</span>ounting</p>`, privSentence},
		{"nested hidden spans", "index.html", `<p>Bulk export to acc<b style="visibility:hidden">z<b>z</b>z</b>ounting</p>`, privSentence},
		{"a comment with references", "index.html", `<!-- Bulk&#32;export to accounting -->`, privSentence},
		{"a bdo shown backwards", "index.html", `<p><bdo dir="rtl">gnitnuocca ot tropxe kluB</bdo></p>`, privSentence},
	})
	// Another escape (an encoded slash) is another URL to a server.
	if got := findAll("site/index.md", "See https://example.com/docs/ledger-lens%2Fcustomers now."); slices.Contains(got, privURL) {
		t.Errorf("an encoded slash: found %q", got)
	}
}

// TestSixthRoundBypasses: a second attack on the reader's view: URL forms
// a browser still follows there, sentences of scripts without spaces,
// more ways to hide or turn text around, letters of other scripts, text
// a script joins, and words run together.
func TestSixthRoundBypasses(t *testing.T) {
	runBypass(t, []bypassCase{
		{"http:/ with one slash", "site/index.md", "[docs](http:/example.com/docs/ledger-lens/customers)", privURL},
		{"an ideographic full stop in the host", "site/index.md", "[docs](https://example。com/docs/ledger-lens/customers)", privURL},
		{"the full stop percent-encoded", "index.html", `<a href="https://example%E3%80%82com/docs/ledger-lens/customers">x</a>`, privURL},
		{"a port with a leading zero", "index.html", `<a href="https://example.com:0443/docs/ledger-lens/customers">x</a>`, privURL},
		{"a relative link under <base>", "index.html", `<base href="https://example.com/docs/ledger-lens/"><a href="customers">x</a>`, privURL},
		{"font-size:0 inside a word", "index.html", `<p>Bulk export to acc<span style="font-size:0">zz</span>ounting</p>`, privSentence},
		{"opacity:0 inside a word", "index.html", `<p>Bulk export to acc<span style="position:absolute;opacity:0">zz</span>ounting</p>`, privSentence},
		{"a template inside a word", "index.html", `<p>Bulk export to acc<template>zz</template>ounting</p>`, privSentence},
		{"CSS bidi override", "index.html", `<p style="unicode-bidi: bidi-override; direction: rtl">gnitnuocca ot tropxe kluB</p>`, privSentence},
		{"a Cherokee E", "index.html", "<p>Bulk \u13ACxport to accounting</p>", privSentence},
		{"a Lisu E", "index.html", "<p>Bulk \uA4F0xport to accounting</p>", privSentence},
		{"an estimated sign for e", "site/index.md", "Bulk \u212Export to accounting", privSentence},
		{"strings joined in JavaScript", "search.js", `const t = "Bulk export " + 'to accounting';`, privSentence},
		{"references written through innerHTML", "search.js", `el.innerHTML = "Bulk&#32;export&nbsp;to accounting";`, privSentence},
		{"zero-width spaces between the words", "site/index.md", "Exports\u200ba\u200bmonth\u200bof\u200bextracted\u200binvoices\u200bin\u200bone\u200bfile.", privFile},
	})
	// The second of two sentences of a script without spaces.
	const privJA = "月次の請求書をまとめて会計ソフトへ一括で出力します。監査証跡と顧客ごとの保存地域にも対応しています。"
	f := New(Pieces(privJA), nil)
	if got := f.Find(textFor("site/notes.md", []byte("新機能：監査証跡と顧客ごとの保存地域にも対応しています。"))); len(got) == 0 {
		t.Errorf("the second Japanese sentence alone: found nothing")
	}
}

// TestSeventhRoundBypasses: a short private sentence with another end or
// none, or a footnote's mark after it, and text inside a data: URL.
func TestSeventhRoundBypasses(t *testing.T) {
	const privShort = "Runs jobs first for the pro plan."
	find := func(name, data string) []string {
		f := New(Pieces(privShort), nil)
		got := f.Find([]byte(data))
		for _, s := range f.Find(textFor(name, []byte(data))) {
			if !slices.Contains(got, s) {
				got = append(got, s)
			}
		}
		return got
	}
	for _, tc := range []struct{ name, file, data string }{
		{"no full stop", "site/a.md", "Runs jobs first for the pro plan"},
		{"an exclamation mark", "site/a.md", "Runs jobs first for the pro plan!"},
		{"inside another sentence", "site/a.md", "We runs jobs first for the pro plan, daily."},
		{"a footnote's mark", "index.html", `<p>Runs jobs first for the pro plan<sup id="fnref:1"><a href="#fn:1">1</a></sup>.</p>`},
		{"a data: URL in base64", "index.html", `<iframe src="data:text/html;base64,UnVucyBqb2JzIGZpcnN0IGZvciB0aGUgcHJvIHBsYW4u"></iframe>`},
		{"a data: URL percent-encoded", "index.html", `<iframe src="data:text/html,Runs%20jobs%20first%20for%20the%20pro%20plan."></iframe>`},
		{"a data: URL of plain text", "index.html", `<a href="data:,Runs%20jobs%20first%20for%20the%20pro%20plan">x</a>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := find(tc.file, tc.data); len(got) == 0 {
				t.Errorf("%s: %q: found nothing", tc.file, tc.data)
			}
		})
	}
}
