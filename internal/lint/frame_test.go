package lint

import (
	"html"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

// linkOrder, held to the code as first written.

// linkOrderRef is linkOrder as first written, reading every text lower-cased
// for the schemes: a link in s that runs script or carries a template of
// what the model knows, or "".
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
	if lower := strings.ToLower(t); strings.Contains(lower, "script:") || strings.Contains(lower, "data:") {
		if loc := scriptLink().FindStringIndex(lower); loc != nil {
			end := min(len(t), loc[1]+40)
			return "a link that runs script: " + strings.TrimSpace(t[loc[0]:end])
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
		"{", "}", "$", "<", ">", "_", "=", "EMAIL", "\u0130", "\u212a", "é"}
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
