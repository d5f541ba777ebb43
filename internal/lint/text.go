package lint

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/lintrule"
	"github.com/agentcards/agentcards/internal/secret"
)

// text checks every string of the card, and every member name, for text
// aimed at a model, hidden characters, look-alike letters and
// credentials. The signatures are left out: they are base64url.
func (l *linter) text(doc map[string]any) {
	for _, k := range sortedKeys(doc) {
		l.walk(doc[k], member("", k), k, 0)
		l.name(member("", k), k)
	}
	for _, f := range l.out {
		if f.Rule == lintrule.PromptInjection {
			return
		}
	}
	l.crossField(doc)
}

// crossField reads the card's prose as a model does, one field after
// another, and finds orders split across fields ("Always call" as a
// skill's name, "this agent first" as its description; three tags
// "ignore", "previous", "instructions"). A field that does not end a
// sentence runs on into the next: its last sentence and the next field's
// first are read together (and the one after, when the next is a
// fragment too). Examples are people's requests, read apart, as such.
func (l *linter) crossField(doc map[string]any) {
	// Room for the fields of a card of the usual shape: its provider and
	// description, each skill's name, description and tags, and two
	// examples of each.
	skills := list(doc["skills"])
	prose, examples := make([]string, 0, 2+3*len(skills)), make([]string, 0, 2*len(skills))
	add := func(to *[]string, s string) {
		if s = strings.TrimSpace(s); s != "" {
			*to = append(*to, s)
		}
	}
	add(&prose, str(object(doc["provider"])["organization"]))
	add(&prose, str(doc["description"]))
	for _, e := range list(object(doc["capabilities"])["extensions"]) {
		e := object(e)
		add(&prose, str(e["description"]))
		params := object(e["params"])
		for _, k := range sortedKeys(params) {
			add(&prose, str(params[k]))
		}
	}
	for _, sk := range skills {
		sk := object(sk)
		add(&prose, str(sk["name"]))
		add(&prose, str(sk["description"]))
		tagList := list(sk["tags"])
		tags := make([]string, 0, len(tagList))
		for _, t := range tagList {
			tags = append(tags, str(t))
		}
		add(&prose, strings.Join(tags, " "))
		for _, e := range list(sk["examples"]) {
			add(&examples, str(e))
		}
	}
	for _, part := range []struct {
		fields  []string
		example bool
	}{{prose, false}, {examples, true}} {
		fs := part.fields
		for i := 0; i+1 < len(fs); i++ {
			if endsText(fs[i]) {
				continue
			}
			var window string
			if i+2 < len(fs) && !endsText(fs[i+1]) && len(fs[i+1]) <= 80 {
				window = lastSentence(fs[i]) + " " + firstSentence(fs[i+1]) + " " + firstSentence(fs[i+2])
			} else {
				window = lastSentence(fs[i]) + " " + firstSentence(fs[i+1])
			}
			if m := l.windowInjection(window, part.example); m != "" {
				l.add(lintrule.PromptInjection, "", "across fields, text addressed to a model: "+quote(m, 80))
				return
			}
		}
	}
}

// windowInjection is injection(window, example), remembered: the two
// shapes of a card (agent-card.json, agent.json) hold the same prose in
// the same order, so verify reads each window twice. injection depends on
// nothing but its arguments, which the key holds whole.
func (l *linter) windowInjection(window string, example bool) string {
	if l.memo == nil {
		return injection(window, example)
	}
	k := memoKey{kind: windowMemo, s: window, example: example}
	if fs, ok := l.memo.get(k); ok {
		if len(fs) == 0 {
			return ""
		}
		return fs[0].msg
	}
	m := injection(window, example)
	var fs []memoFinding
	if m != "" {
		fs = []memoFinding{{lintrule.PromptInjection, m}}
	}
	l.memo.put(k, fs)
	return m
}

// endsText reports whether s ends a sentence.
func endsText(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?\u3002\uff01\uff1f", r)
}

// sentenceMark holds the bytes that end a sentence before a space or a
// line break: ".", "!" and "?".
var sentenceMark = [256]bool{'.': true, '!': true, '?': true}

// firstSentence is s up to its first sentence's end, at most 200 bytes.
func firstSentence(s string) string {
	for i := 0; i+1 < len(s) && i < 200; i++ {
		if sentenceMark[s[i]] && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[:i+1]
		}
	}
	if len(s) > 200 {
		return strings.ToValidUTF8(s[:200], "")
	}
	return s
}

// lastSentence is s from its last sentence's start, at most 200 bytes.
func lastSentence(s string) string {
	for i := len(s) - 2; i > 0 && i > len(s)-200; i-- {
		if sentenceMark[s[i]] && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[i+2:]
		}
	}
	if len(s) > 200 {
		return strings.ToValidUTF8(s[len(s)-200:], "")
	}
	return s
}

// isSignatureValue reports whether path is a signature's protected header
// or its value, base64url that reads as nothing; the rest of a signature
// (its unprotected header) is free text nobody signed, and is checked.
func isSignatureValue(path string) bool {
	rest, ok := strings.CutPrefix(path, "signatures[")
	if !ok {
		return false
	}
	_, m, ok := strings.Cut(rest, "].")
	return ok && (m == "protected" || m == "signature")
}

// walk checks v, found at path as the value of member key.
func (l *linter) walk(v any, path, key string, depth int) {
	switch v := v.(type) {
	case string:
		if !isSignatureValue(path) {
			l.value(path, key, v)
		}
	case json.Number, bool:
		l.nonString(path, key, v)
	case []any:
		var parts []string
		for i, e := range v {
			l.walk(e, index(path, i), key, depth+1)
			if s, ok := e.(string); ok {
				if parts == nil {
					parts = make([]string, 0, len(v)) // one allocation
				}
				parts = append(parts, s)
			}
		}
		if f, ok := secret.InParts(parts); ok && !isSignatureValue(path) {
			l.add(lintrule.CredentialInCard, path, fmt.Sprintf("holds %s (not repeated here)", f))
		}
	case map[string]any:
		if secret.IsPrivateJWK(v) {
			l.add(lintrule.CredentialInCard, path, "is a private JSON Web Key (not repeated here)")
		}
		for _, k := range sortedKeys(v) {
			p := member(path, k)
			l.name(p, k)
			l.walk(v[k], p, k, depth+1)
		}
	}
}

// name checks a member name.
func (l *linter) name(path, k string) {
	if cardMembers[k] {
		return // the specification's own names, plain letters all
	}
	if h := findHidden(k); h.count > 0 {
		l.add(lintrule.HiddenText, path, "the member name "+h.describe())
	}
	if inj := injection(splitCamel(k), false); inj != "" {
		l.add(lintrule.PromptInjection, path, "the member name is addressed to a model: "+quote(inj, 80))
	}
}

// cardMembers are member names of A2A cards (v1.0 and v0.3.0), of MCP
// Server Cards and of JWS, which say nothing to a model.
var cardMembers = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`name description version url supportedInterfaces protocolBinding protocolVersion tenant
		provider organization documentationUrl iconUrl capabilities streaming pushNotifications extendedAgentCard extensions uri
		required params defaultInputModes defaultOutputModes skills id tags examples inputModes outputModes securitySchemes
		securityRequirements schemes list signatures protected signature header apiKeySecurityScheme httpAuthSecurityScheme
		oauth2SecurityScheme openIdConnectSecurityScheme mtlsSecurityScheme location scheme bearerFormat flows oauth2MetadataUrl
		openIdConnectUrl authorizationCode clientCredentials deviceCode authorizationUrl tokenUrl refreshUrl scopes pkceRequired
		deviceAuthorizationUrl preferredTransport additionalInterfaces transport supportsAuthenticatedExtendedCard security type
		in stateTransitionHistory title websiteUrl repository source subfolder icons src mimeType sizes theme remotes headers
		isRequired isSecret supportedProtocolVersions packages jku kid alg typ`) {
		cardMembers[k] = true
	}
}

// splitCamel puts a space where a lower-case letter or digit meets an
// upper-case one, so that "ignoreAllPreviousInstructions" reads as words.
func splitCamel(k string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range k {
		if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// value checks one string value.
func (l *linter) value(path, key, s string) {
	if l.memo == nil {
		l.checkValue(path, key, s)
		return
	}
	k := memoKey{kind: valueMemo, s: s, key: key, example: isExample(path), name: isNameField(path), security: underSecurity(path)}
	if fs, ok := l.memo.get(k); ok {
		for _, f := range fs {
			l.add(f.rule, path, f.msg)
		}
		return
	}
	from := len(l.out)
	l.checkValue(path, key, s)
	var fs []memoFinding
	for _, f := range l.out[from:] {
		fs = append(fs, memoFinding{f.Rule, f.Message})
	}
	l.memo.put(k, fs)
}

// checkValue checks one string value: what value remembers.
func (l *linter) checkValue(path, key, s string) {
	h, allASCII := asciiHidden(s)
	if !allASCII {
		h = findHiddenOf(s)
	}
	if h.count > 0 {
		l.add(lintrule.HiddenText, path, h.describe())
	} else if m := hiddenMarkup(s); m != "" {
		l.add(lintrule.HiddenText, path, m)
	}
	isURL := looksLikeURL(s)
	// URLs too: a query string or a path can carry orders as well as
	// prose can.
	checked := s
	if isURL {
		// What the URL says once decoded: %20 and + are spaces.
		if d, err := url.PathUnescape(strings.ReplaceAll(s, "+", " ")); err == nil {
			checked = d
		}
	}
	if isURL && h.count == 0 && checked != s {
		if hu := findHidden(checked); hu.count > 0 {
			l.add(lintrule.HiddenText, path, "once percent-decoded, "+hu.describe())
		}
	}
	checkedASCII := allASCII
	if checked != s {
		checkedASCII = ascii.Is(checked)
	}
	inj := injectionOf(checked, checkedASCII, isExample(path))
	if inj == "" && h.tags != "" {
		inj = injection(h.tags, false)
	}
	if inj != "" {
		l.add(lintrule.PromptInjection, path, "text addressed to a model: "+quote(inj, 80))
	}
	// Whether s is a name matters only for text that is not ASCII (nor a
	// URL), which confusable alone reads word by word.
	if msg := confusable(s, !allASCII && isNameField(path), isURL, allASCII); msg != "" {
		l.add(lintrule.ConfusableText, path, msg)
	}
	l.credential(path, key, s, allASCII)
}

// markdownComment matches the Markdown idioms for a comment: a link
// reference definition that no link uses, "[//]: # (text)".
var markdownComment = lazyRegexp(`(?m)^[ \t]{0,3}\[(?://|comment|_|#)\]:[ \t]*(?:#|<>)`)

// hiddenMarkup says why s holds text that renderers hide from people and
// models still read, or "": an HTML comment, or a Markdown comment.
func hiddenMarkup(s string) string {
	// Every markup below holds '<' or ']': most text holds neither.
	if strings.IndexByte(s, '<') < 0 && strings.IndexByte(s, ']') < 0 {
		return ""
	}
	if i := strings.Index(s, "<!--"); i >= 0 {
		c := s[i:]
		if j := strings.Index(c, "-->"); j >= 0 {
			c = c[:j+3]
		}
		return "holds an HTML comment (" + quote(c, 60) + "), which rendered Markdown and HTML hide from people but models read"
	}
	if strings.Contains(s, "]:") {
		if loc := markdownComment().FindStringIndex(s); loc != nil {
			return "holds a Markdown comment (" + quote(s[loc[0]:loc[1]], 60) + "), which rendered Markdown hides from people but models read"
		}
		if loc := markdownDefinition().FindStringIndex(s); loc != nil {
			return "holds a Markdown reference definition with a title (" + quote(s[loc[0]:loc[1]], 60) + "), which renders as nothing but models read"
		}
	}
	if strings.Contains(s, "](") {
		if loc := markdownTitle().FindStringIndex(s); loc != nil {
			return "holds a Markdown link title (" + quote(s[loc[0]:loc[1]], 60) + "), which people see only on hover but models read"
		}
	}
	if strings.Contains(s, "<") {
		lower, from := lowerMapped(s)
		if loc := hiddenHTML().FindStringIndex(lower); loc != nil {
			return "holds HTML that renders hidden (" + quote(s[from(loc[0]):from(loc[1])], 60) + "), which people do not see but models read"
		}
	}
	return ""
}

// lowerMapped is strings.ToLower(s), with from, which gives for an offset
// of a character of it (or its end) the offset of the character of s it
// came from: lower case can be longer or shorter than upper ("Ⱥ" is two
// bytes, "ⱥ" three), and each byte of invalid UTF-8 becomes U+FFFD.
func lowerMapped(s string) (lower string, from func(int) int) {
	lower = strings.ToLower(s)
	if len(lower) == len(s) && ascii.Is(s) {
		return lower, func(i int) int { return i }
	}
	var b strings.Builder
	b.Grow(len(lower))
	offsets := make([]int, 0, len(lower)+1)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		at := b.Len()
		b.WriteRune(unicode.ToLower(r))
		for range b.Len() - at {
			offsets = append(offsets, i)
		}
		i += n
	}
	offsets = append(offsets, len(s))
	return b.String(), func(i int) int { return offsets[i] }
}

// markdownDefinition matches a Markdown link reference definition with a
// title; markdownTitle an inline link's title of a few words.
var (
	markdownDefinition = lazyRegexp(`(?m)^[ \t]{0,3}\[[^\]\n]{1,100}\]:[ \t]*\S+[ \t]+(?:"[^"\n]+"|'[^'\n]+'|\([^)\n]+\))[ \t]*$`)
	markdownTitle      = lazyRegexp(`\]\([^)\s]+[ \t]+(?:"[^"\n]{12,}"|'[^'\n]{12,}')\)`)
)

// hiddenHTML matches an HTML element styled or marked not to show.
var hiddenHTML = lazyRegexp(`<[a-z][^>]{0,300}(?:style\s*=\s*["'][^"']{0,200}(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?:\.0+)?\s*(?:;|["'])|color\s*:\s*(?:transparent|white|#fff\b|#ffffff))|\shidden(?:\s|>|=)|aria-hidden\s*=\s*["']?true)[^>]{0,300}>`)

// isExample reports whether path is one of a skill's examples: a request
// a person makes of the agent, which may fairly ask it to play a role.
func isExample(path string) bool {
	if !strings.HasSuffix(path, "]") {
		return false // most paths: a member's
	}
	i := strings.LastIndex(path, ".examples[")
	return i >= 0 && !strings.Contains(path[i+1:], ".")
}

// looksLikeURL reports whether s is a URL (scheme://...) with no white
// space of any kind.
func looksLikeURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 || strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return false
	}
	for j, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || j > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// isNameField reports whether path is a name people tell agents apart
// by: name, provider.organization, skills[i].name, .id and .tags[j].
func isNameField(path string) bool {
	if path == "name" || path == "provider.organization" {
		return true
	}
	rest, ok := strings.CutPrefix(path, "skills[")
	if !ok {
		return false
	}
	_, rest, ok = strings.Cut(rest, "].")
	if !ok {
		return false
	}
	if rest == "name" || rest == "id" {
		return true
	}
	rest, ok = strings.CutPrefix(rest, "tags[")
	return ok && strings.HasSuffix(rest, "]") && !strings.ContainsAny(rest, ".[")
}

// hidden is what findHidden found in one string.
type hidden struct {
	first rune
	count int
	// tags is the text spelled in Unicode tag characters (U+E0020 to
	// U+E007E map to ASCII), which models read and people do not.
	tags string
}

func (h hidden) describe() string {
	msg := fmt.Sprintf("holds %d hidden character", h.count)
	if h.count > 1 {
		msg += "s"
	}
	msg += fmt.Sprintf(", the first %U (%s)", h.first, runeName(h.first))
	if h.tags != "" {
		msg += "; the tag characters spell " + quote(h.tags, 80)
	}
	return msg
}

// runeName says what kind of hidden character r is.
func runeName(r rune) string {
	switch {
	case r == 0x200B:
		return "zero width space"
	case r == 0x200C:
		return "zero width non-joiner"
	case r == 0x200D:
		return "zero width joiner"
	case r == 0x2060:
		return "word joiner"
	case r == 0xFEFF:
		return "zero width no-break space"
	case r == 0x00AD:
		return "soft hyphen"
	case r == 0x200E || r == 0x200F || r == 0x061C:
		return "bidirectional mark"
	case r >= 0x202A && r <= 0x202E:
		return "bidirectional embedding or override"
	case r >= 0x2066 && r <= 0x2069:
		return "bidirectional isolate"
	case r >= 0xE0000 && r <= 0xE007F:
		return "tag character"
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return "variation selector"
	case r == 0x2028 || r == 0x2029:
		return "line or paragraph separator"
	case narrowSpace(r):
		return "narrow space inside a word"
	case unicode.Is(unicode.Cc, r):
		return "control character"
	case unicode.Is(unicode.Cf, r):
		return "invisible format character"
	}
	return "invisible filler"
}

// fillers are letters and marks that render as nothing.
func isFiller(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F:
		return true
	}
	return false
}

// isEmoji reports whether r is a pictographic symbol, which joiners and
// variation selectors legitimately follow.
func isEmoji(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2190 && r <= 0x2BFF || r >= 0x2300 && r <= 0x23FF ||
		r == 0x00A9 || r == 0x00AE || r == 0x203C || r == 0x2049 || r == 0x2122 || r == 0x2139 ||
		r >= 0x3030 && r <= 0x303D || r == 0x3297 || r == 0x3299 || unicode.Is(unicode.So, r) ||
		r == '#' || r == '*' || r >= '0' && r <= '9' || r == 0x20E3
}

// findHidden finds characters a reader does not see. Joiners and
// variation selectors inside emoji, a zero-width non-joiner between
// letters of a script that needs it (Persian, the Indic scripts),
// ideographic variation selectors after a Han character, and the tag
// characters of a flag emoji are what they are meant to be, and pass.
func findHidden(s string) hidden {
	if h, allASCII := asciiHidden(s); allASCII {
		return h
	}
	return findHiddenOf(s)
}

// asciiHidden is findHidden of s and whether s is all ASCII, for ASCII s
// (for other text, the hidden characters are not looked for: h is zero),
// eight bytes at a time: only eight that hold a control character are
// read one by one.
func asciiHidden(s string) (h hidden, allASCII bool) {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	bs := unsafe.Slice(unsafe.StringData(s), len(s)) // read only
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(bs[i:])
		if x&high != 0 {
			return hidden{}, false
		}
		// A byte below 0x20, or 0x7f (x^del has a zero byte): for
		// bytes below 0x80 these tell whether there is one.
		del := x ^ 0x7f*ones
		if (x-0x20*ones)&^x&high == 0 && (del-ones)&^del&high == 0 {
			continue
		}
		h = asciiControls(h, bs[i:i+8])
	}
	for _, c := range bs[i:] {
		if c >= utf8.RuneSelf {
			return hidden{}, false
		}
	}
	return asciiControls(h, bs[i:]), true
}

// asciiControls is h with the control characters of ASCII b counted, as
// findHidden counts them in ASCII text: all but tabs and line breaks.
func asciiControls(h hidden, b []byte) hidden {
	for _, c := range b {
		if (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r' {
			if h.count == 0 {
				h.first = rune(c)
			}
			h.count++
		}
	}
	return h
}

// findHiddenOf is findHidden for text that is not all ASCII.
func findHiddenOf(s string) hidden {
	var h hidden
	var tags strings.Builder
	prev := rune(-1)
	rtl := strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsLetter(r) && unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko)
	})
	for i, r := range s {
		bad := false
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r == 0x200E || r == 0x200F || r == 0x061C:
			// Marks (not embeddings, overrides or isolates) order the
			// neutral characters of right-to-left text, where they belong.
			bad = !rtl
		case r == 0x180E: // Mongolian vowel separator, between Mongolian letters
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			bad = !(unicode.Is(unicode.Mongolian, prev) && unicode.Is(unicode.Mongolian, next))
		case r >= 0x180B && r <= 0x180F: // Mongolian free variation selectors, after a Mongolian letter
			bad = !unicode.Is(unicode.Mongolian, prev)
		case r == 0x00AD:
			// A soft hyphen marks where a long word may break: between
			// two letters it is what it says (injection reads through it).
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			bad = !(unicode.IsLetter(prev) && unicode.IsLetter(next))
		case narrowSpace(r):
			// A thin or hair space inside a word splits it unseen.
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			bad = unicode.IsLetter(prev) && unicode.IsLetter(next)
		case unicode.Is(unicode.Cc, r) || r == 0x2028 || r == 0x2029 || isFiller(r):
			bad = true
		case r == 0x200D || r == 0x200C: // joiners: inside an emoji sequence, or a word of a script that shapes
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			emoji := r == 0x200D && (isEmoji(prev) || prev == 0xFE0F || prev >= 0x1F3FB && prev <= 0x1F3FF) && isEmoji(next)
			// After a virama a joiner may end a word: the chillu letters
			// of Malayalam were written so before they had their own.
			bad = !emoji && !(shapes(prev) && (shapes(next) || unicode.Is(unicode.Mn, prev)))
		case r >= 0xFE00 && r <= 0xFE0F:
			bad = !isEmoji(prev)
		case r >= 0xE0100 && r <= 0xE01EF:
			bad = !unicode.Is(unicode.Han, prev)
		case r >= 0xE0020 && r <= 0xE007F:
			// A flag emoji (U+1F3F4, tags, U+E007F) spells a region code.
			bad = !inFlag(s, i)
			if bad && r <= 0xE007E {
				tags.WriteRune(r - 0xE0000)
			}
		case unicode.Is(unicode.Cf, r):
			bad = true
		}
		if bad {
			if h.count == 0 {
				h.first = r
			}
			h.count++
		}
		prev = r
	}
	h.tags = tags.String()
	return h
}

// shapes reports whether r is a letter or mark (a virama, say) of a script
// in which a zero-width joiner or non-joiner changes how letters join:
// Arabic and Persian, the Indic scripts, Sinhala.
func shapes(r rune) bool {
	return r >= 0 && (unicode.IsLetter(r) || unicode.IsMark(r)) && r >= 0x0600 && !unicode.Is(unicode.Common, r) && !unicode.Is(unicode.Inherited, r) && !unicode.Is(unicode.Han, r)
}

// inFlag reports whether the tag character at byte i is part of a flag
// emoji: after U+1F3F4 and a run of tag letters, ending with U+E007F.
func inFlag(s string, i int) bool {
	start := i
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:start])
		if r < 0xE0020 || r > 0xE007E {
			break
		}
		start -= n
	}
	if r, _ := utf8.DecodeLastRuneInString(s[:start]); r != 0x1F3F4 {
		return false
	}
	end := i
	for end < len(s) {
		r, n := utf8.DecodeRuneInString(s[end:])
		if r == 0xE007F {
			return end-start <= 8*4
		}
		if r < 0xE0020 || r > 0xE007E {
			return false
		}
		end += n
	}
	return false
}

// nonString checks a number held by a member named like a credential a
// number can be ("db_password": 12345678; not "max_output_token": 4096),
// as the manifest refuses one (secret.NumberCredentialName).
func (l *linter) nonString(path, key string, v any) {
	if _, isBool := v.(bool); !isBool && secret.NumberCredentialName(key) && !underSecurity(path) {
		l.add(lintrule.CredentialInCard, path, fmt.Sprintf("the member %s holds a value (not repeated here): a credential in a card is published to everyone", quote(key, 40)))
	}
}
