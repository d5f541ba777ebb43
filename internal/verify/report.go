package verify

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/gctune"
)

// What the report of a site keeps of each of its cards, kept small: a
// site of 100,000 agents has 200,000 cards.

// descDigest is what a site's catalog check needs of a card's
// description: whether an entry's description is the same text, and the
// start of the text, quoted (shortQuote), to show when it is not. The
// text itself (hundreds of bytes a card) is not kept. The zero
// descDigest is that of "" (a card that could not be read has none).
type descDigest struct {
	sum    [sha256.Size]byte
	quoted string // "" for ""
}

// digestDescription is the descDigest of description s.
func digestDescription(s string) descDigest {
	if s == "" {
		return descDigest{}
	}
	return descDigest{sum: sha256.Sum256([]byte(s)), quoted: shortQuote(s)}
}

// is reports whether s is the description d was made of.
func (d descDigest) is(s string) bool {
	if d.quoted == "" || s == "" {
		return d.quoted == "" && s == ""
	}
	return sha256.Sum256([]byte(s)) == d.sum
}

// quote is the description d was made of, quoted and cut short as
// shortQuote does.
func (d descDigest) quote() string {
	if d.quoted == "" {
		return shortQuote("")
	}
	return d.quoted
}

// interner keeps one copy of each short string the cards of a site
// repeat (a kid, an algorithm, a jku, the members a projection leaves
// out), up to maxInterned of them: a hostile site may bring a new one in
// each card, and those are copied each time. A nil interner copies
// every string.
type interner struct {
	mu    sync.Mutex
	m     map[string]string
	lists map[string][]string
}

// maxInterned bounds the strings and lists an interner keeps.
const maxInterned = 256

// get is s, copied (card strings share the memory of the card's whole
// text), once.
func (in *interner) get(s string) string {
	if in == nil || s == "" {
		return strings.Clone(s)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if t, ok := in.m[s]; ok {
		return t
	}
	t := strings.Clone(s)
	if len(in.m) < maxInterned {
		if in.m == nil {
			in.m = map[string]string{}
		}
		in.m[t] = t
	}
	return t
}

// list is l, or an equal list kept before (which nobody may change).
func (in *interner) list(l []string) []string {
	if in == nil || len(l) == 0 {
		return l
	}
	var b strings.Builder
	for _, s := range l {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	key := b.String()
	in.mu.Lock()
	defer in.mu.Unlock()
	if k, ok := in.lists[key]; ok {
		return k
	}
	if len(in.lists) < maxInterned {
		if in.lists == nil {
			in.lists = map[string][]string{}
		}
		in.lists[key] = l
	}
	return l
}

// memoryLimit is the soft memory limit a run of verify has unless
// $GOMEMLIMIT sets one: what a site's check holds grows slowly with the
// site (a path and a digest a card, for the catalog check), and the
// collector would otherwise let the heap grow to 100% above that ($GOGC's
// default), or gcPercent under TuneMemory.
const memoryLimit = 192 << 20

// gcPercent is the collector's target a run of verify has unless $GOGC
// sets one (the default is 100): a site's check allocates a card's worth
// of short-lived memory for every card and keeps little, so collecting
// half as often costs a few tens of MB at 10,000 agents, and past that
// the limit bounds the heap.
const gcPercent = 200

// TuneMemory sets the collector up for a run of `agentcards verify`: a
// soft memory limit unless $GOMEMLIMIT sets one, and under it, unless
// $GOGC sets one, a target that collects less often. getenv reads the
// environment.
func TuneMemory(getenv func(string) string) { gctune.Set(getenv, memoryLimit, gcPercent) }
