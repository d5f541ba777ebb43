package agentcards_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/agentcards/agentcards"
)

// site is the example site this repository builds from agents.toml.
const site = "testdata/golden/example-site"

// Verify a card you hold against a JWKS you pinned.
func ExampleVerifier_Verify() {
	jwks, err := os.ReadFile(site + "/.well-known/jwks.json")
	if err != nil {
		log.Fatal(err)
	}
	trust, err := agentcards.TrustJWKS(jwks)
	if err != nil {
		log.Fatal(err)
	}
	v, err := agentcards.NewVerifier(trust)
	if err != nil {
		log.Fatal(err)
	}
	raw, err := os.ReadFile(site + "/agents/travel-planner/.well-known/agent-card.json")
	if err != nil {
		log.Fatal(err)
	}
	res, err := v.Verify(context.Background(), raw)
	if err != nil {
		log.Fatal(err)
	}
	// Parse only the verified bytes.
	var card struct{ Name string }
	if err := json.Unmarshal(res.Card, &card); err != nil {
		log.Fatal(err)
	}
	fmt.Println(card.Name)
	fmt.Println(res.Algorithm, res.KeyID, res.Covers)

	// One changed letter and the card is refused.
	forged := strings.Replace(string(raw), "Voyager", "Voyageur", 1)
	_, err = v.Verify(context.Background(), []byte(forged))
	fmt.Println(errors.Is(err, agentcards.ErrBadSignature))
	// Output:
	// Voyager Travel Planner
	// EdDSA eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM strict
	// true
}

// Fetch a card by URL and verify it with the keys of its origin. (The
// example site's cards name its production JWKS in their jku, so here the
// keys are pinned; a site served at its own origin needs only
// TrustOrigin.)
func ExampleVerifier_Fetch() {
	srv := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer srv.Close()

	jwks, err := os.ReadFile(site + "/.well-known/jwks.json")
	if err != nil {
		log.Fatal(err)
	}
	trust, err := agentcards.TrustJWKS(jwks)
	if err != nil {
		log.Fatal(err)
	}
	v, err := agentcards.NewVerifier(trust)
	if err != nil {
		log.Fatal(err)
	}
	// An origin alone means its /.well-known/agent-card.json.
	res, err := v.Fetch(context.Background(), srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.KeyID)

	_, err = v.Fetch(context.Background(), srv.URL+"/agents/nobody/.well-known/agent-card.json")
	var fe *agentcards.FetchError
	if errors.As(err, &fe) {
		fmt.Println("fetch failed:", fe.StatusCode)
	}
	// Output:
	// eErapfE2qrl4VcdRyOlep1NW1C8Q__sBISP2TBBO3OM
	// fetch failed: 404
}

// VerifyingParser fits the card parser hook of a client library, such as
// a2a-go's agentcard.Resolver.CardParser: the library's parser sees only
// the verified card.
func ExampleVerifyingParser() {
	jwks, err := os.ReadFile(site + "/.well-known/jwks.json")
	if err != nil {
		log.Fatal(err)
	}
	trust, err := agentcards.TrustJWKS(jwks)
	if err != nil {
		log.Fatal(err)
	}
	v, err := agentcards.NewVerifier(trust)
	if err != nil {
		log.Fatal(err)
	}
	type agentCard struct {
		Name   string
		Skills []struct{ ID string }
	}
	parse := agentcards.VerifyingParser(context.Background(), v, func(b []byte) (*agentCard, error) {
		var c agentCard
		err := json.Unmarshal(b, &c)
		return &c, err
	})
	raw, err := os.ReadFile(site + "/agents/invoice-reader/.well-known/agent-card.json")
	if err != nil {
		log.Fatal(err)
	}
	c, err := parse(raw)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Name, len(c.Skills))

	_, err = parse([]byte(strings.Replace(string(raw), "Ledger Lens", "Ledger Lenz", 1)))
	fmt.Println(err != nil)
	// Output:
	// Ledger Lens 3
	// true
}

// FlattenScopeLists bridges the A2A v1.0 JSON of a security requirement to
// the form a2a-go v2.4.0 reads.
func ExampleFlattenScopeLists() {
	in := []byte(`{"securityRequirements":[{"schemes":{"oauth":{"list":["read"]}}}]}`)
	fmt.Println(string(agentcards.FlattenScopeLists(in)))
	// Output:
	// {"securityRequirements":[{"schemes":{"oauth":["read"]}}]}
}
