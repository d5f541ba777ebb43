package aicatalog

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch"
)

// catalogServer serves /c/<n>.json: catalog n lists agents n*10..n*10+2 and
// nests catalog n+1, without end; /card/<k> answers a card.
func catalogServer(t *testing.T, fetches *atomic.Int32) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/c/%d.json", &n); err == nil {
			var entries []string
			for k := n * 10; k < n*10+3; k++ {
				entries = append(entries, fmt.Sprintf(`{"identifier": "urn:air:example.com:a2a:a%d", "displayName": "A", "type": "application/a2a-agent-card+json", "url": "%s/card/%d"}`, k, srv.URL, k))
			}
			entries = append(entries, fmt.Sprintf(`{"identifier": "urn:air:example.com:ai-catalog:c%d", "displayName": "C", "type": "application/ai-catalog+json", "url": "%s/c/%d.json"}`, n+1, srv.URL, n+1))
			fmt.Fprintf(w, `{"specVersion": "1.0", "entries": [%s]}`, strings.Join(entries, ","))
			return
		}
		fmt.Fprintf(w, `{"name": %q}`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestWalk: cards are handed over once each, nested catalogs are read to
// MaxDepth, MaxEntries bounds the fetches, and the order is the catalogs'.
func TestWalk(t *testing.T) {
	var fetches atomic.Int32
	srv := catalogServer(t, &fetches)
	client := &fetch.Client{}
	ctx := context.Background()
	body, _, network, err := client.GetWithin(ctx, srv.URL+"/c/1.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	root := Doc{Source: srv.URL + "/c/1.json", Body: body, Network: network}
	for _, tc := range []struct {
		max, cards, skipped int
	}{
		{1000, 3 * MaxDepth, 1}, // the catalog nested past MaxDepth is skipped
		{5, 4, 0},               // 3 cards + 1 nested, then 1 more card
	} {
		fetches.Store(0)
		var handed atomic.Int32
		walked := Walk(ctx, root, WalkOptions{Cards: client, Catalogs: client, MaxEntries: tc.max}, func(v *Visit) {
			handed.Add(1)
			if v.From.String() != network.String() {
				t.Errorf("card of %s: the network of its catalog is %v, want %v (the JWKS fetch is held to it)", v.URL, v.From, network)
			}
			if !strings.Contains(string(v.Body), v.URL.Path) {
				t.Errorf("card of %s: %s", v.URL, v.Body)
			}
			v.Outcome = "checked"
		})
		visits, problems := walked.Visits, walked.Problems
		if tc.max == 1000 && len(problems) != 0 {
			t.Errorf("problems: %v", problems)
		}
		if int(handed.Load()) != tc.cards {
			t.Errorf("max %d: %d cards handed over, want %d", tc.max, handed.Load(), tc.cards)
		}
		var order []string
		skipped := 0
		for _, v := range visits {
			order = append(order, v.Entry.Identifier)
			if v.Outcome == Skipped && strings.Contains(v.Problem, "nested deeper") {
				skipped++
			}
		}
		if skipped != tc.skipped {
			t.Errorf("max %d: %d catalogs skipped for depth, want %d", tc.max, skipped, tc.skipped)
		}
		if tc.max == 1000 && (order[0] != "urn:air:example.com:a2a:a10" || order[4] != "urn:air:example.com:a2a:a20") {
			t.Errorf("order: %v", order)
		}
		if want := tc.cards + min(MaxDepth-1, tc.cards/3); tc.max == 1000 && int(fetches.Load()) != want {
			t.Errorf("%d fetches, want %d", fetches.Load(), want)
		}
	}
}

// TestWalkCountsWhatItSkips: past MaxEntries a walk lists a few skipped
// entries and counts the rest, so a huge catalog is not held as visits.
func TestWalkCountsWhatItSkips(t *testing.T) {
	var entries []string
	for k := range 5000 {
		entries = append(entries, fmt.Sprintf(`{"identifier": "urn:air:example.com:mcp:m%d", "displayName": "M", "type": "application/mcp-server-card+json", "url": "https://example.com/m%d"}`, k, k))
	}
	root := Doc{Source: "root.json", Body: []byte(`{"specVersion": "1.0", "entries": [` + strings.Join(entries, ",") + `]}`)}
	walked := Walk(context.Background(), root, WalkOptions{Cards: &fetch.Client{}, Catalogs: &fetch.Client{}, MaxEntries: 10}, func(*Visit) {})
	if len(walked.Visits) != 10+maxSkippedListed || walked.OverMax != 5000-10 {
		t.Errorf("%d visits, %d over the bound; want %d, %d", len(walked.Visits), walked.OverMax, 10+maxSkippedListed, 5000-10)
	}
	want := fmt.Sprintf("4990 entries past the first 10 were skipped, not fetched (the first %d are listed as skipped): urn:air:example.com:mcp:m10, urn:air:example.com:mcp:m11, urn:air:example.com:mcp:m12, urn:air:example.com:mcp:m13, urn:air:example.com:mcp:m14 and 4985 more; -max-entries 10 bounds the entries taken in all, nested catalogs' included, breadth-first in catalog order: raise it to take them", maxSkippedListed)
	if !slices.Contains(walked.Problems, want) {
		t.Errorf("problems %q lack %q", walked.Problems, want)
	}
}
