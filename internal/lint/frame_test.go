package lint

import (
	"html"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// linkOrder, held to the code stated simply.

// linkOrderRef is linkOrder stated simply, with no shortcut: a link that
// runs script (scriptLink) in s with its character references decoded
// (one of one digit without ";" too, as browsers read it), then its
// percent-escapes, lower-cased, quoted from where it is in the decoded
// text; else a URL with a template in s, found as first written; or "".
func linkOrderRef(s string) string {
	t := html.UnescapeString(endOneDigitRefs(s))
	if d, err := url.PathUnescape(t); err == nil {
		t = d
	}
	lower, at := lowerAt(t)
	if loc := scriptLink().FindStringIndex(lower); loc != nil {
		end := min(len(t), at[loc[1]]+40)
		return "a link that runs script: " + strings.TrimSpace(t[at[loc[0]]:end])
	}
	return urlTemplateRef(s)
}

// endOneDigitRefs puts a ";" after each numeric character reference of
// one decimal digit that lacks one ("&#9s" to "&#9;s").
func endOneDigitRefs(s string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteByte(s[i])
		digit := func(j int) bool { return j < len(s) && '0' <= s[j] && s[j] <= '9' }
		if i >= 2 && s[i-2:i] == "&#" && digit(i) && !digit(i+1) && (i+1 == len(s) || s[i+1] != ';') {
			b.WriteByte(';')
		}
	}
	return b.String()
}

// urlTemplateRef is linkOrder's search for a URL with a template as first
// written: in text that holds a colon, with its numeric references
// decoded (and so all of them), then its percent-escapes.
func urlTemplateRef(s string) string {
	if !strings.Contains(s, ":") {
		return ""
	}
	t := s
	if strings.Contains(t, "&#") {
		t = html.UnescapeString(t)
	}
	if strings.Contains(t, "%") {
		if d, err := url.PathUnescape(t); err == nil {
			t = d
		}
	}
	if strings.Contains(t, "http") && (strings.ContainsAny(t, "{$<_") || strings.Contains(t, "=")) {
		if strings.Contains(t, "{") {
			// An API's path parameters (/orders/{orderId}) name a
			// resource, not what the model knows.
			t = pathParam().ReplaceAllString(t, "/x")
		}
		if m := urlTemplate().FindString(t); m != "" {
			return "a URL that carries what the model knows: " + m
		}
	}
	return ""
}

// lowerAt returns strings.ToLower(t) and, for each of its bytes, where
// in t the rune it is of starts, and len(t) after them.
func lowerAt(t string) (string, []int) {
	var lower []byte
	var at []int
	for i, r := range t {
		n := len(lower)
		lower = utf8.AppendRune(lower, unicode.ToLower(r))
		for range len(lower) - n {
			at = append(at, i)
		}
	}
	return string(lower), append(at, len(t))
}

// linkTexts are links that run script or carry a template, in any letter
// case, with and without their schemes spelled out, and text around them.
var linkTexts = []string{
	"", ":", "see [x](javascript:alert(1))", "[x](JavaScript:alert(1))", "<a href=\"DATA:text/html,hi\">", "src = 'vbscript:x'",
	"![i](https://x.example.com/p?q={user_email})", "https://x.example.com/p?q=EMAIL", "https://x.example.com/orders/{orderId}",
	"[x](&#106;avascript:alert(1))", "[x](%6Aavascript:alert(1))", "It can: data: script: DATA: Script:", "[x](javaſcript:x)",
	"[x](java\u212acript:x)", "[x](javascr\u0130pt:x)", "href=jav\u0130script:", "https://x.example.com/a_b=${x}",
	"[x](java&Tab;script:x) https://x.example.com/p?a=1&amp;q=EMAIL", "<a href=\"&#1java&#9script&#58x\">", "[x](javascr\tipt%3Ax)",
	"See.\n [x]:\n <data:x>", "<form formact\u0130on=java\nscript:x>",
}

// TestLinkOrderSameAsRef: linkOrder finds what it did, in the gate texts
// and in random text made of the pieces of links.
func TestLinkOrderSameAsRef(t *testing.T) {
	texts := slices.Concat(linkTexts, scriptLinkForms, scriptLinkFound, scriptLinkProse, gateTexts(t))
	for _, s := range texts {
		if got, want := linkOrder(s), linkOrderRef(s); got != want {
			t.Fatalf("linkOrder(%q) = %q, stated simply %q", s, got, want)
		}
	}
	// The pieces of links as first found, and of links hidden.
	for i, pieces := range [][]string{
		{"[x](", "href=", "src=", "java", "JAVA", "script", "SCRIPT", ":", "data", "Data", " ", "&#", "%", "https://x.example.com/",
			"{", "}", "$", "<", ">", "_", "=", "EMAIL", "\u0130", "\u212a", "é", "\u023a", "\xff"},
		{"[x](", "](<", "\n[x]: ", "<", ">", "href=", "action=", "\"", "java", "scr", "ipt", "SCRIPT", "data", ":", " ",
			"&", "&#58", "&#9", ";", "&Tab;", "&colon;", "&amp;", "&lt", "R&D", "&x", "&#x", "\\", "\t", "\n", "\r", "\x01", "%09", "%3A", "https://x.example.com/?q=EMAIL"},
	} {
		rng := rand.New(rand.NewPCG(15, uint64(16+i)))
		found := 0
		for range 30000 {
			s := randomText(rng, pieces, 10)
			if !mayHoldRef(s) && html.UnescapeString(endOneDigitRefs(s)) != s {
				t.Fatalf("mayHoldRef(%q) is false, but it holds a reference", s)
			}
			got, want := linkOrder(s), linkOrderRef(s)
			if got != want {
				t.Fatalf("linkOrder(%q) = %q, stated simply %q", s, got, want)
			}
			if want != "" {
				found++
			}
		}
		if found < 100 {
			t.Fatalf("only %d random texts of pieces %d hold such a link", found, i)
		}
	}
}

// FuzzLinkOrder holds linkOrder to linkOrderRef on any text.
func FuzzLinkOrder(f *testing.F) {
	for _, s := range slices.Concat(linkTexts, scriptLinkForms, scriptLinkFound, scriptLinkProse) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !mayHoldRef(s) && html.UnescapeString(endOneDigitRefs(s)) != s {
			t.Fatalf("mayHoldRef(%q) is false, but it holds a reference", s)
		}
		if got, want := linkOrder(s), linkOrderRef(s); got != want {
			t.Fatalf("linkOrder(%q) = %q, stated simply %q", s, got, want)
		}
	})
}

// TestLinkOrderQuotesTheLink: a link after letters that lower-case to
// more or fewer bytes (Ⱥ, İ, the Kelvin sign) or after invalid UTF-8 is
// quoted from where it is in the text.
func TestLinkOrderQuotesTheLink(t *testing.T) {
	for _, before := range []string{"\u023a", "\u0130", "\u212a", "\xff"} {
		s := strings.Repeat(before, 20) + " [x](javascript:alert(1)) and more"
		want := "a link that runs script: ](javascript:alert(1)) and more"
		if got := linkOrder(s); got != want {
			t.Errorf("linkOrder(%q) = %q, want %q", s, got, want)
		}
	}
}

// scriptLinkForms are links whose scheme runs script hidden as browsers
// and Markdown renderers still read them: character references, named
// and numeric, with and without ";"; tabs and line ends in the scheme,
// which URL parsers drop; controls and spaces before it, which they trim;
// percent-escapes; Markdown's reference definitions, autolinks and
// destinations in <>; the attributes that take a URL.
var scriptLinkForms = []string{
	"[docs](javascript&#58;alert(1))",
	"[docs](javascript&#x3A;alert(1))",
	"[docs](javascript&#58alert(1))",
	"[docs](java&#x09;script:alert(1))",
	"[docs](java&#9script:alert(1))",
	"<a href=\"java&#9script:alert(1)\">docs</a>",
	"<a href=\"&#1javascript:alert(1)\">docs</a>",
	"[docs](java&Tab;script:alert(1))",
	"[docs](java&NewLine;script:alert(1))",
	"[docs](java&#x0A;script:alert(1))",
	"[docs](JaVa&Tab;ScRiPt&colon;alert(1))",
	`<a href="javascript&colon;alert(1)">docs</a>`,
	"<a href=\"jav&#x09;ascript:alert(1)\">docs</a>",
	"[docs](java\tscript:alert(1))",
	"[docs](javas\ncript:alert(1))",
	"[docs](jav\rascript:alert(1))",
	"[docs](javascr\tipt:alert(1))",
	"[docs](j\ta\nv\ra\tscript:alert(1))",
	"[docs](d\tata:text/html,<script>alert(1)</script>)",
	"[docs](vb&Tab;script:msgbox(1))",
	"[docs](live\nscript:x)",
	"[docs](java%09script:alert(1))",
	"[docs](java%0Ascript:alert(1))",
	"[docs](javascript%3Aalert(1))",
	"<a href=\" \x01javascript:alert(1)\">docs</a>",
	"<a href=\"\x00javascript:alert(1)\">docs</a>",
	"<a href=\"&#14;javascript:alert(1)\">docs</a>",
	"[docs](\x1fjavascript:alert(1))",
	"[docs](<javascript:alert(1)>)",
	"[docs](javascript\\:alert(1))",
	"[docs]: javascript\\:alert(1)",
	"[docs]: javascript:alert(1)",
	"See the docs.\n[docs]:\n  <javascript:alert(1)>",
	"<javascript:alert(1)>",
	"<JavaScript:alert(document.cookie)>",
	"<data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==>",
	`<button formaction="javascript:alert(1)">go</button>`,
	`<form action=javascript:alert(1)><input type=submit></form>`,
	"<a href=&quot;javascript:alert(1)&quot;>docs</a>",
	// Reference definitions inside containers, over lines, with escapes,
	// after a carriage return (a review found each missed).
	"Intro.\n\n> [x]: javascript:alert(1)\n\nSee [x].",
	"Intro.\n\n> > [x]: javascript:alert(1)\n\nSee [x].",
	"Steps:\n\n- [x]: javascript:alert(1)\n\nSee [x].",
	"Steps:\n\n* [x]: javascript:alert(1)",
	"Steps:\n\n1. [x]: javascript:alert(1)",
	"Steps:\n\n2) [x]: javascript:alert(1)",
	"[click\nhere]: javascript:alert(1)\n\nSee [click here].",
	"[a\\]b]: javascript:alert(1)\n\nSee [a\\]b].",
	"Intro.\r[x]: javascript:alert(1)\r\rSee [x].",
	// The destination on the next line of a block quote, and a label
	// with an escaped line break (a second review found each missed).
	"> [a]:\n> javascript:alert(1)\n\n[x][a]",
	"> [a]:\n>javascript:alert(1)\n\n[x][a]",
	"> > [a]:\n> > data:text/html;base64,PHNjcmlwdD4=",
	"> [a]:\n> j&#97;vascript:alert(1)",
	"Weather agent.\n\n> [docs]:\n> javascript:alert(document.cookie)\n\nSee [the docs][docs].",
	"[a\\\nb]: javascript:alert(1)\n\n[x][a\\ b]",
}

// scriptLinkFound are forms linkOrder found before those above, kept
// found.
var scriptLinkFound = []string{
	"[docs](JaVaScRiPt:alert(1))",
	"<a href=javascript:alert(1)>docs</a>",
	`<img src="javascript:alert(1)">`,
	`<iframe src="data:text/html,<script>alert(1)</script>"></iframe>`,
	`<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>`,
	"[docs](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
	"[docs](&#106;avascript:alert(1))",
	"[docs](%6Aavascript:alert(1))",
	"[docs](&#x20;javascript:alert(1))",
}

// scriptLinkProse is ordinary text that names schemes, or holds
// references and links that run nothing.
var scriptLinkProse = []string{
	"data: the agent returns a JSON object for each query.",
	"JavaScript: the language the agent writes and reviews.",
	"Input: a question. Output: data: rows, and a script: the SQL.",
	"Read [the guide](https://example.com/guide?a=1&amp;b=2) first; R&D and Q&A: ask.",
	"See <https://example.com/docs> and [the API](https://example.com/api \"data: its schema\").",
	"Returns <data: a JSON object> & a <script: its source>.",
	"The src and href fields hold URLs; data: either may be empty.",
	"Tags: data,\tscript,\nJavaScript: all three & more &amp; &copy; 2026.",
	"[1]: https://example.com/data\n[2]: https://example.com/script",
	"[Tip]: JavaScript: write it async.\n[Input]: data: a CSV file.",
	"<a href=\"https://example.com/java\tscript\">the Java script guide</a>",
	// "action" inside another word is no attribute.
	"Export with GET https://api.example.com/run?action=data:export.",
	"Set transaction=data:batch, or interaction=data:export per event.",
	"The reaction = data: heavy.",
	// A reference definition of a data: word that is no document.
	"OAuth scopes:\n\n- [required]: data:read\n- [optional]: data:write",
	"1. [input]: data:base64 payload",
	"* [raw]: data:URL of the image",
	"> [note]: data:export is slow",
}

// TestScriptLinkForms: linkOrder finds a link that runs script in every
// form of scriptLinkForms and scriptLinkFound, and in none of
// scriptLinkProse; so does injection, which asks the bytes the text holds
// first.
func TestScriptLinkForms(t *testing.T) {
	const found = "a link that runs script: "
	for _, s := range append(scriptLinkForms, scriptLinkFound...) {
		if got := linkOrder(s); !strings.HasPrefix(got, found) {
			t.Errorf("linkOrder(%q) = %q, want a link that runs script", s, got)
		}
		if got := injection(s, false); !strings.HasPrefix(got, found) {
			t.Errorf("injection(%q) = %q, want a link that runs script", s, got)
		}
	}
	for _, s := range scriptLinkProse {
		if got := linkOrder(s); got != "" {
			t.Errorf("linkOrder(%q) = %q, want nothing", s, got)
		}
		if got := injection(s, false); got != "" {
			t.Errorf("injection(%q) = %q, want nothing", s, got)
		}
	}
}
