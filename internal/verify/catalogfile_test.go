package verify

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcards/agentcards/internal/fetch/fetchtest"
)

// catalogFile writes a catalog file whose one A2A entry is at url, and
// returns its path.
func catalogFile(t *testing.T, url string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "catalog.json")
	doc := fmt.Sprintf(`{"specVersion": "1.0", "entries": [{"identifier": "urn:air:rebind.test:a2a:ledger", "displayName": "Ledger", "type": "application/a2a-agent-card+json", "url": %q}]}`, url)
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// entriesText is every entry's outcome and problem, and the report's
// problems, one a line.
func entriesText(rep *Report) string {
	var text []string
	for _, e := range rep.Entries {
		text = append(text, e.Outcome+": "+e.Problem)
	}
	return strings.Join(append(text, rep.Problems...), "\n")
}

// TestCatalogFileHeldToPublic: a catalog file may come from anyone (a
// pull request to a registry whose CI verifies it), so the URLs it names
// are held to the public rule, as those of a catalog served from a public
// address: a name that answers a private address, or a loopback service,
// is refused before any connection, and the refusal does not say what
// answered; a public one verifies. -allow-private (AllowPrivate) fetches
// them as if named on the command line.
func TestCatalogFileHeldToPublic(t *testing.T) {
	t.Run("a name on a private address", func(t *testing.T) {
		s := newRebindSite(t, fetchtest.Private)
		file := catalogFile(t, s.base+"/agents/ledger/.well-known/agent-card.json")
		rep := &Report{}
		if err := Catalog(context.Background(), file, Options{Fetch: s.client}, CatalogOptions{}, rep); err != nil {
			t.Fatal(err)
		}
		Finish(rep)
		text := entriesText(rep)
		t.Logf("refused: %s", text)
		if rep.Verified || len(rep.Entries) != 1 || rep.Entries[0].Outcome != EntryFailed {
			t.Fatalf("a catalog file led verify to a private address: %+v", rep.Entries)
		}
		for _, want := range []string{"refused: rebind.test:", "-allow-private"} {
			if !strings.Contains(text, want) {
				t.Errorf("the problem does not say %q: %s", want, text)
			}
		}
		if strings.Contains(text, fetchtest.Private) || strings.Contains(text, "private address") {
			t.Errorf("the problem says what answered: %s", text)
		}
		if n := s.private.Conns.Load() + s.public.Conns.Load(); n != 0 {
			t.Errorf("%d connection(s) reached the site", n)
		}

		// Named by the user, the intranet catalog is fetched.
		rep = &Report{}
		if err := Catalog(context.Background(), file, Options{Fetch: s.client}, CatalogOptions{AllowPrivate: true}, rep); err != nil {
			t.Fatal(err)
		}
		Finish(rep)
		if !rep.Verified {
			t.Errorf("with AllowPrivate: not verified: %s", entriesText(rep))
		}
	})

	t.Run("a name on a public address", func(t *testing.T) {
		s := newRebindSite(t, fetchtest.Public)
		rep := &Report{}
		if err := Catalog(context.Background(), catalogFile(t, s.base+"/agents/ledger/.well-known/agent-card.json"), Options{Fetch: s.client}, CatalogOptions{}, rep); err != nil {
			t.Fatal(err)
		}
		Finish(rep)
		if !rep.Verified {
			t.Errorf("a public entry of a catalog file: not verified: %s", entriesText(rep))
		}
	})

	t.Run("a loopback service", func(t *testing.T) {
		// A service on loopback that answers any connection with a
		// banner an error would repeat.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { ln.Close() })
		var conns atomic.Int32
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				conns.Add(1)
				c.Write([]byte("Secret-Internal-Host-db01\r\n\r\n"))
				c.Close()
			}
		}()
		for _, u := range []string{"http://" + ln.Addr().String() + "/.well-known/agent-card.json", "https://" + ln.Addr().String() + "/"} {
			rep := &Report{}
			if err := Catalog(context.Background(), catalogFile(t, u), Options{}, CatalogOptions{}, rep); err != nil {
				t.Fatal(err)
			}
			Finish(rep)
			text := entriesText(rep)
			t.Logf("refused: %s", text)
			if rep.Verified || !strings.Contains(text, "refused") || !strings.Contains(text, "-allow-private") {
				t.Errorf("%s: not refused: %s", u, text)
			}
			if strings.Contains(text, "Secret-Internal") {
				t.Errorf("%s: the problem repeats what answered: %s", u, text)
			}
		}
		if n := conns.Load(); n != 0 {
			t.Errorf("the loopback service got %d connection(s)", n)
		}
	})
}
