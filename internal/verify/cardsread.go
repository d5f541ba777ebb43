package verify

import (
	"crypto/sha256"

	"github.com/agentcards/agentcards/internal/strtab"
)

// cardsRead is what a site's catalog check needs of the card files the
// walk read (cardFacts), by path. A site of 100,000 agents has 200,000
// of them, held until the catalog is checked after the last card, so
// they are kept where the collector has nothing to follow (strtab): the
// paths numbered, each name and quoted description once, and for each
// path the numbers of its texts and its description's digest.
type cardsRead struct {
	paths, texts *strtab.Table
	facts        []readFacts // by path number
}

// readFacts is a cardFacts in a cardsRead.
type readFacts struct {
	name, quoted uint32 // numbers in texts
	sum          [sha256.Size]byte
}

func newCardsRead() *cardsRead {
	return &cardsRead{paths: strtab.New(0), texts: strtab.New(0)}
}

// add records the facts of the card file at path.
func (r *cardsRead) add(path string, f cardFacts) {
	rf := readFacts{name: uint32(r.texts.Add(f.name)), quoted: uint32(r.texts.Add(f.description.quoted)), sum: f.description.sum}
	if i := r.paths.Add(path); i < len(r.facts) {
		r.facts[i] = rf
	} else {
		r.facts = append(r.facts, rf)
	}
}

// get is what was recorded of the card file at path, if it was read.
func (r *cardsRead) get(path string) (cardFacts, bool) {
	i, ok := r.paths.Find(path)
	if !ok {
		return cardFacts{}, false
	}
	f := &r.facts[i]
	return cardFacts{name: r.texts.At(int(f.name)), description: descDigest{sum: f.sum, quoted: r.texts.At(int(f.quoted))}}, true
}
