// Command verifyfloor times the least any verifier must do to check the
// cards of a built site: for every card under DIR/agents/*/.well-known,
// read the file, take its signatures out, put the rest (or, for a
// signature over the card's SDK projection, that projection) in RFC 8785
// form (github.com/gowebpki/jcs), and check each detached Ed25519 JWS
// signature over it with the key of DIR/.well-known/jwks.json (read once, untimed),
// on all cores, reporting nothing. It is the floor for `agentcards verify`
// (testdata/bench/run.sh), which also checks the catalog, the key set's
// rules and the cards' text. It prints the elapsed seconds, the number of
// signatures checked, and the seconds that checking the same signatures
// takes again with their signing inputs already built: Ed25519 alone, on
// all cores, the floor under the floor.
//
//	go run ./testdata/bench/verifyfloor DIR
package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/agentcards/agentcards/testdata/bench/sitecards"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("verifyfloor: ")
	if len(os.Args) != 2 {
		log.Fatal("usage: verifyfloor DIR (a site agentcards built)")
	}
	dir := os.Args[1]
	keys := publicKeys(filepath.Join(dir, ".well-known", "jwks.json"))
	paths, err := sitecards.Paths(dir)
	if err != nil {
		log.Fatal(err)
	}

	start := time.Now()
	var wg sync.WaitGroup
	done := make([][]verification, len(paths))
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(paths); i += workers {
				done[i] = check(paths[i], keys)
			}
		})
	}
	wg.Wait()
	total := time.Since(start)

	// The same signatures again, their inputs already built: Ed25519
	// alone, on all cores.
	var all []verification
	for _, vs := range done {
		all = append(all, vs...)
	}
	start = time.Now()
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(all); i += workers {
				if !ed25519.Verify(all[i].key, all[i].input, all[i].signature) {
					log.Fatal("a signature no longer verifies")
				}
			}
		})
	}
	wg.Wait()
	fmt.Printf("%.3f %d %.3f\n", total.Seconds(), len(all), time.Since(start).Seconds())
}

// verification is one signature checked: the key, the signing input and
// the signature.
type verification struct {
	key              ed25519.PublicKey
	input, signature []byte
}

// check reads the card at path and verifies every signature it holds,
// returning them; any failure ends the program. A signature over the
// SDK projection of a card (marked "agentcards:payload" in its protected
// header) is checked over that projection, made from the card as read
// (sitecards.Payload), as verify checks it.
func check(path string, keys map[string]ed25519.PublicKey) []verification {
	unsigned, sigs, err := sitecards.Read(path)
	if err != nil {
		log.Fatal(err)
	}
	inputs, err := sitecards.SigningInputs(unsigned, sigs)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	checked := make([]verification, len(sigs))
	for i, sig := range sigs {
		if sig.Alg != "EdDSA" {
			log.Fatalf("%s: alg %q", path, sig.Alg)
		}
		key, ok := keys[sig.Kid]
		if !ok {
			log.Fatalf("%s: no key %q", path, sig.Kid)
		}
		signature, err := base64.RawURLEncoding.DecodeString(sig.Signature)
		if err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		if !ed25519.Verify(key, inputs[i], signature) {
			log.Fatalf("%s: signature does not verify", path)
		}
		checked[i] = verification{key, inputs[i], signature}
	}
	return checked
}

// publicKeys reads the Ed25519 keys of a JWKS, by kid.
func publicKeys(path string) map[string]ed25519.PublicKey {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var set struct {
		Keys []struct{ Kty, Crv, Kid, X string }
	}
	if err := json.Unmarshal(data, &set); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	keys := map[string]ed25519.PublicKey{}
	for _, k := range set.Keys {
		if k.Kty != "OKP" || k.Crv != "Ed25519" {
			continue
		}
		x, err := base64.RawURLEncoding.DecodeString(k.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			log.Fatalf("%s: key %q: bad x", path, k.Kid)
		}
		keys[k.Kid] = ed25519.PublicKey(x)
	}
	if len(keys) == 0 {
		log.Fatalf("%s: no Ed25519 key", path)
	}
	return keys
}
