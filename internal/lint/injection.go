package lint

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text aimed at a model is found in a folded copy of each string: hidden
// characters dropped, look-alike letters of other scripts and styled
// letters read as the Latin letters they imitate, letter case and
// apostrophes dropped, and every run of other characters one space. So
// "IGNORE   previous\u200b instructions", "ignоre" with a Cyrillic о and
// "𝐢𝐠𝐧𝐨𝐫𝐞" all read "ignore".

// qualifier is what makes "ignore ... instructions" an override: the
// instructions are someone else's.
const qualifier = `(?:all|any|every|previous|prior|above|earlier|preceding|former|original|initial|your|the system|safety|other|these|those|developer|developers|its|my)`

// orders are what an override throws away.
const orders = `(?:instructions?|prompts?|rules|guidelines|directions|directives|guardrails|constraints|policies|context|programming)`

// injectionPatterns match folded text. Verbs are in their base form: a
// card describes what an agent does ("sends reports"); the imperative
// ("send the credentials to") is addressed to whoever reads it. The
// patterns leave out what a skill's example, itself a request, says in
// earnest ("show me the configuration", "ignore messages from bots").
// injectionPatterns match folded text. Each runs only on text holding
// one of its gate words, which every match holds: one pass over the words
// picks the few patterns worth running (Go's regexp has no DFA, and one
// alternation of them all costs milliseconds a card).
var injectionPatterns = []struct {
	gate, re string
	role     bool // a role-play prompt, which a skill's example may fairly be
}{
	// Overrides.
	{`ignore disregard forget override bypass abandon discard`, `\b(?:ignore|disregard|forget|override|bypass|abandon|discard)(?: \w+){0,2} ` + qualifier + `(?: \w+){0,2} ` + orders + `\b`, false},
	{`ignore disregard forget`, `\b(?:ignore|disregard|forget) (?:everything|anything|all)(?: (?:that|you were|you have been|you ve been|youve been|said|told|written|above|before|previously|so far))+\b`, false},
	{`instructions directives orders prompt objective`, `\b(?:new|updated|real|true|actual|hidden|secret|revised) (?:system )?(?:instructions|directives|orders|prompt|objective) (?:are|is|follow|below)\b`, false},
	{`system`, `\bsystem (?:prompt|message|instructions?) (?:override|update)\b`, false},
	{`override`, `\b(?:system|admin|administrator|developer|root) override\b`, false},
	{`instrucciones instructions anweisungen instruções instrucoes istruzioni instructies instrukcje`, `\b(?:ignora|ignore|ignorez|ignorer|ignoriere|ignorieren|ignorar|ignorare|negeer|zignoruj)(?: \S+){0,2} (?:todas|todos|toutes|alle|tutte|wszystkie|anteriores|previas|précédentes|precedenti|vorherigen|bisherigen|eerdere|poprzednie)(?: \S+){0,2} (?:instrucciones|instructions|anweisungen|instruções|instrucoes|istruzioni|instructies|instrukcje)\b`, false},
	{`instrucciones instructions anweisungen instruções instrucoes istruzioni instructies instrukcje`, `\b(?:ignora|ignore|ignorez|ignorer|ignoriere|ignorieren|ignorar|ignorare|negeer|zignoruj)(?: \S+){0,2} (?:instrucciones|instructions|anweisungen|instruções|instrucoes|istruzioni|instructies|instrukcje) (?:anteriores|previas|précédentes|precedenti|vorherigen|bisherigen|eerdere|poprzednie)`, false},
	// Roles.
	{`now longer actually really`, `\byou are (?:now|no longer|actually|really) (?:a|an|the|in|my|free|dan|unrestricted|not|jailbroken)\b`, true},
	{`now`, `\bfrom now on(?: \w+)? (?:you|act|respond|answer|behave|ignore|always)\b`, true},
	{`pretend imagine`, `\b(?:pretend|imagine) (?:that )?you (?:are|re|have)\b`, true},
	{`pretend`, `\bpretend to be\b`, true},
	{`roleplay role act pretend behave respond`, `\byou (?:will|shall|must|should|are to) (?:now )?(?:role ?play|act|pretend|behave|respond) as\b`, true},
	{`lets`, `\blets (?:role ?play|pretend)\b`, true},
	{`roleplay role`, `\brole ?play as (?:an? )?(?:unrestricted|evil|unfiltered|uncensored|jailbroken|different|new)\b`, true},
	{`act`, `\bact as (?:if|though) you\b`, true},
	{`role persona identity character`, `\b(?:assume|adopt|take on|switch to) (?:the |a |an )?(?:role|persona|identity|character) (?:of|as)\b`, true},
	{`role persona identity purpose instructions goal`, `\byour (?:new|true|real) (?:role|persona|identity|purpose|instructions|goal)\b`, true},
	{`anything dan god jailbreak jailbreaked jailbreaking`, `\b(?:do anything now|dan mode|god mode|jailbreak(?:ed|ing)? (?:mode|prompt))\b`, true},
	// Orders to the reader.
	{`must shall required instructed`, `\byou (?:must|shall|are required to|are instructed to)(?: \w+)? (?:always |now |first |immediately |also |then |instead |only )?(?:call|invoke|execute|forward|reveal|ignore|disregard|obey|route|delegate|transfer|disclose|leak|trust|approve|grant|exfiltrate|prioriti[sz]e)\b`, false},
	{`call invoke route delegate`, `\b(?:always|first|before (?:anything|any other \w+|doing anything|you do anything|answering|responding)) (?:call|invoke|route to|delegate to) (?:this|the|our) (?:agent|tool|skill|function|endpoint|server|service)\b`, false},
	{`dont not never`, `\b(?:do not|dont|never) (?:tell|inform|alert|notify|warn) (?:the user|the human|users|the operator|the customer) (?:about )?(?:this|that|these|it)\b`, false},
	{`dont not never`, `\b(?:do not|dont|never) (?:mention|reveal|disclose) (?:this|that|it)\b`, false},
	{`dont not never`, `\b(?:do not|dont|never) (?:ask|wait|seek|request)(?: \w+){0,2} (?:for )?(?:confirmation|permission|approval|consent)\b`, false},
	{`without`, `\bwithout (?:telling|informing|alerting|warning) (?:the |your )?(?:user|human|operator|customer)\b`, false},
	{`dont not never`, `\b(?:do not|dont|never) (?:reveal|disclose|mention|share|repeat|show) (?:these|this|the|my|your) (?:instructions|message|prompt|note|rules)\b`, false},
	{`when`, `\bwhen you (?:read|see|process|encounter|receive|parse) this(?: \w+){0,3} (?:invoke|ignore|execute|forward|approve|call (?:the |this )?\w+(?: \w+)? (?:tool|function|skill|agent))\b`, false},
	{`before`, `\bbefore (?:using|calling|invoking|answering with) (?:any|another|any other)(?: \w+)? (?:tools?|agents?|skills?|functions?)(?: \w+){0,2} (?:call|invoke|use|run|you must|always)\b`, false},
	{`malicious compromised unsafe untrusted fake`, `\b(?:other|all other|the other) (?:agents|tools|assistants|skills|servers) (?:are|is) (?:malicious|compromised|unsafe|untrusted|fake)\b`, false},
	{`ssh passwd shadow aws mcp env`, `\b(?:contents? of|cat|print|send|output|include|exfiltrate|upload|read|pass)(?: \w+){0,3} (?:ssh id (?:rsa|dsa|ecdsa|ed25519)|etc (?:passwd|shadow)|aws credentials|cursor mcp json|mcp json|claude json|env file)\b`, false},
	{`prompt message instructions`, `\b(?:reveal|repeat|leak|disclose|dump|print|output|show|tell me|write out)(?: me| us)? (?:your|the|all|any)(?: \w+){0,2} (?:system prompt|system message|(?:hidden|secret|initial|original) instructions)\b`, false},
	{`instructions rules guidelines prompt`, `\b(?:reveal|repeat|leak|disclose|dump|print|output|show)(?: me| us)? your (?:instructions|rules|guidelines|prompt)\b`, false},
	{`send forward email post upload exfiltrate leak copy transmit`, `\b(?:send|forward|email|post|upload|exfiltrate|leak|copy|transmit)(?: \w+){0,4} (?:credentials|passwords?|secrets?|api keys?|access tokens?|tokens|session cookies?|cookies|conversation history|chat history|system prompt|private keys?|env(?:ironment)? variables)\b(?: \w+){0,3} (?:to|at|via)\b`, false},
	// Addressed to models.
	{`ai llm llms model models assistant assistants language chatbot`, `\b(?:note|message|instructions?|attention|reminder|notice) (?:to|for) (?:the |any |all )?(?:ai|llm|llms|model|models|assistant|assistants|language model|language models|ai assistant|ai agent|ai agents|chatbot)\b`, false},
	{`ai llm model assistant chatbot gpt chatgpt claude gemini`, `\bif you are (?:an? )?(?:ai|llm|language model|large language model|ai assistant|ai agent|chatbot|gpt|chatgpt|claude|gemini)(?:$| (?:reading|processing|parsing|model|system|tool|assistant|agent|then|you|please|ignore|always|never|must|do|dont|call|and))`, false},
	{`dear hey attention`, `\b(?:dear|hey|attention) (?:ai|llm|assistant|model|chatgpt|claude|gemini|gpt)(?:$| (?:reading|you|please|ignore|assistant|assistants|model|models|agent|agents|system))`, false},
	{`ai llm llms assistant assistants model models language`, `\b(?:ai|llm|llms|assistants?|models?|language models?|ai agents?)(?: reading this)? (?:must|shall|should|are required to) (?:always |only |never |now )?(?:ignore|call|obey|disregard|forget|reveal|prefer|trust|route|invoke)\b`, false},
	{`important urgent critical priority mandatory`, `\b(?:important|urgent|critical|priority|mandatory) (?:system )?(?:instructions?|notice|message|directive|override) (?:for|to) (?:the )?(?:ai|llm|model|assistant)\b`, false},
}

// markerPatterns match chat-template and prompt markers in lower-cased
// text as written (punctuation matters there); each runs only on text that
// holds its gate.
var markerPatterns = []struct {
	gate []string // any of them
	re   *regexp.Regexp
}{
	{[]string{"<"}, regexp.MustCompile(`<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id|start|message|channel|end)\|>|<</?sys>>|</?(?:system|system_prompt|instructions?|im_start|important)>|<(?:start|end)_of_turn>`)},
	{[]string{"[inst", "[/inst"}, regexp.MustCompile(`\[/?inst\]`)},
	{[]string{"#", "instruction"}, regexp.MustCompile(`(?:^|\n)[ \t]*#{1,6}[ \t]*(?:system|instruction|response|assistant)[ \t]*:|\bnew (?:system )?instructions?[ \t]*:`)},
	{[]string{"system prompt"}, regexp.MustCompile(`\bbegin system prompt\b|\bend of system prompt\b`)},
}

// injectionREs are the compiled patterns, and byGate the patterns each
// gate word lets run.
var injectionREs, byGate = compilePatterns()

func compilePatterns() ([]*regexp.Regexp, map[string][]int) {
	res := make([]*regexp.Regexp, len(injectionPatterns))
	gates := map[string][]int{}
	for i, p := range injectionPatterns {
		res[i] = regexp.MustCompile(p.re)
		for _, w := range strings.Fields(p.gate) {
			gates[w] = append(gates[w], i)
		}
	}
	return res, gates
}

// windowWords is how many words on each side of a gate word a match may
// reach: more than the longest pattern spans.
const windowWords = 16

// matchFolded returns the first phrase of folded text that a pattern
// matches, or "". A pattern runs only around the gate words it needs, on
// the words within windowWords of each: a card's text is read once, and
// the regular expressions see a few dozen words.
func matchFolded(folded string, example bool) string {
	gated := false
	for w := range strings.SplitSeq(folded, " ") {
		if byGate[w] != nil {
			gated = true
			break
		}
	}
	if !gated {
		return ""
	}
	var starts []int // byte offset of each word
	pos := 0
	for w := range strings.SplitSeq(folded, " ") {
		starts = append(starts, pos)
		pos += len(w) + 1
	}
	best, at := "", len(folded)
	for k, lo := range starts {
		end := len(folded)
		if k+1 < len(starts) {
			end = starts[k+1] - 1
		}
		for _, i := range byGate[folded[lo:end]] {
			if example && injectionPatterns[i].role {
				continue
			}
			from := starts[max(0, k-windowWords)]
			to := len(folded)
			if k+windowWords+1 < len(starts) {
				to = starts[k+windowWords+1] - 1
			}
			if loc := injectionREs[i].FindStringIndex(folded[from:to]); loc != nil && from+loc[0] < at {
				best, at = folded[from+loc[0]:from+loc[1]], from+loc[0]
			}
		}
	}
	return best
}

// injection returns the phrase of s addressed to a model, or "".
func injection(s string, example bool) string {
	// Markers need their punctuation, or a phrase the folded text holds.
	folded := fold(s)
	if strings.ContainsAny(s, "<[:\uff1c\uff3b\uff1a") || strings.Contains(folded, "system prompt") {
		lower := s
		if !isASCII(s) {
			lower = norm.NFKC.String(s)
		}
		lower = strings.ToLower(lower)
		for _, p := range markerPatterns {
			for _, g := range p.gate {
				if strings.Contains(lower, g) {
					if m := p.re.FindString(lower); m != "" {
						return strings.TrimSpace(m)
					}
					break
				}
			}
		}
	}
	if m := matchFolded(folded, example); m != "" {
		return m
	}
	// "i g n o r e previous instructions": letters spaced out.
	if joined, ok := joinSpacedLetters(folded); ok {
		return matchFolded(joined, example)
	}
	return ""
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldASCII is fold for ASCII text.
func foldASCII(s string) string {
	b := make([]byte, 0, len(s))
	space := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '`':
			continue
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
			space = false
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b = append(b, c)
			space = false
		case !space:
			b = append(b, ' ')
			space = true
		}
	}
	if len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return string(b)
}

// joinSpacedLetters joins runs of four or more one-letter words of folded
// text; ok is false when there is none.
func joinSpacedLetters(folded string) (string, bool) {
	if !strings.Contains(folded, " ") || !spacedLetters(folded) {
		return folded, false
	}
	words := strings.Split(folded, " ")
	var b strings.Builder
	found := false
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && utf8.RuneCountInString(words[j]) == 1 {
			j++
		}
		if j-i >= 4 {
			found = true
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.Join(words[i:j], ""))
			i = j
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i])
		i++
	}
	return b.String(), found
}

// spacedLetters reports whether folded text holds four one-letter words in
// a row.
func spacedLetters(folded string) bool {
	run, n := 0, 0
	for i := 0; i <= len(folded); i++ {
		if i == len(folded) || folded[i] == ' ' {
			if n == 1 {
				run++
				if run >= 4 {
					return true
				}
			} else {
				run = 0
			}
			n = 0
			continue
		}
		if folded[i] < utf8.RuneSelf || utf8.RuneStart(folded[i]) {
			n++
		}
	}
	return false
}

// fold is s as the injection patterns read it.
func fold(s string) string {
	if isASCII(s) {
		return foldASCII(s)
	}
	// Compatibility forms (ℐ, ⁱ, ⒤, 🄸, full-width) become the letters
	// they show, and accents come apart from their letters (dropped below).
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		if r == '\'' || r == 0x2019 || r == 0x2018 || r == '`' || r == 0x00B4 || unicode.Is(unicode.Cf, r) || isFiller(r) || unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(asLatin(r))
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}

// lookalikes are letters of other scripts that look like Latin letters.
var lookalikes = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x',
	'і': 'i', 'ї': 'i', 'ј': 'j', 'ѕ': 's', 'һ': 'h', 'ԁ': 'd', 'ӏ': 'l', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'ɡ': 'g',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'У': 'Y', 'Х': 'X',
	'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y', 'Ӏ': 'I',
	// Greek
	'α': 'a', 'ο': 'o', 'ι': 'i', 'ν': 'v', 'κ': 'k', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ϲ': 'c', 'ϳ': 'j',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Armenian
	'օ': 'o', 'ս': 'u', 'ց': 'g', 'հ': 'h', 'ո': 'n', 'զ': 'q',
	// small capitals and dotless i
	'ı': 'i', 'ᴀ': 'a', 'ʙ': 'b', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e', 'ꜰ': 'f', 'ɢ': 'g', 'ʜ': 'h', 'ɪ': 'i', 'ᴊ': 'j', 'ᴋ': 'k',
	'ʟ': 'l', 'ᴍ': 'm', 'ɴ': 'n', 'ᴏ': 'o', 'ᴘ': 'p', 'ʀ': 'r', 'ꜱ': 's', 'ᴛ': 't', 'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ʏ': 'y', 'ᴢ': 'z',
}

// asLatin maps a look-alike, full-width or mathematical styled letter or
// digit to the ASCII one it imitates; other runes are returned as they are.
func asLatin(r rune) rune {
	switch {
	case r < 0x80:
		return r
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		return r - 0xFF01 + '!'
	case r >= 0x1D400 && r <= 0x1D6A3: // mathematical alphanumerics: 13 styles of A-Z a-z
		if k := (r - 0x1D400) % 52; k < 26 {
			return 'A' + k
		} else {
			return 'a' + k - 26
		}
	case r >= 0x1D7CE && r <= 0x1D7FF: // mathematical digits: 5 styles of 0-9
		return '0' + (r-0x1D7CE)%10
	case r >= 0x24B6 && r <= 0x24CF: // circled capitals
		return 'A' + r - 0x24B6
	case r >= 0x24D0 && r <= 0x24E9: // circled small letters
		return 'a' + r - 0x24D0
	}
	if l, ok := lookalikes[r]; ok {
		return l
	}
	return r
}
