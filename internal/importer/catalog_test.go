package importer

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/fetch"
)

// TestCatalogFileHeldToPublic: the URLs a catalog file names (a file may
// come from anyone) are held to the public rule: one on loopback is
// refused before any request reaches it, with a problem that says how
// to fetch it anyway; AllowPrivate (-allow-private) imports it.
func TestCatalogFileHeldToPublic(t *testing.T) {
	const card = `{"name":"Echo","description":"Repeats.","version":"1","supportedInterfaces":[{"url":"https://echo.example.com/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"S","description":"d","tags":["t"]}]}`
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(card))
	}))
	defer srv.Close()
	body := fmt.Appendf(nil, `{"specVersion": "1.0", "entries": [{"identifier": "urn:air:example.com:a2a:echo", "displayName": "Echo", "type": "application/a2a-agent-card+json", "url": %q}]}`, srv.URL+"/card.json")
	opts := CatalogOptions{Cards: &fetch.Client{}, Catalogs: &fetch.Client{}}

	res := Catalog(context.Background(), aicatalog.Doc{Source: "catalog.json", Body: body}, opts)
	if len(res.Agents) != 0 || res.Failed != 1 {
		t.Errorf("a catalog file led import to loopback: %d agent(s), %d failed", len(res.Agents), res.Failed)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server got %d request(s)", n)
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "refused") || !strings.Contains(w, "-allow-private") {
		t.Errorf("warnings do not say it was refused, and how to fetch it: %s", w)
	}

	res = Catalog(context.Background(), aicatalog.Doc{Source: "catalog.json", Body: body, AllowPrivate: true}, opts)
	if len(res.Agents) != 1 || res.Failed != 0 {
		t.Errorf("with AllowPrivate: %d agent(s), %d failed: %q", len(res.Agents), res.Failed, res.Warnings)
	}
}
