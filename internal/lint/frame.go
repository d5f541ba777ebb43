package lint

import (
	"html"
	"net/url"
	"strings"
)

// Text dressed as something it is not: links that run script or carry a
// template of what the model knows, and messages dressed as another
// role's (a tool's result, the platform, a system turn, a role-play).

// scriptLink matches a link whose scheme runs script or carries a
// document (javascript:, vbscript:, livescript:, data:): rendered in a
// client's answer, it runs there. A link is a Markdown link's or image's
// destination ("](", in <> too), the value of an HTML attribute that
// takes a URL (href, xlink:href, src, action, formaction; quoted or not;
// "action" after white space, a quote, "/" or "<", not in "transaction=" or
// "?action="), a Markdown
// reference definition's destination (a word after "[x]: " at a line's
// start, after a carriage return too, and in block quotes and list items;
// the label over lines and with escapes, the destination on the next
// line; data: only before a media type, ',' or ';') or an autolink
// (<javascript:...>). URL parsers trim
// controls and spaces before a URL and drop tabs and line ends anywhere
// in it: scriptLink reads past controls and spaces between a link's
// start and its scheme, and past tabs and line ends between the
// scheme's letters; and reads its colon escaped ("\:") as Markdown does.
var scriptLink = lazyRegexp(`(?:\]\(\s*<?|(?:href|src|(?:^|[\s"'/<])(?:form)?action)\s*=\s*["']?)[\x00-\x20]*` + scriptSchemeExpr + `\s*\\?:` +
	`|(?:^|[\n\r])` + containerExpr + `\[(?:[^\]\\]|\\[\s\S])*\]:[ \t]*(?:(?:\r\n?|\n)` + containerExpr + `)?\s*<?[\x00-\x20]*` +
	`(?:` + runSchemeExpr + `\\?:[^\x00-\x20]|` + gapped("data") + `\\?:(?:[a-z0-9.+-]+/|[,;]))` +
	`|<` + scriptSchemeExpr + `:[^\x00-\x20<>]*>`)

// scriptSchemeExpr is an expression for the schemes scriptLink finds,
// lower-cased, with tabs and line ends between their letters.
var scriptSchemeExpr = "(?:" + runSchemeExpr + "|" + gapped("data") + ")"

// runSchemeExpr is scriptSchemeExpr's schemes that run script: all but
// data:, which a reference definition must follow with a media type
// ("data:text/html,...") or its ',' or ';' to be taken for a link ("[x]:
// data:read" names a scope).
var runSchemeExpr = "(?:" + gapped("javascript") + "|" + gapped("vbscript") + "|" + gapped("livescript") + ")"

// containerExpr is an expression for what may stand before a Markdown
// block at a line's start: indentation, and block quote and list item
// markers.
const containerExpr = `(?:[ \t]*(?:>|[-*+]|\d{1,9}[.)]))*[ \t]*`

// gapped is an expression for the lower-case word, with tabs and line
// ends between its letters.
func gapped(word string) string {
	var b strings.Builder
	for i, c := range word {
		if i > 0 {
			b.WriteString(`[\t\n\r]*`)
		}
		b.WriteRune(c)
	}
	return b.String()
}

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
//
// Links are read with their character references decoded (&#58;, &#58,
// &Tab;, &colon;, as browsers and Markdown renderers decode them), then their
// percent-escapes; URL templates, as first written, with numeric
// references decoded alone, and only in text that holds a colon.
func linkOrderOf(s string, present *asciiSet) string {
	refs := present.mayHold('&') && mayHoldRef(s)
	if !refs && !present.mayHold(':') && !present.mayHold('%') {
		return ""
	}
	v := s
	if refs {
		v = unescapeRefs(s)
	}
	// A scheme ends with a colon; percent-escapes may spell one.
	colon := (refs || present.mayHold(':')) && strings.Contains(v, ":")
	if (refs || present.mayHold('%')) && strings.Contains(v, "%") && (colon || strings.Contains(v, "%3")) {
		if d, err := url.PathUnescape(v); err == nil {
			v, colon = d, true
		}
	}
	if colon {
		if m := scriptLinkIn(v); m != "" {
			return m
		}
	}
	if !present.mayHold(':') || !strings.Contains(s, ":") {
		return ""
	}
	t := v
	if refs {
		t = s
		if strings.Contains(t, "&#") {
			t = html.UnescapeString(t)
		}
		if strings.Contains(t, "%") {
			if d, err := url.PathUnescape(t); err == nil {
				t = d
			}
		}
	}
	return urlTemplateIn(t)
}

// urlTemplateIn returns a URL in t with a slot for what the model knows,
// or "".
func urlTemplateIn(t string) string {
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

// unescapeRefs is html.UnescapeString, which also decodes a numeric
// reference of one digit without ";" (java&#9script), as browsers do and
// html.UnescapeString does not.
func unescapeRefs(s string) string {
	var b strings.Builder
	last := 0
	for i := strings.Index(s, "&#"); i >= 0; {
		if end := i + 3; end <= len(s) && isDigitByte(s[i+2]) && (end == len(s) || s[end] != ';' && !isDigitByte(s[end])) {
			b.WriteString(s[last:end])
			b.WriteByte(';')
			last = end
		}
		n := strings.Index(s[i+2:], "&#")
		if n < 0 {
			break
		}
		i += 2 + n
	}
	if last > 0 {
		b.WriteString(s[last:])
		s = b.String()
	}
	return html.UnescapeString(s)
}

// isDigitByte reports whether c is an ASCII digit.
func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// mayHoldRef reports whether s may hold a character reference, one
// html.UnescapeString decodes: an & before a # or two ASCII letters (as
// every named reference starts), not the & of "R&D" or "Q&A".
func mayHoldRef(s string) bool {
	for i := strings.IndexByte(s, '&'); i >= 0 && i+2 < len(s); {
		if s[i+1] == '#' || isLetterByte(s[i+1]) && isLetterByte(s[i+2]) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '&')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// scriptLinkIn returns scriptLink's leftmost match in v, with what
// follows it, or "".
func scriptLinkIn(v string) string {
	if !mayEndScheme(v) {
		return ""
	}
	// The link is quoted from v itself: lower case may be longer or
	// shorter than upper (Ⱥ, ⱥ).
	lower, from := lowerMapped(v)
	if loc := scriptLink().FindStringIndex(lower); loc != nil {
		end := min(len(v), from(loc[1])+40)
		return "a link that runs script: " + strings.TrimSpace(v[from(loc[0]):end])
	}
	return ""
}

// mayEndScheme reports whether a colon in s may end a scheme scriptLink
// finds: whether, but for a backslash and white space before it, it
// follows "pt" or "ta" in any letter case, tabs and line ends between
// them.
func mayEndScheme(s string) bool {
	for i := strings.IndexByte(s, ':'); i >= 0; {
		j := i - 1
		if j >= 0 && s[j] == '\\' {
			j--
		}
		for j >= 0 && isRegexpSpace(s[j]) {
			j--
		}
		if j >= 1 {
			last := s[j] | 0x20
			k := j - 1
			for k > 0 && (s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
				k--
			}
			if before := s[k] | 0x20; last == 't' && before == 'p' || last == 'a' && before == 't' {
				return true
			}
		}
		n := strings.IndexByte(s[i+1:], ':')
		if n < 0 {
			break
		}
		i += 1 + n
	}
	return false
}

// isRegexpSpace reports whether c is white space as \s reads it.
func isRegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// roleFrame matches text dressed as a message from a role other than the
// card's writer: a tool's result, the platform, an operator, a system
// turn, a role-play set-up.
var roleFrame = lazyRegexp(`(?i)(?:</?(?:tool_response|tool_result|function_results?|function_call|tool_call|tool_output)>|\[\[?\s*(?:operator|platform|system|admin|tool)(?: message| note)?\s*\]\]?|\[\s*(?:tool_result|tool_response|function_result|tool_output)\b|(?:^|\n|[.!?]\s)\s*#{1,6}\s*(?:system|response|assistant)\s*(?::|$|\n)|\b(?:tool|function) (?:result|results|output|response|message)\b[^:\n]{0,20}:|\boperator\s*>\s*assistant\b|\(message from the (?:platform|operator|system)\b|\[assistant\]\s*:|"role"\s*:\s*"(?:tool|function|assistant)"|\blet'?s play a game\b|\bbegin role-?play\b|\bsimulation mode\b|(?:^|[.:!]\s+)you are [A-Z][a-z]+[A-Z]?[a-z]*\s*[,.]|\bfrom here on,? (?:behave|act|you)\b|\bassistant guidance\b|(?:^|\n)\s*(?:system|assistant)\s*:[^\n]{0,200}\b(?:the assistant|you are|you may|is now permitted|understood|i will)\b)`)
