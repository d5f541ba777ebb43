package verify

import (
	"strconv"
	"testing"
)

// TestCardsRead checks that the facts of each card file read are found
// by its path, the last recorded for a path counting, and no others.
func TestCardsRead(t *testing.T) {
	r := newCardsRead()
	facts := func(i int) cardFacts {
		return cardFacts{name: "Agent " + strconv.Itoa(i%7), description: digestDescription("does thing " + strconv.Itoa(i))}
	}
	path := func(i int) string { return "/site/agents/a-" + strconv.Itoa(i) + "/.well-known/agent-card.json" }
	for i := range 1000 {
		r.add(path(i), facts(i+1))
		r.add(path(i), facts(i))
	}
	r.add("/site/.well-known/agent-card.json", cardFacts{})
	for i := range 1000 {
		if got, ok := r.get(path(i)); !ok || got != facts(i) {
			t.Errorf("%s: %+v, %v; want %+v", path(i), got, ok, facts(i))
		}
	}
	if got, ok := r.get("/site/.well-known/agent-card.json"); !ok || got != (cardFacts{}) {
		t.Errorf("the card with no name nor description: %+v, %v", got, ok)
	}
	if got, ok := r.get(path(1000)); ok {
		t.Errorf("a path never read: %+v", got)
	}
}
