package aicatalog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/fetch"
)

// orderCatalogs are the catalogs of TestWalkBoundIsDeterministic: names
// starting with "n" are nested catalogs, the others A2A cards.
var orderCatalogs = map[string][]string{
	"root": {"a1", "n1", "a2", "n2", "a3"},
	"n1":   {"b1", "b2", "b3", "b4", "n3"},
	"n2":   {"c1", "c2", "c3", "c4"},
	"n3":   {"d1", "d2", "d3"},
}

// orderServer serves orderCatalogs at /<name>.json and a card at
// /card/<name>, each answer after a random delay of up to 15ms, so that
// the fetches answer in a different order on every walk.
func orderServer(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(rand.N(15 * time.Millisecond))
		if name, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".json"); ok {
			var entries []string
			for _, e := range orderCatalogs[name] {
				typ, u := AgentCardType, srv.URL+"/card/"+e
				if strings.HasPrefix(e, "n") {
					typ, u = MediaType, srv.URL+"/"+e+".json"
				}
				entries = append(entries, fmt.Sprintf(`{"identifier": "urn:air:example.com:x:%s", "displayName": "E", "type": %q, "url": %q}`, e, typ, u))
			}
			fmt.Fprintf(w, `{"specVersion": "1.0", "entries": [%s]}`, strings.Join(entries, ","))
			return
		}
		fmt.Fprintf(w, `{"name": %q}`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestWalkBoundIsDeterministic: with more entries than MaxEntries and
// nested catalogs that answer in a random order, every walk takes the
// same entries, breadth-first in catalog order, and reports the same
// ones skipped, in that order, whatever GOMAXPROCS and Parallel are.
func TestWalkBoundIsDeterministic(t *testing.T) {
	srv := orderServer(t)
	client := &fetch.Client{}
	ctx := context.Background()
	body, _, network, err := client.GetWithin(ctx, srv.URL+"/root.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	root := Doc{Source: srv.URL + "/root.json", Body: body, Network: network}
	// Breadth-first: root's 5 entries, n1's 5 (n3 among them), then 2 of
	// n2's; the rest of n2, and all of n3, are past the bound.
	wantTaken := []string{"a1", "n1", "a2", "n2", "a3", "b1", "b2", "b3", "b4", "n3", "c1", "c2"}
	wantSkipped := []string{"c3", "c4", "d1", "d2", "d3"}
	wantCards := []string{"a1", "a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2"}
	wantProblem := "5 entries past the first 12 were skipped, not fetched: urn:air:example.com:x:c3, urn:air:example.com:x:c4, urn:air:example.com:x:d1, urn:air:example.com:x:d2, urn:air:example.com:x:d3; -max-entries 12 bounds the entries taken in all, nested catalogs' included, breadth-first in catalog order: raise it to take them"
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for run := range 20 {
		runtime.GOMAXPROCS(1 + run%4)
		var mu sync.Mutex
		var cards []string
		walked := Walk(ctx, root, WalkOptions{Cards: client, Catalogs: client, MaxEntries: 12, Parallel: 1 + run%5}, func(v *Visit) {
			mu.Lock()
			cards = append(cards, strings.TrimPrefix(v.URL.Path, "/card/"))
			mu.Unlock()
			v.Outcome = "checked"
		})
		var taken, skipped []string
		for _, v := range walked.Visits {
			name := strings.TrimPrefix(v.Entry.Identifier, "urn:air:example.com:x:")
			if v.Outcome == Skipped {
				skipped = append(skipped, name)
				if want := "past the first 12 entries (-max-entries)"; v.Problem != want {
					t.Errorf("run %d: %s skipped for %q, want %q", run, name, v.Problem, want)
				}
				continue
			}
			taken = append(taken, name)
		}
		slices.Sort(cards)
		if !slices.Equal(taken, wantTaken) || !slices.Equal(skipped, wantSkipped) || !slices.Equal(cards, wantCards) {
			t.Errorf("run %d (GOMAXPROCS %d, Parallel %d):\ntaken   %v, want %v\nskipped %v, want %v\ncards   %v, want %v", run, 1+run%4, 1+run%5, taken, wantTaken, skipped, wantSkipped, cards, wantCards)
		}
		if walked.OverMax != len(wantSkipped) || !slices.Equal(walked.Problems, []string{wantProblem}) {
			t.Errorf("run %d: %d over the bound, problems %q; want %d, %q", run, walked.OverMax, walked.Problems, len(wantSkipped), wantProblem)
		}
	}
}
