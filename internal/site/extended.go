package site

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

// Files of the private output, the folder of extended cards
// (site.privateOutput): agents/<id>/ holds each agent's extended cards.
// privateIgnore keeps the folder out of git wherever it is.
const privateIgnore = ".gitignore"

// privateIgnoreText is the .gitignore of the private output.
var privateIgnoreText = []byte("# Written by agentcards build: extended cards are for authenticated callers only.\n# Never commit or publish this folder; deploy it with the agent's server.\n*\n")

// extendedAgents are the agents with extended cards, gathered from many
// goroutines as the build meets them.
type extendedAgents struct {
	mu     sync.Mutex
	agents []*manifest.Agent
}

// noteExtended records an agent with extended cards, decoding it when the
// build did not need to.
func (b *builder) noteExtended(mem *member, mu *sync.Mutex, res *groupResult) bool {
	if mem.agent == nil && !b.decode(mem, mu, res) {
		return false
	}
	e := &b.extended
	e.mu.Lock()
	e.agents = append(e.agents, mem.agent)
	e.mu.Unlock()
	return true
}

// files signs every extended card of the site: the private output's files
// by path, with the .gitignore (nil when no agent has one), and how many
// extended cards they hold.
func (e *extendedAgents) files(m *manifest.Manifest, signers []*sign.Signer) (files map[string][]byte, count int, err error) {
	if len(e.agents) == 0 {
		return nil, 0, nil
	}
	slices.SortFunc(e.agents, func(x, y *manifest.Agent) int { return strings.Compare(x.ID, y.ID) })
	files = map[string][]byte{privateIgnore: privateIgnoreText}
	for _, a := range e.agents {
		for _, ec := range a.ExtendedCards() {
			count++
			cards, err := signedCards(m, signers, ec.Agent)
			if err != nil {
				return nil, 0, fmt.Errorf("agent %q: extended card %s: %w", a.ID, tierName(ec.Tier), err)
			}
			files[layout.ExtendedFile(a.ID, ec.Tier, false)] = cards.cardJSON
			files[layout.ExtendedFile(a.ID, ec.Tier, true)] = cards.legacyJSON
		}
	}
	return files, count, nil
}

func tierName(t string) string {
	if t == "" {
		return "[extended]"
	}
	return "tier " + t
}
