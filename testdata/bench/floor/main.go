// Command floor times the least any tool must compute to publish the cards
// of a built site: for every card under DIR/agents/*/.well-known, its RFC
// 8785 form (github.com/gowebpki/jcs) and one Ed25519 signature over it, on
// all cores, with nothing read, written or rendered while timed. It prints
// the elapsed seconds and the number of cards (testdata/bench/run.sh).
//
//	go run ./testdata/bench/floor DIR
package main

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/gowebpki/jcs"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("floor: ")
	if len(os.Args) != 2 {
		log.Fatal("usage: floor DIR (a site agentcards built)")
	}
	var cards [][]byte
	for _, name := range []string{"agent-card.json", "agent.json"} {
		paths, err := filepath.Glob(filepath.Join(os.Args[1], "agents", "*", ".well-known", name))
		if err != nil {
			log.Fatal(err)
		}
		for _, p := range paths {
			cards = append(cards, unsigned(p))
		}
	}
	if len(cards) == 0 {
		log.Fatalf("no cards under %s/agents", os.Args[1])
	}
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		log.Fatal(err)
	}

	start := time.Now()
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(cards); i += workers {
				canonical, err := jcs.Transform(cards[i])
				if err != nil {
					log.Fatal(err)
				}
				ed25519.Sign(key, canonical)
			}
		})
	}
	wg.Wait()
	fmt.Printf("%.3f %d\n", time.Since(start).Seconds(), len(cards))
}

// unsigned is the card at path without its signatures: what a signer
// canonicalizes.
func unsigned(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var card map[string]json.RawMessage
	if err := json.Unmarshal(data, &card); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	delete(card, "signatures")
	out, err := json.Marshal(card)
	if err != nil {
		log.Fatal(err)
	}
	return out
}
