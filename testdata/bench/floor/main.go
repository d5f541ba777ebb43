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
	"fmt"
	"log"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/gowebpki/jcs"

	"github.com/agentcards/agentcards/testdata/bench/sitecards"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("floor: ")
	if len(os.Args) != 2 {
		log.Fatal("usage: floor DIR (a site agentcards built)")
	}
	paths, err := sitecards.Paths(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	cards := make([][]byte, len(paths))
	for i, p := range paths {
		cards[i] = unsigned(p)
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
	out, _, err := sitecards.Split(data)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return out
}
