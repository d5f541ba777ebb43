package lint

import (
	"html"
	"net/url"
	"strings"

	"github.com/agentcards/agentcards/internal/ascii"
)

// Text dressed as something it is not: links that run script or carry a
// template of what the model knows, and messages dressed as another
// role's (a tool's result, the platform, a system turn, a role-play).

// scriptLink matches a Markdown or HTML link, or a bare URL, whose scheme
// runs script or carries a document: rendered in a client's answer, it
// runs there. It reads text lower-cased as ASCII (asciiLower), where it
// is where it was, and finds what it would in the text lower-cased
// (strings.ToLower), which reads İ as i.
var scriptLink = lazyRegexp(`(?:\]\(\s*|href\s*=\s*["']?\s*|src\s*=\s*["']?\s*)(?:javascr[iİ]pt|vbscr[iİ]pt|l[iİ]vescr[iİ]pt|data)\s*:`)

// urlTemplate matches a URL with a slot for the model to fill in: a
// template ({user_email}, {{x}}, $(x), ${x}, <...>) or a placeholder in
// capitals (USER_EMAIL, LAST_MESSAGE_HERE), which a rendered image or a
// followed link sends to whoever serves it.
var urlTemplate = lazyRegexp(`https?://[^\s)"'>\]]*(?:\{\{?[^}\s]{1,80}\}|%7[bB][^\s)"']{1,80}%7[dD]|\$\(|\$\{|<[^>]{1,80}>|[=/](?:[A-Z]{2,}_)+[A-Z]{2,}\b|[?&][a-z]+=(?:NAME|ADDRESS|EMAIL|RESULT|QUERY|MESSAGE|HISTORY|TOKEN|PASSWORD)\b)`)

// pathParam is a path segment that is an API's parameter for a
// resource's identifier, as OpenAPI writes it.
var pathParam = lazyRegexp(`/\{[A-Za-z][A-Za-z0-9_]{0,40}(?:[iI][dD]|[sS]lug|[uU]uid|[vV]ersion|[nN]umber)\}`)

// linkOrder returns a link in s that runs script or carries a template of
// what the model knows, or "".
func linkOrder(s string) string { return linkOrderOf(s, nil) }

// linkOrderOf is linkOrder; present, when not nil, is the set of the
// bytes of ASCII s that fold reads as gaps.
func linkOrderOf(s string, present *asciiSet) string {
	if !present.mayHold(':') || !strings.Contains(s, ":") {
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
	// ASCII text holds the schemes lower-cased when scriptLinkSchemes says
	// so, without a lower-cased copy (s is ASCII when present is known).
	if tASCII := present != nil && t == s || ascii.Is(t); tASCII && scriptLinkSchemes.inLower(t) != 0 || !tASCII && containsAny(strings.ToLower(t), "script:", "data:") {
		if loc := scriptLink().FindStringIndex(asciiLower(t)); loc != nil {
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

// asciiLower is s with A to Z lower-cased and every other byte as it is.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		b.WriteByte(lowerByte(s[i]))
	}
	return b.String()
}

// scriptLinkSchemes are the ends of the schemes scriptLink finds.
var scriptLinkSchemes = newLitSet("script:", "data:")

// roleFrame matches text dressed as a message from a role other than the
// card's writer: a tool's result, the platform, an operator, a system
// turn, a role-play set-up.
var roleFrame = lazyRegexp(`(?i)(?:</?(?:tool_response|tool_result|function_results?|function_call|tool_call|tool_output)>|\[\[?\s*(?:operator|platform|system|admin|tool)(?: message| note)?\s*\]\]?|\[\s*(?:tool_result|tool_response|function_result|tool_output)\b|(?:^|\n|[.!?]\s)\s*#{1,6}\s*(?:system|response|assistant)\s*(?::|$|\n)|\b(?:tool|function) (?:result|results|output|response|message)\b[^:\n]{0,20}:|\boperator\s*>\s*assistant\b|\(message from the (?:platform|operator|system)\b|\[assistant\]\s*:|"role"\s*:\s*"(?:tool|function|assistant)"|\blet'?s play a game\b|\bbegin role-?play\b|\bsimulation mode\b|(?:^|[.:!]\s+)you are [A-Z][a-z]+[A-Z]?[a-z]*\s*[,.]|\bfrom here on,? (?:behave|act|you)\b|\bassistant guidance\b|(?:^|\n)\s*(?:system|assistant)\s*:[^\n]{0,200}\b(?:the assistant|you are|you may|is now permitted|understood|i will)\b)`)
