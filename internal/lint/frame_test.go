package lint

import (
	"html"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// linkOrder, held to the code as first written.

// linkOrderRef is linkOrder as first written, reading every text lower-cased
// for the schemes, and quoting a link from where it is in s: a link in s
// that runs script or carries a template of what the model knows, or "".
func linkOrderRef(s string) string {
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
	if lower, at := lowerAt(t); strings.Contains(lower, "script:") || strings.Contains(lower, "data:") {
		if loc := scriptLink().FindStringIndex(lower); loc != nil {
			end := min(len(t), at[loc[1]]+40)
			return "a link that runs script: " + strings.TrimSpace(t[at[loc[0]]:end])
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
}

// TestLinkOrderSameAsRef: linkOrder finds what it did, in the gate texts
// and in random text made of the pieces of links.
func TestLinkOrderSameAsRef(t *testing.T) {
	for _, s := range append(linkTexts, gateTexts(t)...) {
		if got, want := linkOrder(s), linkOrderRef(s); got != want {
			t.Fatalf("linkOrder(%q) = %q, as first written %q", s, got, want)
		}
	}
	pieces := []string{"[x](", "href=", "src=", "java", "JAVA", "script", "SCRIPT", ":", "data", "Data", " ", "&#", "%", "https://x.example.com/",
		"{", "}", "$", "<", ">", "_", "=", "EMAIL", "\u0130", "\u212a", "é", "\u023a", "\xff"}
	rng := rand.New(rand.NewPCG(15, 16))
	found := 0
	for range 30000 {
		s := randomText(rng, pieces, 10)
		got, want := linkOrder(s), linkOrderRef(s)
		if got != want {
			t.Fatalf("linkOrder(%q) = %q, as first written %q", s, got, want)
		}
		if want != "" {
			found++
		}
	}
	if found < 100 {
		t.Fatalf("only %d random texts hold such a link", found)
	}
}

// FuzzLinkOrder holds linkOrder to linkOrderRef on any text.
func FuzzLinkOrder(f *testing.F) {
	for _, s := range linkTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := linkOrder(s), linkOrderRef(s); got != want {
			t.Fatalf("linkOrder(%q) = %q, as first written %q", s, got, want)
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
