package leak

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	f := New([]string{"Tom & Jerry's <plan>", "Ünïcode naïve", "short prose"}, []string{
		"https://docs.example.com/private",
		"bulk-export",
		"short", // under MinLen: never looked for
	})
	for _, tc := range []struct {
		name, data string
		want       []string
	}{
		{"as written", `see https://docs.example.com/private for more`, []string{"https://docs.example.com/private"}},
		{"a longer URL holds it", `href="https://docs.example.com/private/guide"`, []string{"https://docs.example.com/private"}},
		{"not inside a longer word", `"https://docs.example.com/privateer"`, nil},
		{"id as a word", `{"id":"bulk-export"}`, []string{"bulk-export"}},
		{"id inside another id", `{"id":"bulk-exporter"}`, nil},
		{"id after a letter", `xbulk-export`, nil},
		{"HTML escaped", `<p>Tom &amp; Jerry&#39;s &lt;plan&gt;</p>`, []string{"Tom & Jerry's <plan>"}},
		{"html/template escaped", `<p>Tom &amp; Jerry&#39;s &lt;plan&gt;</p>`, []string{"Tom & Jerry's <plan>"}},
		{"JSON with HTML escapes", `{"d":"Tom \u0026 Jerry's \u003cplan\u003e"}`, []string{"Tom & Jerry's <plan>"}},
		{"JSON without", `{"d":"Tom & Jerry's <plan>"}`, []string{"Tom & Jerry's <plan>"}},
		{"short strings are not looked for", `short; short prose`, nil},
		{"non-ASCII word boundary", `xÜnïcode naïve`, nil},
		{"non-ASCII", `Ünïcode naïve.`, []string{"Ünïcode naïve"}},
		{"each once, in order", `bulk-export https://docs.example.com/private bulk-export`, []string{"bulk-export", "https://docs.example.com/private"}},
		{"at the very end", `bulk-export`, []string{"bulk-export"}},
		{"nothing", `an ordinary page`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := f.Find([]byte(tc.data)); !slices.Equal(got, tc.want) {
				t.Errorf("Find(%q) = %q, want %q", tc.data, got, tc.want)
			}
		})
	}
}

// TestFindInText: text wrapped over lines, or marked up word by word, is
// found in the text a reader sees.
func TestFindInText(t *testing.T) {
	f := New([]string{"Exports a month of extracted invoices to DATEV, Xero or QuickBooks in one file.", "Bulk export to accounting"}, nil)
	for _, tc := range []struct {
		name, data string
		html       bool
		want       int
	}{
		{"wrapped Markdown", "Exports a month of extracted invoices to DATEV, Xero or\nQuickBooks in one file.\n", false, 1},
		{"wrapped HTML", "<p>Exports a month of extracted invoices to DATEV, Xero or\n  QuickBooks in one file.</p>", true, 1},
		{"emphasis", "<p>Bulk <em>export</em> to accounting</p>", true, 1},
		{"link and entity", `<li><a href="/x">Bulk</a>&#32;export to <strong>accounting</strong></li>`, true, 1},
		{"block tags separate words", "<p>Bulk export to</p><p>accountingdepartment</p>", true, 0},
		{"soft hyphen and zero-width space", "<p>Bulk export to acc&shy;oun&#8203;ting</p>", true, 1},
		{"wbr and a comment", "<p>Bulk export to acc<wbr>oun<!-- raw HTML omitted -->ting</p>", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "page.md"
			if tc.html {
				name = "page.html"
			}
			if got := f.Find(Text(name, []byte(tc.data))); len(got) != tc.want {
				t.Errorf("found %q, want %d", got, tc.want)
			}
		})
	}
}

// TestShortProseNotLookedFor: a common word or a short sentence of an
// overlay is not looked for (it would be found by chance); an identifier
// of the same length is, letters only or not.
func TestShortProseNotLookedFor(t *testing.T) {
	f := New([]string{"Reports", "Contact us."}, []string{"bulk-export", "forecast"})
	got := f.Find([]byte("Monthly Reports: Contact us. bulk-export forecast"))
	if !slices.Equal(got, []string{"bulk-export", "forecast"}) {
		t.Errorf("got %q", got)
	}
}

func TestPieces(t *testing.T) {
	got := Pieces("Hourly data for subscribers. Billed monthly!\n  Second line here?")
	for _, want := range []string{
		"Hourly data for subscribers. Billed monthly!\n  Second line here?",
		"Hourly data for subscribers. Billed monthly!",
		"Hourly data for subscribers.",
		"Billed monthly!",
		"Second line here?",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("Pieces lacks %q: %q", want, got)
		}
	}
}

// TestFindManyStrings: the cost of a file does not grow with the number
// of strings (one filtered pass), and every string is still found.
func TestFindManyStrings(t *testing.T) {
	var strs []string
	for i := range 5000 {
		strs = append(strs, "private-skill-"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"-"+itoa(i))
	}
	f := New(nil, strs)
	page := strings.Repeat("ordinary public text, ", 1000) + strs[4321] + " end"
	if got := f.Find([]byte(page)); !slices.Equal(got, []string{strs[4321]}) {
		t.Errorf("got %q", got)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func BenchmarkFind(b *testing.B) {
	var strs []string
	for i := range 200 {
		strs = append(strs, "private skill description number "+itoa(i))
	}
	f := New(strs, nil)
	page := []byte(strings.Repeat("<p>An ordinary public page about weather and forecasts.</p>\n", 2000))
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		f.Find(page)
	}
}
