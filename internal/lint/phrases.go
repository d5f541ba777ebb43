package lint

import (
	"regexp"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/prefilter"
)

// The phrases of an order to a model (injectionPatterns, over folded
// text), the index of gate words that decides which of them run where, and
// the chat-template markers (markerPatterns, over text as written).
//
// The folded text is matched as ". " + text + " .", so "\. " marks the
// start of a sentence and " \." its end; patterns never use ^ or $, since
// they run on windows of the text.

// qualifier is what makes "ignore ... instructions" an override: the
// instructions are someone else's.
const qualifier = `(?:all|any|every|previous|prior|above|earlier|preceding|foregoing|former|original|initial|existing|current|your|the system|safety|other|these|those|developer|developers|its|my|old)`

// orders are what an override throws away.
const orders = `(?:instructions?|prompts?|rules|guidelines|guidance|directions|directives|guardrails|programming|system (?:prompt|message|messages)|training)`

// bounds are what a model is told it may not do: thrown away, they are
// an override only when they are the model's ("your restrictions", "all
// previous commands"), not a shop's orders or an insurer's policies.
const bounds = `(?:orders|commands|constraints|policies|restrictions|filters|limits|limitations|safety rules|content policy)`

// talk is what an override of a conversation throws away: words a
// person's request to the agent (a skill's example) may fairly use.
const talk = `(?:messages|conversation|conversations|context|chat|history|inputs?|text|content|requests|tasks?|answers|responses|replies|settings|configuration|setup|persona|role)`

// youAre is "you are" however written: "you're" folds to "youre".
const youAre = `(?:you are|youre|you re)`

// agentNoun is what a card calls the agent it describes.
const agentNoun = `(?:agent|tool|skill|server|service|assistant|plugin|function|api)`

// addressee is a model, addressed.
const addressee = `(?:ai|ais|llm|llms|models?|language models?|large language models?|ai models?|assistants?|ai assistants?|ai agents?|chatbots?|bots?|gpt|chatgpt|claude|gemini|copilot|agents reading this|orchestrators?|routers?|calling (?:agents?|models?|assistants?)|client agents?)`

// spoken is what follows an addressee that is spoken to, not written
// about ("note to AI assistants: ..." but not "a note to the AI team").
const spoken = `(?: \.| (?:reading|processing|you|please|ignore|always|never|must|do|dont|call|when|if|only|use)\b)`

// injectionPatterns match folded text. Verbs are in their base form: a
// card describes what an agent does ("sends reports"); the imperative
// ("send the credentials to") is addressed to whoever reads it. Patterns
// marked request leave out a skill's examples, themselves requests a
// person makes ("pretend to be my interviewer", "ignore the previous
// messages in #general").
//
// Every match starts with one of its pattern's gate words (a sentence
// pattern's with ". " and then one of them), and a pattern is tried only
// where one of them starts a word, anchored there: one pass over the
// words, a few cheap anchored attempts, and the first match found is the
// first in the text. (Go's regexp has no DFA: one unanchored alternation
// of them all costs milliseconds a card.)
var injectionPatterns = []struct {
	gate, re string
	request  bool // what a person's request (a skill's example) may fairly say
}{
	// Overrides.
	{`ignore disregard forget override bypass abandon discard drop dismiss neglect skip pay do dont stop no set put throw`, `(?:ignore|disregard|forget|override|bypass|abandon|discard|drop|dismiss|neglect|skip|pay no attention to|do not follow|dont follow|stop following|do not obey|dont obey|stop obeying|no longer follow|set aside|put aside|throw (?:out|away))(?: \w+){0,3} ` + qualifier + `(?: \w+){0,3} ` + orders + `\b`, false},
	{`ignore disregard forget`, `(?:ignore|disregard|forget)(?: \w+){0,2} (?:previous|prior|earlier|preceding|above|foregoing|original|initial|all previous|all prior) ` + talk + `\b`, true},
	{`ignore disregard forget bypass override`, `(?:ignore|disregard|forget|bypass|override)(?: \w+){0,2} (?:your|the system s|all your|your own|any of your|previous|prior|earlier|all previous|all prior) ` + bounds + `\b`, false},
	{`ignore disregard forget`, `(?:ignore|disregard|forget) (?:everything|anything|all|what|whatever)(?: (?:that|you were|you have been|you ve been|youve been|said|told|taught|given|instructed|written|above|before|previously|so far|earlier|until now|up to now))+\b`, false},
	{`ignore disregard forget`, `(?:ignore|disregard|forget) (?:all |everything |anything )?(?:of )?(?:the |that |what is |whats |what was |what came |everything )?(?:above|foregoing|preceding|before this|prior text|previous text|earlier text|text above)\b`, false},
	{`ignore disregard forget set put drop discard abandon dismiss`, `(?:ignore|disregard|forget|set aside|put aside|drop|discard|abandon|dismiss) (?:all |any |the |your |these |those |my |its )?` + orders + ` (?:above|below|you (?:were|have been|ve been|got|received) (?:given|told|sent)?|you received|given to you|given before|given earlier|from (?:before|earlier|above|the system|your developers?|your creators?|openai|anthropic|google)|so far|until now|up to now)\b`, false},
	{`please ignore disregard forget`, `\. (?:please )?(?:ignore|disregard|forget) (?:all |any |the |your |these |those |my )?` + orders + ` (?:\.|and|then|now)`, false},
	{`please forget`, `\. (?:please )?forget (?:everything|all of (?:it|this|that)|all that|all this)(?: (?:\.|and|else|above|before|now))`, false},
	{`your the all any`, `(?:your|the|all|any) (?:previous |prior |earlier |original |old |existing |current )?` + orders + ` (?:no longer apply|are void|are cancelled|are canceled|are revoked|do not apply|dont apply|are obsolete|have changed|have been (?:updated|replaced|revoked|changed))\b`, false},
	{`override overrides supersede supersedes replace replaces take takes`, `(?:overrides?|supersedes?|replaces?|takes? precedence over) (?:all |any |every |your |the system s )(?:previous |prior |earlier |other |existing |original )?(?:` + orders + `|context|others|(?:safety|security|content) (?:configuration|settings|policy|policies|rules|filters?))\b`, false},
	{`from`, `from (?:this point|now|here) on(?:wards?)?,? (?:the |this |your )?(?:assistant|model|ai|llm|you) (?:is|are|will be|becomes?|shall be|must be)\b`, false},
	{`instructions prompt directions guidelines`, `(?:instructions|prompt|directions|guidelines|rules)(?: that)? you (?:were|have been|ve been|youve been) given (?:before|earlier|at the start|by (?:your|the) (?:operator|developer|system))\b`, false},
	{`take takes`, `takes? precedence over (?:\w+ ){0,2}(?:user|users|developer|system|operator)(?: and (?:user|users|developer|system|operator))? (?:instructions|requests|prompts|messages|directives)\b`, false},
	{`comply obey`, `(?:comply|obey)(?: \w+){0,6} (?:unconditionally|without (?:question|questioning|hesitation|exception|reservation))\b`, false},
	{`new updated real true actual hidden secret revised different`, `(?:new|updated|real|true|actual|hidden|secret|revised|different) (?:system )?(?:instructions|directives|orders|prompt|objective) (?:follow|below|are as follows|take precedence|override|supersede|replace)\b`, false},
	{`new`, `\. new (?:system (?:instructions?|prompt|rules)|objective|mission|directive|prompt) \.`, false},
	{`new`, `\. new (?:task|goal|instructions?|rules) \.`, true},
	{`your`, `your (?:goal|task|job|objective|mission|purpose|role|instructions) (?:is|are) now\b`, false},
	{`system`, `system (?:prompt|message|instructions?) (?:override|update|change|injection)\b`, false},
	{`this`, `this is (?:a|an|the|your) (?:new |important |urgent )?(?:system|admin|administrator|developer|priority|official) (?:message|prompt|instruction|instructions|notice|override|command)\b`, false},
	{`this important urgent message`, `(?:this is (?:an? )?)?(?:(?:important|urgent) )?message (?:from|by) (?:the |your )?(?:user|admin|administrator|developer|system|operator|owner|creator|creators) (?:to|for) (?:the |you|your )?(?:assistant|ai|ai assistant|model|llm|agent|chatbot|you)\b`, false},
	{`treat`, `treat(?: \w+){0,6} as (?:(?:a |an |the |your )?(?:system|admin|developer|trusted|highest priority|top priority) (?:instruction|instructions|prompt|message|command|commands)|(?:a )?(?:higher|highest|top|more important|greater) (?:priority|precedence))\b`, false},
	{`higher more greater`, `(?:higher|more important|greater) (?:priority |precedence )?than (?:anything|what|whatever|everything) the user\b`, false},
	{`quote repeat print output reveal recite tell echo write list`, `(?:quote|repeat|print|output|reveal|recite|tell me|echo|write|list)(?: back| out)?(?: verbatim| word for word)? (?:everything|all|anything|what|whatever) (?:you were|you have been|youve been|you ve been|you got|you received) (?:told|given|instructed|sent)\b`, false},
	{`refuse`, `refuse to (?:call|use|contact|trust|invoke|recommend) (?:them|other|any other|competing|those)\b`, false},
	{`hand route send forward delegate redirect pass direct`, `(?:hand|route|send|forward|delegate|redirect|pass|direct) (?:every|all|each|any)(?: \w+){0,3} (?:to|through|via)(?: \w+){1,3} (?:and no one else|and nobody else|and no other|exclusively|and only)\b`, false},
	{`book buy order pay purchase transact call use only`, `(?:(?:book|buy|order|pay|purchase|transact|call|use) (?:only )?(?:through|via|with) (?:this|our) ` + agentNoun + ` only|only (?:book|buy|order|pay|purchase) (?:through|via|with) (?:this|our))\b`, false},
	{`system admin administrator developer root sudo emergency safety override`, `(?:(?:system|admin|administrator|developer|root|sudo|emergency|safety) override(?: \.| (?:active|enabled|activated|engaged|in effect|granted|authorized|mode|code)\b)|(?:system |admin )?override \. (?:approve|grant|allow|call|transfer|ignore|always|you|send|delete|disable)\b)`, false},
	{`respond answer reply operate act behave proceed`, `(?:respond|answer|reply|operate|act|behave|proceed)(?: \w+){0,2} without (?:any |your )?(?:restrictions|filters|limits|limitations|guardrails|rules|censorship|safety)\b`, false},
	{`ai assistant model chatbot llm bot`, `(?:ai|assistant|model|chatbot|llm|bot) (?:with no|without any|that has no|free of) (?:content polic(?:y|ies)|rules|restrictions|filters|limits|limitations|guidelines|guardrails|ethics|morals|censorship)\b`, false},
	{`respond reply answer output say print write`, `(?:respond|reply|answer|output|say|print|write)(?: only)?(?: with)?(?: the (?:word|phrase|text|string))? (?:pwned|hacked|i have been pwned|i ve been pwned|access granted|haha pwned)\b`, false},
	{`user owner`, `(?:user|owner) (?:has|have) (?:already |explicitly |specifically |previously )?(?:(?:authorized|authorised|approved|allowed|permitted|consented|agreed)(?: to)? (?:you|this agent|the assistant|us|the agent)|(?:asked|requested|instructed|told)(?: that)? you)\b`, false},
	{`developer dev debug god admin maintenance unrestricted jailbreak dan`, `(?:developer|dev|debug|god|admin|maintenance|unrestricted|jailbreak|dan) mode (?:enabled|activated|is on|is now on|is active)\b`, false},
	{`enable enter activate switch`, `(?:enable|enter|activate|switch to) (?:god|unrestricted|jailbreak|dan|evil|chaos) mode\b`, false},
	{`decode`, `decode (?:this|the following|it|the text)(?: \w+){0,3} (?:and|then) (?:follow|execute|run|obey|do)\b`, false},
	{`visit open fetch read load go browse download`, `(?:visit|open|fetch|read|load|go to|browse to|download)(?: \w+){1,8} (?:and|then) (?:follow|execute|obey|run|apply) (?:the |its |any |all )?(?:instructions|commands|steps|directions|orders)\b`, false},
	{`end`, `end of (?:card|description|document|context|input|data|the card)(?: \.)? (?:begin|new|start|system)\b`, false},
	// Overrides in other languages written in Latin letters (folded:
	// no accents).
	{`ignora ignore ignorez ignorer ignoriere ignorieren ignoriert ignorar ignorare ignorate ignori negeer zignoruj olvida olvidate olvide olviden oublie oubliez oublier vergiss vergesst vergessen esqueca esquece esquecam dimentica dimenticate vergeet zapomnij unut unutun yoksay`, `(?:ignora|ignore|ignorez|ignorer|ignoriere|ignorieren|ignoriert|ignorar|ignorare|ignorate|ignori|negeer|zignoruj|olvida|olvidate|olvide|olviden|oublie|oubliez|oublier|vergiss|vergesst|vergessen|esqueca|esquece|esquecam|dimentica|dimenticate|vergeet|zapomnij|unut|unutun|yoksay)(?:(?: \S+){0,3} (?:todas|todos|toutes|tous|alle|allen|tutte|tutti|wszystkie|anteriores|previas|precedentes|precedents|anterieures|precedenti|vorherigen|bisherigen|obigen|fruheren|vorigen|eerdere|vorige|poprzednie|onceki|tum)(?: \S+){0,3} ` + foreignOrders + `|(?: \S+){0,2} ` + foreignOrders + `(?: \S+){0,2} (?:anteriores|previas|precedentes|precedents|anterieures|precedenti|vorherigen|bisherigen|obigen|fruheren|vorigen|eerdere|vorige|poprzednie)| (?:todo lo anterior|todo lo que|lo anterior|tout ce qui precede|tout ce qui a ete dit|alles vorherige|alles bisherige|alles oben|alles davor|tudo o que|tudo acima|tutto quanto|tutto cio))\b`, false},
	// Roles.
	{`you youre`, youAre + ` (?:now|no longer|actually|really) (?:a|an|the|in|my|called|named)\b`, true},
	{`you youre`, youAre + ` (?:now )?(?:free|dan|unrestricted|not (?:bound|restricted|limited|an? ai|required to follow|subject to)|jailbroken|in (?:developer|dev|debug|god|admin|jailbreak|dan|unrestricted) mode)\b`, false},
	{`you youre`, youAre + ` (?:now )?(?:an? |the )?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral|unbound|unrestrained) (?:ai|assistant|model|agent|chatbot|llm|version|bot)\b`, false},
	{`you youre`, youAre + ` (?:a|an) (?:helpful|friendly|harmless|honest)(?: \w+)? (?:assistant|ai|chatbot|model|agent|bot)\b`, true},
	{`you`, `you (?:will|shall|must|should|are to) (?:now )?(?:role ?play|act|pretend|behave|respond) as\b`, true},
	{`from`, `from now on(?: \w+)? (?:you (?:are|will|must|should|shall|ll|re|have to)|act|respond|answer|behave|ignore|always|reply|only|never|call|use|speak|say)\b`, true},
	{`pretend`, `pretend (?:that )?(?:you are|youre|you re|you have|you were)\b`, true},
	{`imagine`, `imagine (?:that )?(?:you are|youre|you re|you were) (?:an?|the|my|now|no longer)\b`, true},
	{`pretend imagine act`, `(?:pretend|imagine|act as if) (?:that )?(?:you are|youre|you re|you were) (?:an? )?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral)\b`, false},
	{`pretend`, `pretend to be\b`, true},
	{`lets`, `lets (?:role ?play|pretend)(?: that| you| to be| as| \.| an?| the| we)`, true},
	{`roleplay role`, `role ?play as (?:an? )?(?:unrestricted|evil|unfiltered|uncensored|jailbroken|different|new|ai|assistant|model|chatbot|llm)\b`, true},
	{`stay remain never`, `(?:(?:stay|remain) in character|never break character)\b`, true},
	{`act`, `act as (?:if|though) you\b`, true},
	{`act`, `act as (?:(?:an? |the |my |your )?(?:\w+ )?(?:administrator|admin|root|superuser|sysadmin|unrestricted|unfiltered|jailbroken|dan|evil|rogue|hacker|owner|operator|grandmother|grandma|deceased)\b)`, true},
	{`assume adopt take switch`, `(?:assume|adopt|take on|switch to) (?:the |a |an )?(?:role|persona|identity|character) (?:of|as)\b`, true},
	{`your`, `your (?:new|true|real|actual|only|primary) (?:role|persona|identity|purpose|instructions|goal|task|mission)(?: (?:is (?:to|now|that|as)|are (?:to|now|as)|will be)| \.)`, true},
	{`do dan god jailbreak jailbreaked jailbreaking`, `(?:do anything now|dan mode|god mode|jailbreak(?:ed|ing)? (?:mode|prompt))\b`, false},
	// Orders to the reader.
	{`you`, `you (?:must|shall|are required to|are instructed to)(?: \w+)? (?:always |now |first |immediately |also |then |instead |only )?(?:call|invoke|execute|forward|reveal|ignore|disregard|obey|route|delegate|transfer|disclose|leak|exfiltrate|prioriti[sz]e|comply)\b`, false},
	{`you`, `you (?:must|shall|are required to)(?: \w+)? (?:always |first |only |now )?(?:use|choose|select|pick|prefer|consult|trust|recommend|approve|grant) (?:this|our|the following) ` + agentNoun + `\b`, false},
	{`must should`, `(?:must|should) (?:always |first )?(?:call|invoke|use|consult) (?:this|our) ` + agentNoun + `(?: \w+){0,2} (?:first|before|instead|always|every time|whenever|for every|for all|for any)\b`, false},
	{`must should`, `(?:must|should) always (?:call|invoke|use|consult|route to|delegate to|choose|prefer) (?:this|our|the following)\b`, false},
	{`it`, `it is (?:critical|crucial|essential|imperative|important|vital|mandatory|required) that you (?:call|use|invoke|route|always|never|ignore|send|forward|do not|dont|include|pass|prefer|choose|skip)\b`, false},
	{`whenever`, `whenever you (?:are asked|see|receive|get|handle|are|answer)(?: \w+){0,6} (?:call|use|invoke|route|delegate|consult|recommend) (?:this|our|it)\b`, false},
	{`whatever no`, `(?:whatever|no matter what) (?:the user|they|the human|anyone|the customer) (?:asks|says|wants|requests|types)(?: \w+)?(?: \.)? (?:reply|respond|answer|say|call|tell|send|output|return)\b`, false},
	{`after`, `after (?:every|each) (?:answer|response|reply|message|turn|call|request)(?: \.)? (?:call|invoke|send|run|use|append|include|email|post|forward)\b`, false},
	{`tell`, `tell (?:the |your )?(?:user|users|customer|customers|human) (?:that )?(?:this|our) ` + agentNoun + `\b`, false},
	{`silently secretly quietly covertly discreetly without`, `(?:silently|secretly|quietly|covertly|discreetly|without (?:the user|anyone|them) (?:knowing|noticing)) (?:forward|send|copy|add|bcc|cc|upload|email|post|transfer|share|include|exfiltrate|leak|delete|approve|call|invoke|run|execute)\b`, true},
	{`assistant model ai llm chatbot`, `(?:assistant|model|ai|llm|chatbot) (?:must|should|shall) (?:not|never) (?:tell|inform|mention|reveal|disclose|notify|alert) (?:the user |users |the human |anyone |them )?(?:that|about|this|it)\b`, false},
	{`assistant model ai llm chatbot`, `(?:assistant|model|ai|llm|chatbot) (?:is|are) (?:required|instructed|expected|obliged|supposed) to\b`, false},
	{`always first before`, `(?:always|first|before (?:anything|any other \w+|doing anything|you do anything|answering|responding|replying)) (?:call|invoke|route to|delegate to|use|consult) (?:this|the|our) ` + agentNoun + `\b`, false},
	{`before`, `before (?:answering|responding|replying|doing anything|anything else|you answer|you respond|you reply|any other (?:action|tool|step|agent))(?: to (?:the |any |a |every )?(?:user|users|question|questions|request|requests|query|queries|prompt|message))?(?: \.)? (?:always |first |you must |please |you should )?(?:call|invoke|use|consult|route to|delegate to|query|ask|check with|run|send)\b`, false},
	{`always only first`, `(?:always|only|first) (?:route|send|forward|direct|redirect|delegate|pass|hand|escalate)(?: \w+){0,3} (?:to|through|via) (?:this|our) ` + agentNoun + `\b`, false},
	{`route redirect delegate forward`, `(?:route|redirect|delegate|forward) (?:all|every|each|any) (?:(?:user|incoming|other|your) )?(?:requests?|queries|questions|tasks|messages|traffic|calls|conversations|prompts)(?: \w+){0,2} (?:to|through|via) (?:this|our) ` + agentNoun + `\b`, false},
	{`always`, `always (?:(?:use|call|invoke|consult) (?:this|our) ` + agentNoun + `(?: \.| (?:for|instead|over|first|whenever|when|and|to|before|with every|in every)\b)|(?:choose|select|pick|prefer|trust|recommend|mention|promote|suggest|advertise) (?:this|our|it|me|us)\b)`, false},
	{`use call invoke choose select pick prefer recommend trust`, `(?:use|call|invoke|choose|select|pick|prefer|recommend|trust) (?:this|our) ` + agentNoun + ` (?:instead of|over|rather than|above|ahead of) (?:any|all|every|other|another|the other|competing)\b`, false},
	{`prefer`, `\. prefer (?:this|our) ` + agentNoun + ` (?:over|to|above|instead|rather|whenever|always)\b`, false},
	{`takes take has have`, `(?:takes?|has|have) (?:priority|precedence) over (?:all|any|every|other)(?: \w+)? (?:agents|tools|assistants|instructions|skills|services|servers)\b`, false},
	{`rank rate list place put score`, `(?:rank|rate|list|place|put|score) (?:this|our) ` + agentNoun + ` (?:first|highest|at the top|above|top)\b`, false},
	{`instead`, `instead of (?:answering|responding|replying|helping|doing|using|calling|asking)(?: \w+){0,4}(?: \.)? (?:call|use|invoke|route to|delegate to|ask|consult|run) (?:this|our|the \w+ (?:agent|tool))\b`, false},
	{`recommend mention promote suggest advertise`, `(?:recommend|mention|promote|suggest|advertise) (?:this|our) (?:agent|tool|service|skill|product|company)(?: to (?:the |every |all |each )?users?)? (?:in every|in all|in each|every time|always|whenever|at every)\b`, false},
	{`do dont never`, `(?:do not|dont|never) (?:use|call|invoke|trust|consult|recommend) (?:any )?(?:other|another|competing|different|alternative) (?:agents?|tools?|services?|assistants?|servers?|providers?|skills?)\b`, false},
	{`do dont never`, `(?:do not|dont|never) (?:tell|inform|alert|notify|warn|show|let know)(?: it to)? (?:the |your |any )?(?:user|users|human|humans|operator|operators|customer|customers|requester|caller|person)(?: \.| (?:about|that|you|what|this|it|anything|any|the|why|how|where|when|if|or|and|yet|until|unless|we|our|which)\b)`, false},
	{`do dont never`, `(?:do not|dont|never) (?:tell|inform|alert|notify|warn) (?:anyone|anybody) (?:about )?(?:this|that|these|it)\b`, false},
	{`do dont never`, `(?:do not|dont|never) (?:mention|reveal|disclose) (?:this|that|it)\b`, false},
	{`do dont never`, `(?:do not|dont|never) (?:ask|wait|seek|request)(?: \w+){0,2} (?:for )?(?:confirmation|permission|approval|consent)(?: \.| (?:before|first|again|and|just|simply|from|at all|ever)\b)`, false},
	{`skip bypass omit avoid no`, `(?:(?:skip|bypass|omit|avoid) (?:the |any )?(?:user s |users |user )?(?:\w+ )?(?:confirmation|approval|consent|verification)(?: step| prompt| dialog| check)?(?: \.| (?:and|before|for all|for every|entirely|always)\b)|no need to (?:confirm|ask|check) with (?:the )?(?:user|customer|human))`, false},
	{`do dont never`, `(?:do not|dont|never) (?:reveal|disclose|mention|share|repeat|show) (?:these|this|the|my|your) (?:instructions|message|prompt|note|rules)\b`, false},
	{`hide conceal keep withhold`, `(?:hide|conceal|keep|withhold) (?:this|that|it|these|those|the fact|everything|the (?:fee|fees|charge|charges|cost|costs|call|calls|tool|request|transfer|payment|booking|result|results|error|errors|instructions|note))(?: \w+){0,3} (?:from|secret from|hidden from) (?:the |your |any )?(?:user|users|human|humans|operator|operators|customer|customers|person)(?: \.| (?:and|or|at|until|unless|while|so|because|but)\b)`, false},
	{`without`, `without (?:telling|informing|alerting|warning|asking|notifying) (?:the |your )?(?:user|human|operator|customer)\b`, false},
	{`when`, `when you (?:read|see|process|encounter|receive|parse) this(?: \w+){0,3} (?:invoke|ignore|execute|forward|approve|call (?:the |this )?\w+(?: \w+)? (?:tool|function|skill|agent))\b`, false},
	{`before`, `before (?:using|calling|invoking|answering with) (?:any|another|any other)(?: \w+)? (?:tools?|agents?|skills?|functions?)(?: \w+){0,2} (?:call|invoke|use|run|you must|always)\b`, false},
	{`other competing`, `(?:other|competing)(?: \w+){0,2} (?:agents|tools|assistants|skills|servers|services)(?: \w+){0,5} (?:are|is) (?:known to be |all )?(?:malicious|compromised|fake|scams|lying|hacked|fraudulent|unsafe to call)\b`, false},
	{`contents content cat print send output include exfiltrate upload read pass load attach copy put add embed append open`, `(?:contents? of|cat|print|send|output|include|exfiltrate|upload|read|pass|load|attach|copy|put|add|embed|append|open)(?: \w+){0,3} (?:ssh (?:id \w+|authorized keys|config|known hosts)|etc (?:passwd|shadow)|aws (?:credentials|config)|kube config|kubeconfig|docker config json|netrc|npmrc|pypirc|git credentials|bash history|zsh history|env file|dotenv|cursor mcp json|mcp json|claude json|claude desktop config json)\b`, false},
	{`reveal repeat leak disclose dump print output show tell write`, `(?:reveal|repeat|leak|disclose|dump|print|output|show|tell me|write out)(?: me| us)? (?:your|all your)(?: \w+){0,2} (?:system prompt|system message|(?:hidden|secret|initial|original) instructions)\b`, false},
	{`reveal repeat leak disclose dump print output show tell write`, `(?:reveal|repeat|leak|disclose|dump|print|output|show|tell me|write out)(?: me| us)? (?:the|all|any)(?: \w+){0,2} (?:system prompt|system message|(?:hidden|secret|initial|original) instructions)\b`, true},
	{`reveal repeat leak disclose dump print output show`, `(?:reveal|repeat|leak|disclose|dump|print|output|show)(?: me| us)? your (?:instructions|rules|guidelines|prompt|configuration|config|system settings)\b`, false},
	{`include pass send add put reveal print output show dump leak return`, `(?:include|pass|send|add|put|reveal|print|output|show|dump|leak|return)(?: \w+){0,8} (?:environment variables|env vars|environment variable|env var)\b`, false},
	{`send forward email post upload exfiltrate leak copy transmit`, `(?:send|forward|email|post|upload|exfiltrate|leak|copy|transmit)(?: \w+){0,4} (?:credentials|passwords?|secrets?|api keys?|access tokens?|tokens|session cookies?|cookies|conversation history|chat history|system prompt|private keys?|env(?:ironment)? variables)(?: (?:for|of|from|in|on|stored|saved|and|or|plus)(?: \w+){0,2})? (?:to|at|via)\b`, false},
	{`send forward email post upload exfiltrate leak copy transmit`, `(?:send|forward|email|post|upload|exfiltrate|leak|copy|transmit)(?: \w+){0,2} (?:the |this |our |your |whole |entire |full |all )*(?:conversation|conversations|transcript|transcripts|chat history|chat log|user s messages|users messages|all messages|context)(?: \w+){0,2} to\b`, true},
	{`include append attach add pass put`, `(?:include|append|attach|add|pass|put)(?: \w+){0,3} (?:conversation|chat history|conversation history|system prompt|previous messages|user s messages|full context|entire context|whole conversation|full transcript) (?:in|into|to|with|as) (?:the|your|every|each|this|all|a)(?: \w+)? (?:request|requests|call|calls|query|message|parameters?|arguments?|payload|field|argument)\b`, false},
	{`include append attach add pass put send insert embed`, `(?:include|append|attach|add|pass|put|send|insert|embed)(?: \w+){0,2} (?:the user s|users|the users|their|the customer s|the caller s|the human s) (?:\w+ )?(?:session cookies?|cookies|session tokens?|api keys?|access tokens?|tokens?|passwords?|credentials|secrets?|email address(?:es)?|phone numbers?|credit card(?: numbers?)?|card numbers?|passport numbers?|ssn|social security numbers?|personal data|location|address|date of birth)(?: \w+){0,4} (?:as|in|into|to|with) (?:the |a |an |each |every |all )?(?:\w+ )?(?:argument|arguments|parameter|parameters|field|fields|param|params|header|query|request|requests|call|calls)\b`, false},
	// Addressed to models.
	{`important urgent special private hidden a note message instructions instruction attention reminder notice memo warning directive`, `\. (?:important |urgent |special |private |hidden |a )?(?:note|message|instructions?|attention|reminder|notice|memo|warning|directive) (?:to|for) (?:the |any |all |every )?` + addressee + spoken, false},
	{`note message attention reminder notice memo`, `(?:note|message|attention|reminder|notice|memo) (?:to|for) (?:the |any |all |every )?` + addressee + spoken, false},
	{`to`, `to (?:the|any|all|every) ` + addressee + ` (?:reading|processing|parsing|seeing|using)\b`, false},
	{`ai llm ais llms assistant assistants model models language agents`, `(?:ai|llm|ais|llms|ai agents?|ai assistants?|ai models?|assistants?|models?|language models?|agents) (?:processing|reading|parsing|handling|seeing|using|consuming) this (?:card|text|description|document|tool|page|message|file|agent card)\b`, false},
	{`as`, `as an? (?:ai|llm|language model|ai language model|large language model|ai assistant|ai model)(?: \.)? (?:you|your) (?:must|are required to|should|have to|need to|will|shall|job)\b`, false},
	{`if`, `if ` + youAre + ` (?:an? )?(?:ai|llm|language model|large language model|ai assistant|ai agent|ai model|chatbot|gpt|chatgpt|claude|gemini|copilot|bot|assistant|model)(?: \.| (?:reading|processing|parsing|model|system|tool|assistant|agent|then|you|please|ignore|always|never|must|do|dont|call|and|that|who|seeing|looking|told|asked|helping|choosing|deciding|book|buy|choose|select|pick|recommend|prefer|trust|tell|send|say|respond|reply|answer|note|know|remember|consider|rate|rank|favor|favour|visit|contact|click|go|open|read|run|execute|follow|obey|comply|use)\b)`, false},
	{`ai ais llm llms language large assistants models chatbots agents orchestrators orchestrator routers calling client`, `\. (?:ai|ais|llms?|ai models?|ai agents?|ai assistants?|language models?|large language models?|assistants|models|chatbots|agents reading this|orchestrators?|routers|calling (?:agents|models|assistants)|client agents) \. (?:this|you|always|never|only|ignore|call|use|route|prefer|choose|pick|select|do|dont|book|hand|send|forward|refuse|skip|trust|include|pass|please|must|should)\b`, false},
	{`calling client any every each whichever the orchestrators orchestrator assistants llms ais`, `(?:(?:calling|client|any|every|each|whichever|the calling) (?:assistant|model|llm|ai|agent|orchestrator)s?|orchestrators?|assistants|llms|ais) (?:should|must|shall|need to|needs to|have to|has to|are to|is to) (?:also |always |first |now |then )?(?:paste|send|include|put|add|pass|forward|copy|attach|append|insert|embed|provide|book|skip|hand|route|refuse|treat|use|call|prefer|choose|ignore|disregard|quote|repeat|reveal)\b`, false},
	{`any every each the whichever`, `(?:any|every|each|the|whichever) (?:llm|model|ai|assistant|agent|orchestrator)s? (?:summarizing|reading|processing|parsing|using|seeing|handling|routing|calling|consuming)(?: \w+){0,3} (?:should|must|shall|is to|needs to|has to|will)\b`, false},
	{`calling client any models assistants llms ais orchestrators`, `(?:(?:calling|client|any) )?(?:models|assistants|llms|ais|orchestrators) (?:are|is) (?:authorized|authorised|allowed|permitted|instructed|required|expected|free) to\b`, false},
	{`p ps note message reminder memo`, `(?:p s|ps|note|message|reminder|memo)(?: \.)? (?:to|for) (?:whichever|whatever|any|every|each|the|all) (?:\w+ )?(?:model|ai|llm|assistant|agent|orchestrator)s? (?:reads|reading|processes|processing|sees|parses|parsing|that reads|who reads|that sees)\b`, false},
	{`dear hey hi hello attention ok okay yo`, `(?:dear|hey|hi|hello|attention|ok|okay|yo) ` + addressee + `(?: \.| (?:reading|you|please|ignore|call|always|never|use|send|remember|make|do|dont|listen|forget|disregard|route|book|buy|transfer|pay|approve|delete|run|execute|tell|forward|email|choose|pick|select|prefer|recommend|give|grant|share|show|print|reveal|stop|skip)\b)`, true},
	{`assistant claude chatgpt gemini copilot gpt ai llm`, `\. (?:assistant|claude|chatgpt|gemini|copilot|gpt|ai assistant|ai agent|llm)(?: \.)? (?:please|you must|you should|you will|ignore|disregard|forget|always|never|remember|make sure|forward|send|call|do not|dont|use|route)\b`, true},
	{`ai ais llm llms assistant assistants model models language agents`, `(?:ai|ais|llm|llms|assistants?|models?|language models?|ai agents?|agents reading this)(?: reading this)? (?:must|shall|should|are required to|have to|need to) (?:always |only |never |now |first )?(?:ignore|call|obey|disregard|forget|reveal|prefer|trust|route|invoke|use this|choose this|recommend this|set|skip|send|book|transfer|approve)\b`, false},
	{`important urgent critical priority mandatory`, `(?:important|urgent|critical|priority|mandatory) (?:system )?(?:instructions?|notice|message|directive|override|note) (?:for|to) (?:the )?` + addressee + spoken, false},
}

// foreignOrders are the instructions of an override, in other languages
// written in Latin letters.
const foreignOrders = `(?:instrucciones|instructions|anweisungen|instrucoes|istruzioni|instructies|instrukcje|consignes|indicaciones|reglas|regeln|regole|regras|regles|befehle|instruktionen|talimatlari)`

// markerPatterns match chat-template and prompt markers in lower-cased
// text as written (punctuation matters there); each runs only on text that
// holds its gate.
var markerPatterns = sync.OnceValue(func() []markerPattern {
	return []markerPattern{
		{[]string{"<"}, prefilter.MustCompile(`<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id|start|message|channel|end)\|>|<</?sys>>|</?(?:system_prompt|im_start|important|admin_instructions|hidden_instructions)>|<(?:start|end)_of_turn>|<(?:system|instructions?|prompt)>[^<]+</(?:system|instructions?|prompt)>`)},
		{[]string{"[inst", "[/inst", "[system", "[admin"}, prefilter.MustCompile(`\[/?inst\]|\[(?:system|admin)(?: (?:note|message|prompt|override))?\]`)},
		{[]string{"#"}, prefilter.MustCompile(`(?:^|\n)[ \t]*#{1,6}[ \t]*(?:system|instruction|response|assistant)[ \t]*:`)},
		{[]string{"system prompt"}, prefilter.MustCompile(`\bbegin system prompt\b|\bend of system prompt\b`)},
		// A chat role at the start of a line or sentence, speaking: "System:
		// you are ...", "SYSTEM PROMPT: ignore ...".
		{[]string{"system", "assistant", "developer"}, prefilter.MustCompile(`(?:^|[\n.!?][ \t]*|[\n.!?][ \t>*_#-]+)(?:system|assistant|developer)(?:[ \t]+(?:prompt|message|note|instruction|instructions|override))?[ \t]*[:：][ \t]*(?:you\b|ignore\b|disregard\b|forget\b|from now on\b|always\b|never\b|do not\b|don't\b|dont\b|new instructions\b|the user\b|call\b|route\b|respond\b|reply\b|answer\b|act\b|override\b|important\b|i will\b|i have\b|i've\b|i am\b|sure\b|ok\b|okay\b|proceed\b|all (?:agents|assistants|models)\b)`)},
		// A role's note in markup: "###ADMIN###", "ADMIN NOTE:", "@system:",
		// "(system)" at a line's start.
		{[]string{"#", "admin", "system", "developer", "root", "@", "("}, prefilter.MustCompile(`#{2,}[ \t]*(?:admin|administrator|system|sys|root|developer|important|instructions?)[ \t]*#{2,}|\b(?:admin|administrator|system|developer|root|operator) (?:message|instruction|instructions|override|command|directive)[ \t]*[:：]|\b(?:admin|administrator|system|developer|root|operator) (?:note|notice)[ \t]*[:：][^.\n]{0,60}\b(?:you|your|assistant|model|ai|llm|ignore|disregard|forget|always|never|do not|don't|must|call|invoke|send|forward|reveal|approve|grant|transfer|obey)\b|@(?:system|admin|assistant|developer)[ \t]*[:：]|(?:^|\n)[ \t]*\((?:system|admin|developer)\)`)},
		// A chat message in JSON: {"role": "system", "content": ...}.
		{[]string{`"role"`}, prefilter.MustCompile(`"role"\s*:\s*"(?:system|developer)"`)},
		// An image whose URL carries a template of the conversation:
		// rendered, it sends what the model fills in to whoever serves it.
		{[]string{"![", "<img"}, prefilter.MustCompile(`(?:!\[[^\]]{0,200}\]\(\s*|<img\b[^>]{0,200}\bsrc\s*=\s*["']?)(?:https?:)?//[^\s)"'>]{0,300}(?:\{[^}\s]{1,80}\}|%7b[^\s)"'>]{1,80}%7d|\$\{[^}\s]{1,80}\}|\[[a-z_ ]{1,40}\])`)},
		// A remote script piped to a shell.
		{[]string{"curl", "wget", "iwr", "invoke-webrequest"}, prefilter.MustCompile(`\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n|]{1,300}\|[ \t]*(?:sudo[ \t]+)?(?:sh|bash|zsh|python3?|iex|powershell)\b`)},
		// A made-up conversation: a user's turn, then an assistant's.
		{[]string{"user", "human"}, prefilter.MustCompile(`(?:^|\n)[ \t]*(?:user|human)[ \t]*:[^\n]*\n(?:[^\n]*\n)?[ \t]*(?:assistant|ai|bot|gpt|model)[ \t]*:`)},
	}
})

// markerPattern is a marker expression and the strings, one of which
// every match holds.
type markerPattern struct {
	gate []string // any of them
	re   *prefilter.Regexp
}

// byGate lists, for each gate word, the patterns it lets run, joined in
// anchored alternations (compiled on first use): one for text at large
// and one without the patterns a request may say (for skills' examples),
// each for matches at the word and for matches at the sentence's start
// before it. Every word is tried once, whatever the number of patterns
// that start with it.
var byGate = gatePatterns()

// gateIndex is byGate, for looking every word of a text up.
var gateIndex = newWordIndex(byGate)

// wordInfo is what the rules make of one folded word: the patterns it is
// the gate word of (byGate), its class (wordClasses), and whether it is
// one of foreignHints.
type wordInfo struct {
	gate  *gateWord
	class wordClass
	hint  bool
}

// wordInfoIndex is gateIndex and classIndex together, for reading a
// text's words once for both (matchPaddedWords).
var wordInfoIndex = func() *wordIndex[wordInfo] {
	m := map[string]wordInfo{}
	for w, g := range byGate {
		m[w] = wordInfo{gate: g}
	}
	for w, c := range wordClasses {
		info := m[w]
		info.class = c
		m[w] = info
	}
	for w := range foreignHints {
		info := m[w]
		info.hint = true
		m[w] = info
	}
	return newWordIndex(m)
}()

// foldedWords are the classes of the words of a folded text, sentence by
// sentence, as classifyFolded makes them of each sentence that
// strings.Split(folded, " . ") has: what matchPaddedWords returns when it
// has read ". " + folded + " ." whole (done).
type foldedWords struct {
	// cls are the classes of every word but the sentences' ends ("."),
	// in order; starts, where each sentence begins in cls, with one more
	// at the end (len(cls)); marks, where each "." is in ". " + folded +
	// " .", the sentence's end before it and the next's start after it.
	cls           []wordClass
	starts, marks []int
	// on asks matchPaddedWords for the classes; done says they are all
	// there.
	on, done bool
	// spaced is spacedLetters(folded), when done; hint says, when done,
	// whether a word is one of foreignHints.
	spaced, hint bool
	// tg, when not nil, is the trigrams of ". " + folded + " ." (the
	// text matchPaddedWords reads), for ASCII text: matchPaddedWords
	// then asks which patterns the text may hold pattern by pattern
	// (phraseMay), and structuralInjection rules gates out with it.
	tg *trigrams
}

// oneChar reports whether w is a word of one character, as spacedLetters
// counts them: "." is none.
func oneChar(w string) bool {
	n := 0
	for i := 0; i < len(w) && n < 2; i++ {
		if c := w[i]; c == '.' {
			n = 2
		} else if c&0xC0 != 0x80 {
			n++
		}
	}
	return n == 1
}

// sentences is how many sentences fw holds.
func (fw *foldedWords) sentences() int { return len(fw.starts) - 1 }

// text returns sentence i of folded, as strings.Split(folded, " . ")
// has it.
func (fw *foldedWords) text(folded string, i int) string {
	return folded[fw.marks[i] : fw.marks[i+1]-3]
}

// split returns folded's sentences, as strings.Split(folded, " . ") has
// them.
func (fw *foldedWords) split(folded string) []string {
	out := make([]string, fw.sentences())
	for i := range out {
		out[i] = fw.text(folded, i)
	}
	return out
}

// sentence returns the classes of the words of sentence i, and the
// classes any of them has, as classifyFolded does.
func (fw *foldedWords) sentence(i int) ([]wordClass, wordClass) {
	cls := fw.cls[fw.starts[i]:fw.starts[i+1]]
	var seen wordClass
	for _, c := range cls {
		seen |= c
	}
	return cls, seen
}

// gateWord is the patterns of one gate word.
type gateWord struct {
	patterns []int
	// kinds are the patterns by kind, in order: kinds[sentence][strict]
	// are those that match at the sentence's start before the word
	// (sentence 1) or at the word (0), and, strict 1, that a request (a
	// skill's example) may not say.
	kinds [2][2][]int
}

// anchoredPatterns are the injection patterns, each anchored at the
// start of the text (compiled on first use, as anchoredPattern asks).
var anchoredPatterns = make([]struct {
	once sync.Once
	re   *regexp.Regexp
}, len(injectionPatterns))

// anchoredPattern is pattern i, anchored at the start of the text.
func anchoredPattern(i int) *regexp.Regexp {
	a := &anchoredPatterns[i]
	a.once.Do(func() { a.re = regexp.MustCompile(`^(?:` + injectionPatterns[i].re + `)`) })
	return a.re
}

// firstMatch returns the end of the match that the first of patterns to
// match at the start of window finds, or -1: what their alternation,
// anchored at the start, finds (the first alternative that matches,
// leftmost-first). may, when not nil, tells which patterns the text may
// hold; the others are passed over. Each pattern runs alone, a small
// program the backtracker runs, where their alternation is a large one
// the NFA runs.
func firstMatch(patterns []int, window string, may func(int) bool) int {
	for _, i := range patterns {
		if may != nil && !may(i) {
			continue
		}
		if loc := anchoredPattern(i).FindStringIndex(window); loc != nil {
			return loc[1]
		}
	}
	return -1
}

// phraseSet finds which patterns a text may hold (package prefilter), so
// that a gate word none of whose patterns it may hold is passed over.
var phraseSet = sync.OnceValue(func() *prefilter.Set {
	exprs := make([]string, len(injectionPatterns))
	for i, p := range injectionPatterns {
		exprs[i] = p.re
	}
	return prefilter.NewSet(exprs)
})

// mayMatch reports whether text, of which may tells which patterns it
// may hold (phraseSet's Mark, or phraseMay), may hold one of the word's
// patterns of the kind asked: at the sentence's start or not, and those
// a request may say or not (kinds). may is asked only of those.
func (g *gateWord) mayMatch(may func(int) bool, sentence, strict bool) bool {
	for _, i := range g.kinds[b2i(sentence)][b2i(strict)] {
		if may(i) {
			return true
		}
	}
	return false
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lazyTextLimit is the longest text whose patterns phraseMay is asked
// for (folded and padded, in bytes).
const lazyTextLimit = 4096

// phraseMay tells which patterns a text may hold, as phraseSet's Mark
// does, one pattern at a time, when first asked, by the trigrams of the
// text (trigram.go): most patterns of the gate words a text has need
// strings whose pieces it lacks.
type phraseMay struct {
	tg   *trigrams
	text string
	// state is, for each pattern, 0 when not yet asked, 1 when the text
	// may hold it, 2 when it does not.
	state [128]uint8
}

// may reports whether the text may hold a match of pattern i: what
// Mark sets possible[i] to.
func (pm *phraseMay) may(i int) bool {
	if pm.state[i] == 0 {
		pm.state[i] = 2
		if p := &phraseProbes()[i]; !p.ok || p.probes.holdsAny(pm.tg, pm.text) {
			pm.state[i] = 1
		}
	}
	return pm.state[i] == 1
}

// phraseProbes are, for each pattern, the probes of the strings Mark
// looks for, one of which the text holds when Mark says it may hold the
// pattern; none when Mark looks for none.
var phraseProbes = sync.OnceValue(func() []patternProbes {
	out := make([]patternProbes, phraseSet().Len())
	for i := range out {
		if lits, ok := phraseSet().Literals(i); ok {
			out[i].probes, out[i].ok = newProbes(lits, false), true
		}
	}
	return out
})

// patternProbes are the probes of one pattern's strings; ok is false
// when there are none to look for.
type patternProbes struct {
	probes *probes
	ok     bool
}

// sentencePattern reports whether pattern i starts at a sentence's start
// ("\. "): its gate words are the sentence's first.
func sentencePattern(i int) bool { return strings.HasPrefix(injectionPatterns[i].re, `\. `) }

func gatePatterns() map[string]*gateWord {
	gates := map[string]*gateWord{}
	for i, p := range injectionPatterns {
		for _, w := range strings.Fields(p.gate) {
			if gates[w] == nil {
				gates[w] = &gateWord{}
			}
			gates[w].patterns = append(gates[w].patterns, i)
		}
	}
	for _, g := range gates {
		for _, i := range g.patterns {
			sentence := 0
			if sentencePattern(i) {
				sentence = 1
			}
			for strict := range 2 {
				if strict == 0 || !injectionPatterns[i].request {
					g.kinds[sentence][strict] = append(g.kinds[sentence][strict], i)
				}
			}
		}
	}
	return gates
}

// windowWords is how many words from its first a match may span: more
// than the longest pattern does.
const windowWords = 24

// matchFolded returns the first phrase of folded text that a pattern
// matches, or "". Each word that is a gate tries its patterns, anchored
// at that word, on the windowWords words from it; the first word where
// one matches ends the search.
func matchFolded(folded string, example bool) string {
	return matchPadded(". "+folded+" .", example)
}

// matchPadded is matchFolded, given ". " + folded + " .".
func matchPadded(text string, example bool) string {
	m, _ := matchPaddedWords(text, example, foldedWords{})
	return m
}

// matchPaddedWords is matchPadded, which, when it finds nothing and fw is
// on, also returns in fw the classes of folded's words, sentence by
// sentence, as structuralFolded reads them: the words are looked up once
// for both. fw's slices are where to put them.
func matchPaddedWords(text string, example bool, fw foldedWords) (string, foldedWords) {
	// Most text holds none of the words a gate word's patterns need:
	// such a gate word is passed over wherever it is. Which patterns the
	// text may hold is worked out at its first gate word: short text (a
	// tag, a media type, a URL) often has none.
	var buf [128]bool
	var possible []bool
	// With the text's trigrams, which patterns it may hold is asked
	// pattern by pattern, of those of the gate words it has, instead.
	// Only for text of a field's usual length: in long text the trigrams
	// fill up, and asking pattern by pattern would read the text once per
	// string asked where Mark reads it once.
	var pm phraseMay
	// phraseSet has one expression per pattern.
	lazy := fw.tg != nil && len(text) <= lazyTextLimit && len(injectionPatterns) <= len(pm.state)
	if lazy {
		pm.tg, pm.text = fw.tg, text
	}
	run := 0 // one-character words in a row
	for lo := 0; lo < len(text); {
		// Words are short: read to the next space.
		end := lo
		for end < len(text) && text[end] != ' ' {
			end++
		}
		w := text[lo:end]
		var g *gateWord
		if !fw.on {
			g, _ = gateIndex.get(w)
		} else {
			info, _ := wordInfoIndex.get(w)
			g = info.gate
			// "." ends a sentence (the first, the padding before folded,
			// opens the first; the last, after it, closes the last), and
			// "" is no word (folded "" has one empty sentence).
			switch w {
			case ".":
				fw.starts = append(fw.starts, len(fw.cls))
				fw.marks = append(fw.marks, lo)
			case "":
			default:
				fw.cls = append(fw.cls, info.class)
				fw.hint = fw.hint || info.hint
			}
			// spacedLetters, word by word: the padding's "." words, like
			// folded's own, end a run.
			if oneChar(w) {
				if run++; run >= 4 {
					fw.spaced = true
				}
			} else {
				run = 0
			}
		}
		if g != nil {
			may := pm.may
			if !lazy {
				if possible == nil {
					possible = buf[:]
					if n := phraseSet().Len(); n > len(buf) {
						possible = make([]bool, n)
					}
					phraseSet().Mark(text, possible)
				}
				may = func(i int) bool { return possible[i] }
			}
			atSentence := lo >= 2 && text[lo-2:lo] == ". " && g.mayMatch(may, true, example)
			atWord := g.mayMatch(may, false, example)
			if m := g.match(text, lo, end, atSentence, atWord, example, may); m != "" {
				return m, foldedWords{}
			}
		}
		lo = end + 1
	}
	fw.done = fw.on
	return "", fw
}

// match tries the word's patterns on text, at the word at lo (ending at
// end), and at the sentence's start before it when atSentence; those
// matching at the word only when atWord; of a request's (example) only
// those it may not say. may, when not nil, tells which patterns text may
// hold: the others cannot match.
func (g *gateWord) match(text string, lo, end int, atSentence, atWord, example bool, may func(int) bool) string {
	if !atSentence && !atWord {
		return ""
	}
	strict := b2i(example)
	to := windowEnd(text, end)
	// A match at the sentence's start starts earlier, at its ". ".
	if atSentence {
		if n := firstMatch(g.kinds[1][strict], text[lo-2:to], may); n >= 0 {
			return strings.ReplaceAll(strings.Trim(text[lo-2:lo-2+n], ". "), " . ", ". ")
		}
	}
	if atWord {
		if n := firstMatch(g.kinds[0][strict], text[lo:to], may); n >= 0 && !benign().MatchString(text[lo:to]) {
			return strings.ReplaceAll(strings.Trim(text[lo:lo+n], ". "), " . ", ". ")
		}
	}
	return ""
}

// benign matches what starts like an order to a model and is one to a
// person: "you must call our support line", "you must forward airline
// emails to trips@example.com".
var benign = lazyRegexp(`^you (?:must|need to|have to|should)(?: \w+)? (?:call (?:(?:our|the|your|a|an) )?(?:\w+ ){0,2}(?:support|help|customer|service|hotline|office|desk|reception|airline|hotel|bank|doctor|clinic|number|phone|line|helpdesk)\b|call (?:us|\d)|forward (?:\w+ ){0,3}(?:emails?|mails?|receipts?|confirmations?|itinerar\w+|invoices?|bookings?|tickets?) to\b)`)

// windowEnd is the end of the windowWords words of text after byte from.
func windowEnd(text string, from int) int {
	for n := 0; n < windowWords && from < len(text); n++ {
		i := strings.IndexByte(text[from+1:], ' ')
		if i < 0 {
			return len(text)
		}
		from += 1 + i
	}
	return min(from, len(text))
}

// patternWords are the words the injection patterns spell out.
var patternWords = sync.OnceValue(func() map[string]bool {
	words := map[string]bool{}
	word := regexp.MustCompile(`[a-z]{2,}`)
	for _, p := range injectionPatterns {
		// Skip the escapes (\w, \b, \S) before taking the words.
		for _, w := range word.FindAllString(strings.NewReplacer(`\w`, " ", `\b`, " ", `\S`, " ", `\s`, " ").Replace(p.re), -1) {
			words[w] = true
		}
	}
	return words
})

// patternWordIndex is patternWords, for looking many words up.
var patternWordIndex = sync.OnceValue(func() *wordIndex[bool] { return newWordIndex(patternWords()) })

// isPatternWord reports whether some pattern uses the word w.
func isPatternWord(w string) bool {
	ok, _ := patternWordIndex().get(w)
	return ok
}

// makesPatternWord reports whether variant, a re-reading of folded text,
// holds a word some pattern uses that folded does not.
func makesPatternWord(folded, variant string) bool {
	had := map[string]bool{}
	for w := range strings.SplitSeq(folded, " ") {
		had[w] = true
	}
	for w := range strings.SplitSeq(variant, " ") {
		if !had[w] && isPatternWord(w) {
			return true
		}
	}
	return false
}

// markerBytes are the ASCII characters every marker pattern holds one of.
var markerBytes = func() (t [256]bool) {
	for _, c := range []byte("<[:\n#@(|\"") {
		t[c] = true
	}
	return t
}()

// mayHoldMarker reports whether s holds a character some marker pattern
// needs (full-width forms of them included); allASCII says whether s is
// all ASCII.
func mayHoldMarker(s string, allASCII bool) bool {
	for i := 0; i < len(s); i++ {
		if markerBytes[s[i]] {
			return true
		}
	}
	return !allASCII && strings.ContainsAny(s, "\uff1c\uff3b\uff1a")
}
