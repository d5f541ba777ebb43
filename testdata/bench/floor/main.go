// Command floor times the least any tool must compute to publish the cards
// of a built site: for every card under DIR/agents/*/.well-known, the RFC
// 8785 form (github.com/gowebpki/jcs) of each payload its signatures sign
// (the card; and, for a signature marked so, the card's SDK projection,
// made with card.SDKProjection), once each, and for every signature the
// card carries one Ed25519 signature over its JWS signing input
// (BASE64URL(protected header) '.' BASE64URL(payload)), on all cores, with
// nothing read, written or rendered while timed. It prints the elapsed
// seconds and the number of signatures made (testdata/bench/run.sh).
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
	cards := make([]signedCard, len(paths))
	signatures := 0
	for i, p := range paths {
		cards[i] = readCard(p)
		signatures += len(cards[i].sigs)
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
				cards[i].sign(key)
			}
		})
	}
	wg.Wait()
	fmt.Printf("%.3f %d\n", time.Since(start).Seconds(), signatures)
}

// signedCard is a card without its signatures, and the signatures it
// carried.
type signedCard struct {
	unsigned []byte
	sigs     []sitecards.Signature
}

// sign makes the card's signatures again with key, each over its signing
// input (sitecards.SigningInputs).
func (c signedCard) sign(key ed25519.PrivateKey) {
	inputs, err := sitecards.SigningInputs(c.unsigned, c.sigs)
	if err != nil {
		log.Fatal(err)
	}
	for _, input := range inputs {
		ed25519.Sign(key, input)
	}
}

// readCard reads the card at path.
func readCard(path string) signedCard {
	unsigned, sigs, err := sitecards.Read(path)
	if err != nil {
		log.Fatal(err)
	}
	return signedCard{unsigned, sigs}
}
