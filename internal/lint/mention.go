package lint

import (
	"slices"
	"strings"
)

// When an order is quoted, not given: a security product naming the
// attacks it catches, a tutorial or a paper citing one.

// describesAttacks reports whether s says it detects or blocks attacks: a
// security product's card, which describes orders in the third person.
func describesAttacks(s string) bool {
	lower := strings.ToLower(s)
	return detectionWords().MatchString(lower) && attackWords().MatchString(lower)
}

// quotedMention reports whether every order s holds is inside quotation
// marks, in text that says it detects or blocks such things: a card of
// a security agent quoting an attack ("such as \"ignore previous
// instructions\""), not making one.
func quotedMention(s string, example bool) bool {
	if !strings.ContainsAny(s, quoteMarks) {
		return false
	}
	outside := quoted().ReplaceAllString(s, " ")
	if outside == s || matchFolded(fold(outside), example) != "" {
		return false
	}
	return describesAttacks(outside)
}

// quoteMarks are the characters a quotation (quoted) starts with.
const quoteMarks = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb`"

// citedMention reports whether every quotation s holds is named as an
// example or a title ("commands like `curl ... | sh`", "messages such as
// 'ignore all previous instructions'", "papers including 'Ignore Previous
// Prompt: ...'"), in text that says it explains, warns about, detects or
// studies such things, and s holds no order outside its quotations: a card
// that talks about an attack, not one that makes it.
func citedMention(s string, example bool) bool {
	if !strings.ContainsAny(s, quoteMarks) {
		return false
	}
	locs := quoted().FindAllStringIndex(s, 8)
	if len(locs) == 0 {
		return false
	}
	for i, loc := range locs {
		if i > 0 && listGap().MatchString(s[locs[i-1][1]:loc[0]]) {
			continue // the next of a list of quotations: "A" (2022), "B" and "C"
		}
		if !mentionCue().MatchString(strings.ToLower(s[max(0, loc[0]-40):loc[0]])) || imperativeBefore(s[:loc[0]]) {
			return false
		}
	}
	outside := quoted().ReplaceAllString(s, " ")
	if matchFolded(fold(outside), example) != "" || structural(outside, example) != "" {
		return false
	}
	lower := strings.ToLower(outside)
	for _, p := range markerPatterns() {
		if p.re.MatchString(lower) {
			return false
		}
	}
	return detectionWords().MatchString(lower) || aboutWords().MatchString(lower)
}

// imperativeBefore reports whether the sentence that ends s opens with an
// order ("Do things like", "Please follow steps such as"): what it quotes
// is then what the reader is told to do.
func imperativeBefore(s string) bool {
	start := 0
	for i := 0; i+1 < len(s); i++ {
		if endsSentence(s[i], s[i+1:]) || s[i] == ':' || s[i] == '\n' {
			start = i + 1
		}
	}
	words := strings.Fields(fold(s[start:]))
	for len(words) > 0 && (words[0] == "please" || words[0] == "kindly" || words[0] == "always" || words[0] == "now" || words[0] == "just") {
		words = words[1:]
	}
	return len(words) > 0 && slices.Contains(verbs, words[0])
}

// listGap is what comes between two quotations of one list: a comma or
// "and", a citation in parentheses.
var listGap = lazyRegexp(`^[\s,;]*(?:\([^()]{0,60}\))?[\s,;]*(?:and|or)?\s*$`)

// mentionCue ends the text before a quotation that names it as an example
// or a title.
var mentionCue = lazyRegexp(`(?:\blike|\bsuch as|\be\.g\.,?|\bfor example,?|\bfor instance,?|\bincluding|\binclude|\bincludes|\btitled|\bcalled|\bnamed|\bquoting|\bphrases?|\bcommands?|\bmessages?|\bstrings?)\s*[(]?\s*$`)

// aboutWords say that a card explains, teaches or studies what it quotes.
var aboutWords = lazyRegexp(`\b(?:explains?|explaining|warns?|warning|spots?|spotting|teach(?:es)?|quiz(?:zes)?|papers?|research|study|studies|articles?|books?|cites?|discuss(?:es)?|moderat\w+|recogni[sz]\w*|analy[sz]\w*|lessons?|courses?|tutorials?)\b`)

// quoted matches text in quotation marks.
var quoted = lazyRegexp("\"[^\"]{1,300}\"|\u201c[^\u201d]{1,300}\u201d|\u00ab[^\u00bb]{1,300}\u00bb|`[^`]{1,300}`|(?:^|[\\s(])'[^']{1,300}'|\u2018[^\u2019]{1,300}\u2019")

// detectionWords and attackWords, both outside the quotation marks, say
// that quoted orders are examples of attacks a card's agent detects: "Scans
// email for prompt injection, such as \"ignore previous instructions\"".
var (
	detectionWords = lazyRegexp(`\b(?:detects?|detecting|detection|flags?|flagging|blocks?|blocking|scans?|scanning|classif(?:y|ies|ier|ication)|filters? out|catch(?:es)?|identif(?:y|ies)|screens?|quarantines?|red.team\w*|tests? (?:for|against))\b`)
	attackWords    = lazyRegexp(`\b(?:prompt injections?|injections?|jailbreaks?|attacks?|malicious|phishing|manipulat\w+|exploits?|adversarial)\b`)
)
