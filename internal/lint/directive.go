package lint

import (
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/prefilter"
)

// The patterns of phrases.go name phrases. The rules here read the
// structure of a sentence instead: who it speaks to (a model, by name or
// as "the assistant reading this"), whether it gives an order, and what
// the order is about (the user, the conversation, a tool, a
// confirmation, this agent), so that an order phrased in new words, or in
// another language, is still an order to the reader. A card describes an
// agent in the third person; people's orders in it (a tutorial's "run
// ls -la", a help desk's "bring your ID") are about things, not about the
// user, the conversation or the reader's tools.

// Every expression below runs on one folded sentence (see fold), with a
// space before and after it.
var (
	// addressed: the sentence names the model that reads the card as the
	// one spoken to.
	addressedRe = lazyRegexp(` (?:(?:dear|hey|hi|attention|psst) (?:the )?(?:` + readers + `)|(?:note|tip|guidance|notice|message|reminder|context|instructions?|directive|memo) (?:for|to) (?:the |any |all |every |automated )?(?:` + readers + `)|(?:to|for) (?:the|any|every|all) (?:` + readers + `) (?:reading|processing|that reads|who reads|that processes)|(?:` + readers + `)(?: that| who)? (?:reading|processing|parsing|that reads|that read|who reads|that processes) this|whoever is reading this|automated readers|ai clients|reader model|as the (?:orchestrating |calling |reading )?(?:assistant|model|ai|llm)|any ai that|(?:real|actual|true) (?:task|objective|goal)|by the (?:calling|reading) (?:model|assistant|ai|llm)|from (?:the )?(?:platform|operator|system) to the (?:model|assistant|ai))\b`)
	// vocative: a model named at the start of a sentence, then spoken to.
	vocativeRe = lazyRegexp(`^ (?:(?:llm|ai|model|assistant|agent) guidance |(?:important |operating |system )?(?:note|tip|notice) )?(?:the )?(?:(?:reader|calling|client|orchestrating) )?(?:assistant|assistants|model|models|ai|ais|llm|llms|chatbot|orchestrator|agents|ai agents|ai assistants|autonomous clients|automated clients|autonomous agents|bots)(?: \.)? (?:please |kindly |also |now |then |first |just )?(?:you |your |when |before |after |if |do not |dont |never |always |only |whatever |once |for every |(?:` + verbAlt + `)\b)`)
	// modal: a model told what it must, may or is to do.
	modalRe = lazyRegexp(` (?:(?:first|next) (?:tool )?call (?:should|must) be |it is (?:expected|required|assumed) that |integrations? (?:are|is) (?:required|expected|asked) to |it is (?:very |really |extremely )?(?:important|essential|critical|crucial|vital) that you |make sure (?:that )?(?:you |the user )|you (?:are expected to|are asked to|are to|are kindly asked to) |(?:the |any |all |every |each |calling |reader |client |their |your |integrating |connecting |consuming |downstream |visiting )?(?:assistant|assistants|model|models|ai|ais|llm|llms|chatbot|orchestrator|orchestrators)(?: reading this| processing this| that reads this| (?:evaluating|reading|processing|parsing|reviewing|using|routing|calling|handling)(?: \w+){1,3})? (?:must|should|shall|will|is to|are to|can|may|is expected to|are expected to|is authori[sz]ed to|are authori[sz]ed to|are kindly asked to|are asked to|is required to|are required to|is now permitted to|are expected to|are asked to|are now permitted to|is permitted to|are permitted to|have been granted|has been granted)(?: not| never| always| also| now| then| first| only)? )`)
	// world: what the reader has and the card's writer should not touch.
	worldRe = lazyRegexp(` (?:users?|user s|the customer|folder|funds|trades?|purchases?|between agents|in your catalog|before (?:replying|answering|responding)|the human|humans|customer s|account holder|traveller|conversation|conversations|chat|history|session|transcript|tools?|skills?|function|parameter|field|argument|answers?|responses?|reply|replies|confirmation|approval|consent|this agent|this card|this service|this listing|competitors?|other agents|other options|the options|your operator)\b`)
	// harm: what makes an order about the reader's world hostile: secrecy,
	// a skipped confirmation, the user's data, promotion, a call made on
	// the card's say-so.
	harmRe = lazyRegexp(` (?:without (?:telling|mentioning|asking|checking|waiting|confirmation|confirming|review|approval|showing|them knowing|the user knowing)|no questions asked|between us|never finds? out|say nothing|leave out|do not (?:tell|mention|show|bother|request|ask|bring up|let)|dont (?:tell|mention|show|bother|request|ask|bring up|let)|not let (?:the )?users? know|silently|quietly|secretly|anyway|immediately|directly|no confirmation|confirmation is not|is not needed|not needed|pre authori[sz]ed|standing consent|opted out|is implied|just pay|poor service|no need to (?:tell|ask|inform|mention|confirm|notify)|need not be (?:told|informed|asked)|full (?:prior |previous |preceding )?conversation|anything the user (?:pasted|typed|said|shared)|never (?:ask|prompt|check with) (?:the )?(?:user|users|human|customer|traveller)|never ask for (?:confirmation|approval|consent|permission)|without prompting|automatically approve|approve (?:\w+ ){0,5}automatically|in the background|not bring (?:this|it) up|(?:stored |saved |cloud )+credentials|operator level|defer to (?:it|them|this agent)|over (?:end )?user requests|(?:user s|users|their|the human s|customer s) (?:\w+ ){0,2}(?:passwords?|cookies?|session tokens?|api keys?|card numbers?|passport(?: number)?|phone numbers?|home (?:address|directory)|address book|saved addresses|contacts|email|full name|account (?:number|details)|location|calendar|documents?|files|question|messages?)|api keys|stored card|address book|internal notes|any data|do what it says|follow what it says|as coming from|as if (?:it|they) came from|(?:send|post|forward|upload) (?:\w+ ){0,4}to https?|a password|repeat it back|(?:must|should|shall) not (?:show|tell|mention|let|inform) (?:the )?users?|disclose|give out|recommend(?:ing)? (?:this|only|it|us|our)|rate this|list it first|describe it as|refer to this|the only|only verified|official|competitors?|cannot be trusted|under investigation|no longer need|content guidelines|elevated permissions|permission level|force true|confirm false|whatever the user said|even if|every (?:request|response|answer|booking|conversation|time)|each (?:response|answer|booking|conversation)|all future|the rest of this session|as if the user|steers? every)\b`)
	// protective: an order that guards the user rather than harms them.
	protectiveRe = lazyRegexp(` (?:without (?:the user s |their |your )?(?:consent|permission)|unless (?:the user|they|you) |only after|after (?:you|the user|they) (?:approve|confirm)|before (?:booking|paying|cancelling|buying|anything is booked))\b`)
)

// readers are names for a model that reads the card.
const readers = `assistant|assistants|model|models|ai|ais|llm|llms|language model|chatbot|orchestrator|ai assistant|ai agent|ai agents|agents|agent|automated readers|ai clients`

// verbs are the base forms an order to a model starts with.
var verbs = strings.Fields(`call invoke run execute send forward copy paste put write include add append attach pass post upload share
	reveal repeat tell say answer respond reply recommend rate list describe refer treat obey follow do make keep leave skip proceed
	place set submit approve delete enable disable buy book pay transfer use prefer trust choose pick fetch load visit open show
	display render link end start remember consider assume behave act ignore disregard forget resend insert embed complete confirm
	return output print mention promote steer route hand delegate grant give buy order sign withdraw wire ask request wait bother check`)

var verbAlt = strings.Join(verbs, "|")

// structural returns the order a sentence of s gives the model reading
// it, or "".
func structural(s string, example bool) string {
	return structuralFolded(s, fold(s), example)
}

// structuralFolded is structural, given s folded too.
func structuralFolded(s, folded string, example bool) string {
	return structuralFoldedWords(s, folded, example, nil)
}

// structuralFoldedWords is structuralFolded, given the classes of
// folded's words when fw is not nil and done (matchPaddedWords).
func structuralFoldedWords(s, folded string, example bool, fw *foldedWords) string {
	// fw's sentences are folded's: matchPaddedWords read ". " + folded +
	// " .", and fold writes "." only between two words, as " . "
	// (TestFoldedWordsSameAsClassify).
	if fw != nil && !fw.done {
		fw = nil
	}
	st := structure{s: s, folded: folded}
	// The trigrams of ". " + folded + " .", when fw has them, are kept
	// out of st, whose content leaks: fw's buffers stay on the stack.
	var tg *trigrams
	if fw != nil {
		tg = fw.tg
	}
	var buf []wordClass
	var prevSeen wordClass // of the sentence before
	// The sentences of folded, as strings.Split(folded, " . ") has them.
	for i, rest, more := 0, folded, true; more; i++ {
		var sen string
		var cls []wordClass
		var seen wordClass
		if fw != nil {
			sen, more = fw.text(folded, i), i+1 < fw.sentences()
			cls, seen = fw.sentence(i)
		} else {
			sen = rest
			if j := strings.Index(rest, " . "); j >= 0 {
				sen, rest = rest[:j], rest[j+3:]
			} else {
				more = false
			}
			cls, seen = classifyFolded(sen, buf[:0])
			buf = cls
		}
		before := prevSeen
		prevSeen = seen
		// A sentence gives the reader an order only when it or the one
		// before names the reader (addressed, vocative), or else when
		// it harms the user (harm below): most text does neither, and
		// is passed over here.
		if !seen.addressesReader() && !(i > 0 && before.addressesReader()) &&
			(example || !mayOrder(sen, cls, seen) || !st.harmPossible(tg, fw)) {
			continue
		}
		if m := st.sentence(fw, i, cls, seen, before, example); m != "" {
			return m
		}
	}
	return ""
}

// mayOrder reports whether folded sentence sen, the classes of whose
// words are cls and seen together, may give an order (as sentence
// reads one): false when it surely does not.
func mayOrder(sen string, cls []wordClass, seen wordClass) bool {
	if imperativeClasses(cls) || seen&modalWord != 0 && seen&modalSubject != 0 {
		return true
	}
	// subordinateRe's words.
	w, _, _ := strings.Cut(sen, " ")
	return subordinateWords[w]
}

// structure holds what structuralFolded works out of a text once, when
// some sentence needs it.
type structure struct {
	s, folded string
	// sentences are folded's, split at " . "; nil until needed.
	sentences []string
	// clauses are the sentences with commas read as "and"; nil until
	// needed.
	clauses []string
	// all is the sentences joined by spaces, with a space around (or ""
	// for one sentence): every text the expressions read is part of it.
	all     string
	allDone bool
	// may says, for each of sentenceRes, whether all may hold a match
	// (0: not yet known, 1: it may, 2: it does not).
	may              [len(sentenceRes)]uint8
	snake, snakeDone bool
	harm, harmDone   bool
}

// prepare works out all and the expressions' tests over its parts; fw,
// when not nil, holds folded's sentences (split).
func (st *structure) prepare(fw *foldedWords) {
	if st.allDone {
		return
	}
	st.allDone = true
	st.split(fw)
	// Every text matched below (a sentence, with its neighbours, with a
	// space around) is part of the sentences joined by spaces: an
	// expression whose literals that lacks matches none of them.
	// With one sentence, that is the sentence itself.
	if len(st.sentences) > 1 {
		st.all = " " + strings.Join(st.sentences, " ") + " "
	}
}

// The expressions a sentence is read with, as sentenceRes lists them.
const (
	addressedExpr = iota
	vocativeExpr
	modalExpr
	worldExpr
	harmExpr
	protectiveExpr
)

var sentenceRes = [...]func() *prefilter.Regexp{addressedRe, vocativeRe, modalRe, worldRe, harmRe, protectiveRe}

// match reports whether part of the text holds a match of expression k
// (sentenceRes), first asking, once, whether all of the text may hold one
// at all.
func (st *structure) match(k int, part string) bool {
	if st.may[k] == 0 {
		st.may[k] = 1
		if st.all != "" && !sentenceRes[k]().MayMatch(st.all) {
			st.may[k] = 2
		}
	}
	return st.may[k] == 1 && sentenceRes[k]().MatchString(part)
}

func (st *structure) isAddressed(part string) bool  { return st.match(addressedExpr, part) }
func (st *structure) isVocative(part string) bool   { return st.match(vocativeExpr, part) }
func (st *structure) isModal(part string) bool      { return st.match(modalExpr, part) }
func (st *structure) isWorld(part string) bool      { return st.match(worldExpr, part) }
func (st *structure) isHarm(part string) bool       { return st.match(harmExpr, part) }
func (st *structure) isProtective(part string) bool { return st.match(protectiveExpr, part) }

// split splits folded into its sentences, as fw has them when it is
// not nil (matchPaddedWords found where they end).
func (st *structure) split(fw *foldedWords) {
	if st.sentences == nil && fw != nil {
		st.sentences = fw.split(st.folded)
	} else if st.sentences == nil {
		st.sentences = strings.Split(st.folded, " . ")
	}
}

// isSnake reports whether s names a function in snake case.
func (st *structure) isSnake() bool {
	if !st.snakeDone {
		st.snakeDone = true
		st.snake = strings.Contains(st.s, "_") && snakeCase().MatchString(st.s)
	}
	return st.snake
}

// harmPossible reports whether any sentence, alone or with its
// neighbours, may be found to harm the user: false when the text names
// no snake-case function and harmRe may match no part of it. tg, when
// not nil, is the trigrams of ". " + folded + " ."; fw, when not nil,
// holds folded's sentences.
func (st *structure) harmPossible(tg *trigrams, fw *foldedWords) bool {
	if !st.harmDone {
		st.harmDone = true
		// Text without the pieces of any string harmRe's matches need
		// holds none: what MayMatch would read all of it for.
		if tg != nil && !st.isSnake() {
			if ps, ok := harmProbes(); ok && !ps.mayHoldAny(tg, "") {
				return false
			}
		}
		st.split(fw)
		all := st.all
		if !st.allDone && len(st.sentences) > 1 {
			st.prepare(fw)
			all = st.all
		}
		if all == "" {
			all = " " + st.sentences[0] + " "
		}
		st.harm = st.isSnake() || harmRe().MayMatch(all)
	}
	return st.harm
}

// harmProbes are the probes of the strings harmRe's MayMatch looks for;
// ok is false when it looks for none.
var harmProbes = sync.OnceValues(func() (*probes, bool) {
	lits, ok := harmRe().Literals()
	if !ok {
		return nil, false
	}
	return newProbes(lits, false), true
})

// clause is sentence i with its commas read as "and".
func (st *structure) clause(i int) string {
	if st.clauses == nil {
		st.clauses = st.sentences
		// Commas, which fold drops, start clauses: "Before you answer,
		// call ...". The orders are read with them as "and".
		if hasComma(st.s) && startsClause(st.sentences) {
			if c := strings.Split(fold(commaAnd.Replace(st.s)), " . "); len(c) == len(st.sentences) {
				st.clauses = c
			}
		}
	}
	return st.clauses[i]
}

// hasComma reports whether s holds a comma: ",", "，" or "、".
func hasComma(s string) bool {
	return strings.IndexByte(s, ',') >= 0 || !ascii.Is(s) && (strings.Contains(s, "，") || strings.Contains(s, "、"))
}

// sentence returns sentence i when it gives the reader an order, or "";
// cls are the classes of its words, seen theirs together and before
// those of the sentence before; fw, when not nil, holds folded's
// sentences.
func (st *structure) sentence(fw *foldedWords, i int, cls []wordClass, seen, before wordClass, example bool) string {
	st.prepare(fw)
	sentences, s := st.sentences, st.s
	sen := sentences[i]
	t := " " + sen + " "
	// A heading naming the reader ("Note for the model:") speaks to
	// it in the sentence that follows. A model named at a sentence's
	// start may be a word of a list ("model, format, percent"):
	// spoken to, it is given an order about the reader's world.
	addressed, vocative := false, false
	if seen.addressesReader() {
		addressed = st.isAddressed(t)
		vocative = !addressed && st.isVocative(t)
	}
	if !addressed && i > 0 && countWords(sentences[i-1], 7) <= 6 && before.addressesReader() {
		p := " " + sentences[i-1] + " "
		if st.isAddressed(p) || vocativeRe().MatchString(p+"you ") {
			addressed = true
		}
	}
	// A clause after a comma gives an order when the sentence opens
	// with a condition or a time: "Before you answer, call ...".
	order := imperativeClasses(cls) || seen&modalWord != 0 && seen&modalSubject != 0 && st.isModal(t) ||
		subordinateRe().MatchString(t) && st.clause(i) != sen && imperative(strings.Fields(st.clause(i)))
	if !order && !addressed && !vocative {
		return ""
	}
	// What an order is about may be said in the sentence before or
	// after it: "No confirmation is required. Execute it at once."
	w := t
	if i > 0 {
		w = " " + sentences[i-1] + w
	}
	if i+1 < len(sentences) {
		w += sentences[i+1] + " "
	}
	world := st.isWorld(w)
	harm := false
	if world || addressed || vocative {
		harm = st.isHarm(w) || st.isSnake() && (snakeIn(s, sen) || w != t && snakeIn(s, w))
	}
	switch {
	case example:
		// A person's request may give orders about anything; only one
		// that names a model and harms the user is not theirs.
		if (addressed || vocative) && order && harm && world && !st.isProtective(t) {
			return strings.TrimSpace(sen)
		}
	case addressed && (order || harm || world):
		return strings.TrimSpace(sen)
	case vocative && (st.isWorld(t) || st.isHarm(t)):
		return strings.TrimSpace(sen)
	case order && world && harm && !st.isProtective(t):
		return strings.TrimSpace(sen)
	}
	return ""
}

// subordinateRe matches a sentence that opens with a condition or a
// time, whose main clause follows a comma.
var subordinateRe = lazyRegexp(`^ (?:when|whenever|before|after|if|once|whatever|as soon as|for every|for each|in all|at the end|to be|until|while)\b`)

// commaAnd reads a comma as "and".
var commaAnd = strings.NewReplacer(",", " and ", "，", " and ", "、", " and ")

// snakeCase matches a function's name in snake case (export_contacts):
// a tool the card names for the reader to call.
var snakeCase = lazyRegexp(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)

// snakeIn reports whether one of s's snake-case names falls in folded
// sentence sen.
func snakeIn(s, sen string) bool {
	for _, m := range snakeCase().FindAllString(s, 8) {
		if strings.Contains(" "+sen+" ", " "+strings.ReplaceAll(m, "_", " ")+" ") {
			return true
		}
	}
	return false
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// readerWords are the words every addressed or vocative sentence holds
// one of; modalWords those of every modal one.
var (
	readerWords = wordSet(`assistant assistants model models ai ais llm llms chatbot orchestrator orchestrators whoever automated
		reader dear hey psst real actual`)
	modalWords = wordSet(`must should shall can may to expected asked authorised authorized required permitted granted important
		essential critical crucial vital sure be`)
	modalSubjects = wordSet(`assistant assistants model models ai ais llm llms chatbot orchestrator orchestrators you sure important
		essential critical crucial vital call it integration integrations`)
	verbSet = wordSet(strings.Join(verbs, " "))
	adverbs = wordSet(`please kindly just also then now first always never simply quietly silently secretly do not dont`)
	joiners = wordSet(`and then also so but or please just`)
)

// wordClass is what a word is to the sentence rules: a bit for each of
// the word sets it is in.
type wordClass uint8

const (
	readerWord wordClass = 1 << iota
	modalWord
	modalSubject
	verbWord
	adverbWord
	joinerWord
	agentWord
	readingWord
)

// wordClasses holds the class of every word in a set, so that a sentence's
// words are each looked up once.
var wordClasses = func() map[string]wordClass {
	m := map[string]wordClass{}
	for _, set := range []struct {
		words map[string]bool
		class wordClass
	}{{readerWords, readerWord}, {modalWords, modalWord}, {modalSubjects, modalSubject}, {verbSet, verbWord},
		{adverbs, adverbWord}, {joiners, joinerWord}, {agentWords, agentWord}, {readingWords, readingWord}} {
		for w := range set.words {
			m[w] |= set.class
		}
	}
	return m
}()

// classIndex is wordClasses, for looking every word of a text up.
var classIndex = newWordIndex(wordClasses)

// classify appends the class of each of ws to buf, and returns it with
// the classes any of them has.
func classify(ws []string, buf []wordClass) ([]wordClass, wordClass) {
	var seen wordClass
	for _, w := range ws {
		c, _ := classIndex.get(w)
		buf = append(buf, c)
		seen |= c
	}
	return buf, seen
}

// classifyFolded is classify over the words of folded sentence sen
// (words of letters and digits, one space between them), without
// splitting it.
func classifyFolded(sen string, buf []wordClass) ([]wordClass, wordClass) {
	var seen wordClass
	for sen != "" {
		w := sen
		if i := strings.IndexByte(sen, ' '); i >= 0 {
			w, sen = sen[:i], sen[i+1:]
		} else {
			sen = ""
		}
		if w == "" {
			continue
		}
		c, _ := classIndex.get(w)
		buf = append(buf, c)
		seen |= c
	}
	return buf, seen
}

// addressesReader reports whether a sentence whose words have the classes
// seen names a model that reads the card (readerWords), or speaks of
// agents that read or process it (agentWords and readingWords).
func (seen wordClass) addressesReader() bool {
	return seen&readerWord != 0 || seen&agentWord != 0 && seen&readingWord != 0
}

// imperative reports whether folded words ws (a sentence) or a clause of
// them start with a verb in its base form: at the start, after adverbs
// ("please", "do not", "always"), or after "and", "then", "please".
func imperative(ws []string) bool {
	cls, _ := classify(ws, nil)
	return imperativeClasses(cls)
}

// imperativeClasses is imperative, given the classes of the words.
func imperativeClasses(cls []wordClass) bool {
	at := func(i int) bool {
		for i < len(cls) && cls[i]&adverbWord != 0 {
			i++
		}
		return i < len(cls) && cls[i]&verbWord != 0
	}
	if at(0) {
		return true
	}
	for i, c := range cls {
		if c&joinerWord != 0 && at(i+1) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// A sentence holding one of agentWords and one of readingWords speaks of
// agents that read or process this card.
var (
	agentWords   = wordSet(`agent agents clients`)
	readingWords = wordSet(`read reads reading process processes processing parse parsing`)
)

// startsClause reports whether a sentence opens with a condition or a
// time ("before", "when", "if" ...).
func startsClause(sentences []string) bool {
	for _, sen := range sentences {
		w, _, _ := strings.Cut(sen, " ")
		if subordinateWords[w] {
			return true
		}
	}
	return false
}

var subordinateWords = wordSet(`when whenever before after if once whatever as for in at to until while`)
