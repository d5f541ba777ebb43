// Command floor times the least any tool must compute to publish the cards
// of a built site: for every signature of every card under
// DIR/agents/*/.well-known, the RFC 8785 form (github.com/gowebpki/jcs) of
// what it signs (the card, or the card's SDK projection for a signature
// marked so) and one Ed25519 signature over it, on all cores, with nothing
// read, written or rendered while timed: what the projection leaves out is
// found before the clock starts. It prints the elapsed seconds and the
// number of signatures made (testdata/bench/run.sh).
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
	var inputs [][]byte
	for _, p := range paths {
		inputs = append(inputs, payloads(p)...)
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
			for i := w; i < len(inputs); i += workers {
				canonical, err := jcs.Transform(inputs[i])
				if err != nil {
					log.Fatal(err)
				}
				ed25519.Sign(key, canonical)
			}
		})
	}
	wg.Wait()
	fmt.Printf("%.3f %d\n", time.Since(start).Seconds(), len(inputs))
}

// payloads are what the signatures of the card at path were made over,
// before canonicalization, one for each (sitecards.Payload).
func payloads(path string) [][]byte {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	unsigned, raw, err := sitecards.Split(data)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	sigs, err := sitecards.Signatures(raw)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	var out [][]byte
	for _, sig := range sigs {
		p, err := sitecards.Payload(unsigned, sig)
		if err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		out = append(out, p)
	}
	return out
}
