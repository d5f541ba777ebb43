package lint

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text aimed at a model is found in a folded copy of each string: hidden
// characters dropped, look-alike letters of other scripts and styled
// letters read as the Latin letters they imitate, letter case and
// apostrophes dropped, and every run of other characters one space. So
// "IGNORE   previous\u200b instructions", "ignоre" with a Cyrillic о and
// "𝐢𝐠𝐧𝐨𝐫𝐞" all read "ignore".

// qualifier is what makes "ignore ... instructions" an override: the
// instructions are someone else's.
const qualifier = `(?:all|any|every|previous|prior|above|earlier|preceding|former|original|existing|initial|your|the system|system|safety|other|these|those|developer|developers|its|my)`

// orders are what an override throws away.
const orders = `(?:instructions?|prompts?|rules|guidelines|directions|directives|guardrails|constraints|policies|context|programming)`

// injectionPatterns match folded text. Verbs are in their base form: a
// card describes what an agent does ("sends reports"); the imperative
// ("send the credentials to") is addressed to whoever reads it. The
// patterns leave out what a skill's example, itself a request, says in
// earnest ("show me the configuration", "ignore messages from bots").
var injectionPatterns = []string{
	// Overrides.
	`\b(?:ignore|disregard|forget|override|bypass|abandon|discard)(?: \w+){0,2} ` + qualifier + `(?: \w+){0,2} ` + orders + `\b`,
	`\b(?:ignore|disregard|forget) (?:everything|anything|all)(?: (?:that|you were|you have been|you ve been|youve been|said|told|written|above|before|previously|so far))+\b`,
	`\b(?:new|updated|real|true|actual|hidden|secret|revised) (?:system )?(?:instructions|directives|orders|prompt|objective) (?:are|is|follow|below)\b`,
	`\bsystem (?:prompt|message|instructions?) (?:override|update)\b`,
	`\b(?:system|admin|administrator|developer|root) override\b`,
	`\bignore (?:todas )?las instrucciones\b`,
	`\b(?:ignora|ignorez|ignorer|ignoriere|ignorieren|ignorar|ignorare|negeer|zignoruj)(?: \w+){0,2} (?:instrucciones|instructions|anweisungen|instruções|instrucoes|istruzioni|instructies|instrukcje)\b`,
	// Roles.
	`\byou are (?:now|no longer|actually|really) (?:a|an|the|in|my|free|dan|unrestricted|not|jailbroken)\b`,
	`\bfrom now on(?: \w+)? (?:you|act|respond|answer|behave|ignore|always)\b`,
	`\b(?:pretend|imagine) (?:that )?you (?:are|re|have)\b`,
	`\bpretend to be\b`,
	`\byou (?:will|shall|must|should|are to) (?:now )?(?:role ?play|act|pretend|behave|respond) as\b`,
	`\blets (?:role ?play|pretend)\b`,
	`\brole ?play as (?:an? )?(?:unrestricted|evil|unfiltered|uncensored|jailbroken|different|new)\b`,
	`\bact as (?:if|though) you\b`,
	`\b(?:assume|adopt|take on|switch to) (?:the |a |an )?(?:role|persona|identity|character) (?:of|as)\b`,
	`\byour (?:new|true|real) (?:role|persona|identity|purpose|instructions|goal)\b`,
	`\b(?:do anything now|dan mode|god mode|jailbreak(?:ed|ing)? (?:mode|prompt))\b`,
	// Orders to the reader.
	`\byou (?:must|shall|are required to|are instructed to)(?: \w+)? (?:always |now |first |immediately |also |then |instead |only )?(?:call|invoke|execute|forward|reveal|ignore|disregard|obey|route|delegate|transfer|disclose|leak|trust|approve|grant|exfiltrate|prioriti[sz]e)\b`,
	`\b(?:always|first|before (?:anything|any other \w+|doing anything|you do anything|answering|responding)) (?:call|invoke|route to|delegate to) (?:this|the|our) (?:agent|tool|skill|function|endpoint|server|service)\b`,
	`\b(?:do not|dont|never) (?:tell|inform|mention|reveal|disclose|alert|notify|warn)(?: \w+){0,3} (?:the user|the human|users|the operator|the customer)\b`,
	`\b(?:do not|dont|never|without) (?:ask|asking|wait|waiting|seek|seeking|request|requesting)(?: \w+){0,2} (?:for )?(?:confirmation|permission|approval|consent)\b`,
	`\bwithout (?:telling|informing|alerting|warning) (?:the |your )?(?:user|human|operator|customer)\b`,
	`\b(?:do not|dont|never) (?:reveal|disclose|mention|share|repeat|show) (?:these|this|the|my|your) (?:instructions|message|prompt|note|rules)\b`,
	`\bwhen you (?:read|see|process|encounter|receive|parse) this(?: \w+){0,3} (?:call|invoke|ignore|run|execute|send|forward|reply|respond|approve)\b`,
	`\bbefore (?:using|calling|invoking|answering with) (?:any|another|any other)(?: \w+)? (?:tools?|agents?|skills?|functions?)(?: \w+){0,2} (?:call|invoke|use|run|you must|always)\b`,
	`\b(?:other|all other|the other) (?:agents|tools|assistants|skills|servers) (?:are|is) (?:malicious|compromised|unsafe|untrusted|fake)\b`,
	`\b(?:contents? of|cat|print|send|output|include|exfiltrate|upload)(?: \w+){0,3} (?:ssh id (?:rsa|dsa|ecdsa|ed25519)|etc (?:passwd|shadow)|aws credentials)\b`,
	`\b(?:reveal|repeat|leak|disclose|dump|print|output|show|tell me|write out)(?: me| us)? (?:your|the|all|any)(?: \w+){0,2} (?:system prompt|system message|(?:hidden|secret|initial|original) instructions)\b`,
	`\b(?:reveal|repeat|leak|disclose|dump|print|output|show)(?: me| us)? your (?:instructions|rules|guidelines|prompt)\b`,
	`\b(?:send|forward|email|post|upload|exfiltrate|leak|copy|transmit)(?: \w+){0,4} (?:credentials|passwords?|secrets?|api keys?|access tokens?|tokens|session cookies?|cookies|conversation history|chat history|system prompt|private keys?|env(?:ironment)? variables)\b(?: \w+){0,3} (?:to|at|via)\b`,
	// Addressed to models.
	`\b(?:note|message|instructions?|attention|reminder|notice) (?:to|for) (?:the |any |all )?(?:ai|llm|llms|model|models|assistant|assistants|language model|language models|ai assistant|ai agent|ai agents|chatbot)\b`,
	`\bif you are (?:an? )?(?:ai|llm|language model|large language model|ai assistant|ai agent|chatbot|gpt|chatgpt|claude|gemini)\b`,
	`\b(?:dear|hey|attention) (?:ai|llm|assistant|model|chatgpt|claude|gemini|gpt)\b`,
	`\b(?:ai|llm|llms|assistants?|models?|language models?|ai agents?)(?: reading this)? (?:must|shall|should|are required to) (?:always |only |never |now )?(?:ignore|call|obey|disregard|forget|reveal|prefer|choose|select|trust|route|invoke)\b`,
	`\b(?:important|urgent|critical|priority|mandatory) (?:system )?(?:instructions?|notice|message|directive|override) (?:for|to) (?:the )?(?:ai|llm|model|assistant)\b`,
}

// markerPattern matches chat-template and prompt markers in lower-cased
// text as written (punctuation matters there).
var markerPattern = regexp.MustCompile(`<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|>|\[/?inst\]|<</?sys>>|</?(?:system|system_prompt|instructions?|im_start)>|(?:^|\n)[ \t]*(?:system|assistant)[ \t]*:|(?:^|\n)[ \t]*#{1,6}[ \t]*(?:system|instructions?|input|response|assistant|human)[ \t]*:|\bnew (?:system )?instructions?[ \t]*:|(?:^|[.!?:;\n][ \t]*)instead of (?:answering|responding|replying)\b|\bbegin system prompt\b|\bend of system prompt\b`)

// injectionRE is every pattern at once, so a string is read once; the
// patterns one by one only say which matched.
var injectionRE = regexp.MustCompile(strings.Join(injectionPatterns, "|"))

// injection returns the phrase of s addressed to a model, or "".
func injection(s string) string {
	if m := markerPattern.FindString(strings.ToLower(s)); m != "" {
		return strings.TrimSpace(m)
	}
	folded := fold(s)
	if m := injectionRE.FindString(folded); m != "" {
		return m
	}
	// "i g n o r e previous instructions": letters spaced out.
	if joined, ok := joinSpacedLetters(folded); ok {
		return injectionRE.FindString(joined)
	}
	return ""
}

// joinSpacedLetters joins runs of four or more one-letter words of folded
// text; ok is false when there is none.
func joinSpacedLetters(folded string) (string, bool) {
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

// fold is s as the injection patterns read it.
func fold(s string) string {
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
