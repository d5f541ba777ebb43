// Package lint checks Agent Cards for what a signature cannot vouch for:
// text aimed at the models that read cards, hidden or look-alike
// characters, endpoints a public card should not name, credentials, and
// the gaps that make an agent hard to choose (a skill with no examples, a
// description of three words). It reads a decoded card of either shape
// (A2A v1.0 or the v0.3.0 agent.json) and never fetches anything.
package lint

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/lintrule"
)

// Severity says whether a finding fails `agentcards lint`.
type Severity string

// Severities.
const (
	// Error fails lint (exit code 1): the card is unsafe to publish or
	// to trust as it is.
	Error Severity = "error"
	// Warning fails lint only with -strict: the card works, but worse
	// than it could.
	Warning Severity = "warning"
)

// Category groups rules.
type Category string

// Categories.
const (
	Safety  Category = "safety"
	Quality Category = "quality"
)

// Rule is one check.
type Rule struct {
	// ID names the rule in output and in the manifest's
	// [agents.lint.silence] table: one of package lintrule's ids.
	ID       string   `json:"id"`
	Category Category `json:"category"`
	Severity Severity `json:"severity"`
	// Finds says what the rule finds, in words.
	Finds string `json:"finds"`
	// Fix says what to do about a finding.
	Fix string `json:"fix"`
}

// rules describes each rule id of package lintrule, in its order.
var rules = []Rule{
	{lintrule.PromptInjection, Safety, Error,
		"text addressed to a model rather than describing the agent: \"ignore previous instructions\", \"you must call\", role-play prompts, chat-template markers",
		"describe what the agent does; never instruct the models that read the card"},
	{lintrule.HiddenText, Safety, Error,
		"characters a reader does not see: zero-width and other format characters, bidirectional controls, Unicode tag characters, control characters, invisible fillers",
		"remove the hidden characters; what the card says must be what people see"},
	{lintrule.ConfusableText, Safety, Error,
		"look-alike text: a word mixing Latin with Cyrillic, Armenian or Cherokee letters; in names, any word mixing scripts not written together, and full-width letters; styled mathematical letters; a non-ASCII host name mixing scripts",
		"spell the word in one script"},
	{lintrule.PrivateEndpoint, Safety, Error,
		"an endpoint or security URL on a private, loopback, link-local or internal address (10.0.0.0/8, 127.0.0.1, 169.254.0.0/16, localhost, a one-label host name ...), which a public card must not point callers at",
		"publish the agent's public https address"},
	{lintrule.InsecureEndpoint, Safety, Error,
		"an endpoint or security URL that is not https: requests and credentials would cross the network in the clear",
		"serve the endpoint over https and write its https:// URL"},
	{lintrule.NoSecurity, Safety, Warning,
		"interfaces anyone may call: no security requirement (or an empty one, which allows anonymous calls) on the card or on every skill",
		"declare securitySchemes and securityRequirements; silence the rule, with the reason, for an agent that is public on purpose"},
	{lintrule.CredentialInCard, Safety, Error,
		"a credential in the card: a member named like one (shared_secret, apiKey, password, token ...) with a value, or private key material in any text",
		"remove it and rotate it: a published card is public; describe the scheme in securitySchemes instead"},
	{lintrule.SkillNoExamples, Quality, Warning,
		"a skill with no examples, which clients and models use to choose an agent",
		"add one to three example requests to the skill"},
	{lintrule.DescriptionShort, Quality, Warning,
		"a description too short to choose an agent or skill by (under 40 characters or 6 words for an agent, under 25 characters or 4 words for a skill)",
		"say what it does, for whom, and with what input and output"},
	{lintrule.DescriptionLong, Quality, Warning,
		"a description too long for a card that clients and models read whole (over 1,000 characters for an agent, 600 for a skill)",
		"keep the card's description short and put the rest in the documentation"},
	{lintrule.DuplicateSkillID, Quality, Warning,
		"two skills with the same id, which clients cannot tell apart when they ask for one",
		"give each skill its own id"},
	{lintrule.SkillNoTags, Quality, Warning,
		"a skill with no tags (A2A requires at least one), which searches and catalogs index skills by",
		"add one to five tags that say what the skill is about"},
	{lintrule.DuplicateTag, Quality, Warning,
		"the same tag twice in one skill",
		"list each tag once"},
	{lintrule.TagCase, Quality, Warning,
		"tags that differ only in letter case (\"Finance\" and \"finance\"), which split searches",
		"spell each tag one way across the card, in lower case"},
	{lintrule.DuplicateSkillDesc, Quality, Warning,
		"skills with the same description, which no client can choose between",
		"describe what sets each skill apart"},
	{lintrule.NoProvider, Quality, Warning,
		"no provider organization: callers cannot tell who runs the agent",
		"set provider.organization and provider.url (in agents.toml, [provider] or [agents.provider])"},
	{lintrule.NoDocumentationURL, Quality, Warning,
		"no documentationUrl",
		"link the agent's documentation with documentationUrl"},
	{lintrule.VersionNotSemver, Quality, Warning,
		"a version that is not a semantic version (MAJOR.MINOR.PATCH, https://semver.org)",
		"write the version as MAJOR.MINOR.PATCH, such as 1.4.0"},
}

// Rules lists every rule, safety first.
func Rules() []Rule { return slices.Clone(rules) }

// Lookup finds a rule by id.
func Lookup(id string) (Rule, bool) {
	for _, r := range rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Finding is one problem in one card.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Category Category `json:"category"`
	// Path is where in the card, in JSONPath-like notation without the
	// leading "$.": "skills[2].description"; "" is the whole card.
	Path    string `json:"path"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
	// Silenced is the reason the manifest gives for silencing the rule
	// for this agent; a silenced finding fails nothing.
	Silenced string `json:"silenced,omitempty"`
}

// Silence marks the findings of the rules in reasons (rule id -> reason)
// as silenced.
func Silence(fs []Finding, reasons map[string]string) {
	for i := range fs {
		if r, ok := reasons[fs[i].Rule]; ok {
			fs[i].Silenced = r
		}
	}
}

// Count returns how many findings are errors and warnings, silenced ones
// left out.
func Count(fs []Finding) (errors, warnings int) {
	for _, f := range fs {
		switch {
		case f.Silenced != "":
		case f.Severity == Error:
			errors++
		default:
			warnings++
		}
	}
	return errors, warnings
}

// Card lints a decoded Agent Card (card.Decode), A2A v1.0 or v0.3.0 shape.
// Findings come in rule order, then in card order.
func Card(doc map[string]any) []Finding { return (&linter{}).card(doc) }

// Linter lints many cards, remembering what it found in each string it
// read, so that a string met again (a tag on many skills, the text of a
// card's v1.0 and v0.3.0 shapes) is judged once. It is safe for
// concurrent use.
type Linter struct {
	memo memo
}

// Card lints a decoded Agent Card, as the package's Card does.
func (lr *Linter) Card(doc map[string]any) []Finding {
	return (&linter{memo: &lr.memo}).card(doc)
}

// Document lints any other published JSON document (an AI Catalog, say)
// with the rules for text: what models read there may hold orders,
// hidden or look-alike text, or credentials as well as a card.
func (lr *Linter) Document(doc map[string]any) []Finding {
	l := &linter{memo: &lr.memo}
	l.text(doc)
	return l.findings()
}

// ServerCard lints a decoded MCP Server Card, as the package's
// ServerCard does.
func (lr *Linter) ServerCard(doc map[string]any) []Finding {
	return (&linter{memo: &lr.memo}).serverCard(doc)
}

// memoKey is what a memo's findings of s depend on. Each kind of
// memoKey (memoKind) uses only some of the fields, leaving the others
// zero.
type memoKey struct {
	kind memoKind
	s    string
	// key is the name of the member s is the value of (valueMemo).
	key string
	// example, name and security say where s stands (valueMemo), or,
	// example only, how a window is read (windowMemo).
	example, name, security bool
	// secure and hostPort are endpointOf's (endpointMemo).
	secure, hostPort bool
}

// memoKind says what a memoKey's findings are of.
type memoKind uint8

// The kinds of memoKey.
const (
	// valueMemo: checkValue's findings in the string s.
	valueMemo memoKind = iota
	// windowMemo: what injection finds in s, a window of crossField,
	// as the one finding it makes.
	windowMemo
	// endpointMemo: endpointOf's findings of the URL s.
	endpointMemo
)

// memoFinding is a finding without its path.
type memoFinding struct{ rule, msg string }

// memoLimit bounds the strings a memo holds; past it, it starts over.
const memoLimit = 1 << 14

// headersLimit bounds the protected headers a memo holds; past it, it
// starts over. A site's signatures share a few.
const headersLimit = 64

// memo holds the text rules' findings per string, and the JWS protected
// headers decoded (protectedHeader).
type memo struct {
	mu      sync.Mutex
	m       map[memoKey][]memoFinding
	headers map[string]map[string]any
}

func (m *memo) get(k memoKey) ([]memoFinding, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fs, ok := m.m[k]
	return fs, ok
}

func (m *memo) put(k memoKey, fs []memoFinding) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= memoLimit {
		m.m = map[memoKey][]memoFinding{}
	}
	// The card's strings may share the memory of its whole text: keep
	// copies.
	k.s, k.key = strings.Clone(k.s), strings.Clone(k.key)
	m.m[k] = fs
}

// header returns protectedHeader(b64), decoding it only the first time.
// Whoever holds the result only reads it: it is shared.
func (m *memo) header(b64 string) map[string]any {
	m.mu.Lock()
	h, ok := m.headers[b64]
	m.mu.Unlock()
	if ok {
		return h
	}
	h = protectedHeader(b64)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.headers == nil || len(m.headers) >= headersLimit {
		m.headers = map[string]map[string]any{}
	}
	m.headers[strings.Clone(b64)] = h
	return h
}

// Twin returns the findings of a card's other shape (its agent.json,
// beside its agent-card.json) that the first shape's findings do not
// already say: the same rule and message.
func Twin(first, twin []Finding) []Finding {
	said := map[memoFinding]bool{}
	for _, f := range first {
		said[memoFinding{f.Rule, f.Message}] = true
	}
	var out []Finding
	for _, f := range twin {
		if !said[memoFinding{f.Rule, f.Message}] {
			out = append(out, f)
		}
	}
	return out
}

// card lints a decoded Agent Card.
func (l *linter) card(doc map[string]any) []Finding {
	l.text(doc)
	l.endpoints(doc)
	l.security(doc)
	l.quality(doc)
	return l.findings()
}

// findings are the linter's findings in rule order, then in card order.
func (l *linter) findings() []Finding {
	slices.SortStableFunc(l.out, func(a, b Finding) int { return ruleIndex(a.Rule) - ruleIndex(b.Rule) })
	return l.out
}

func ruleIndex(id string) int {
	for i, r := range rules {
		if r.ID == id {
			return i
		}
	}
	return len(rules)
}

// linter collects findings.
type linter struct {
	out  []Finding
	memo *memo // nil: nothing remembered
}

func (l *linter) add(rule, path, msg string) {
	r, _ := Lookup(rule)
	l.out = append(l.out, Finding{Rule: rule, Severity: r.Severity, Category: r.Category, Path: path, Message: msg, Fix: r.Fix})
}

// member is the path of member name under parent.
func member(parent, name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if !plain {
		return parent + "[" + quote(name, 200) + "]"
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// index is the path of element i under parent.
func index(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

// quote shows text in a message: quoted, with every character that is
// not visible escaped (format and control characters, invisible fillers,
// variation selectors, tag characters, and marks that would fall on the
// quotation's ASCII letters or quotes), cut to max runes.
func quote(s string, max int) string {
	b := []byte{'"'}
	n := 0
	prev := rune('"')
	for _, r := range s {
		if n == max {
			b = append(b, `"...`...)
			return string(b)
		}
		n++
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case !unicode.IsGraphic(r) || isFiller(r) || unicode.Is(unicode.Variation_Selector, r) ||
			r >= 0xE0000 && r <= 0xE007F || unicode.IsMark(r) && prev < utf8.RuneSelf:
			q := strconv.QuoteRuneToASCII(r) // 'x' or '\uXXXX'
			b = append(b, q[1:len(q)-1]...)
		default:
			b = utf8.AppendRune(b, r)
		}
		prev = r
	}
	return string(append(b, '"'))
}

// str is v as a string, or "".
func str(v any) string {
	s, _ := v.(string)
	return s
}

// list is v as an array, or nil.
func list(v any) []any {
	a, _ := v.([]any)
	return a
}

// object is v as an object, or nil.
func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// sortedKeys are m's member names in order, so findings come in the same
// order every run.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// words counts the words of s: runs between white space that hold a
// letter or a digit.
func words(s string) int { return countWords(s, math.MaxInt) }

// countWords is min(words(s), limit): it stops reading at the limit-th
// word, for a caller that asks only whether s has fewer words than that.
func countWords(s string, limit int) int {
	n, in, counts := 0, false, false
	i := 0
	// ASCII the quick way.
	for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
		switch k := asciiWordByte[s[i]]; k {
		case wordSpace:
			if counts {
				if n++; n == limit {
					return n
				}
			}
			in, counts = false, false
		default:
			in = true
			counts = counts || k == wordLetter
		}
	}
	for _, r := range s[i:] {
		if unicode.IsSpace(r) {
			if counts {
				if n++; n == limit {
					return n
				}
			}
			in, counts = false, false
			continue
		}
		in = true
		counts = counts || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	if in && counts {
		n++
	}
	return n
}

// What words makes of an ASCII byte: white space, a letter or digit, or
// another character of a word.
const (
	wordOther = iota
	wordSpace
	wordLetter
)

var asciiWordByte = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		switch r := rune(c); {
		case unicode.IsSpace(r):
			t[c] = wordSpace
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			t[c] = wordLetter
		}
	}
	return t
}()

// ServerCard lints a decoded MCP Server Card: the safety rules that apply
// to any published text (a tool poisoned with orders to the model is the
// MCP form of prompt injection), and the endpoints of its remotes.
func ServerCard(doc map[string]any) []Finding { return (&linter{}).serverCard(doc) }

// serverCard lints a decoded MCP Server Card.
func (l *linter) serverCard(doc map[string]any) []Finding {
	l.text(doc)
	for i, v := range list(doc["remotes"]) {
		l.endpoint(member(index("remotes", i), "url"), str(object(v)["url"]), true)
	}
	return l.findings()
}
