// Package sitecards finds the agents' cards of a built site and takes
// their signatures out, the simplest way, for the floor programs of
// testdata/bench (floor, verifyfloor).
package sitecards

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// Paths are the files of every agent's cards under dir/agents: all the
// agent-card.json files, then all the agent.json files; an error when
// there are none.
func Paths(dir string) ([]string, error) {
	var paths []string
	for _, name := range []string{"agent-card.json", "agent.json"} {
		found, err := filepath.Glob(filepath.Join(dir, "agents", "*", ".well-known", name))
		if err != nil {
			return nil, err
		}
		paths = append(paths, found...)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no cards under %s/agents", dir)
	}
	return paths, nil
}

// Split is the card data holds without its signatures (what a signer
// canonicalizes), and those signatures as written.
func Split(data []byte) (unsigned, signatures json.RawMessage, err error) {
	var card map[string]json.RawMessage
	if err := json.Unmarshal(data, &card); err != nil {
		return nil, nil, err
	}
	signatures = card["signatures"]
	delete(card, "signatures")
	unsigned, err = json.Marshal(card)
	return unsigned, signatures, err
}
