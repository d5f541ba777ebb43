package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestGet(t *testing.T) {
	var gotUA string
	mux := http.NewServeMux()
	mux.HandleFunc("/card", func(w http.ResponseWriter, r *http.Request) {
		gotUA = r.UserAgent()
		w.Write([]byte(`{"name":"x"}`))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 2048)))
	})
	mux.HandleFunc("/chunked-big", func(w http.ResponseWriter, r *http.Request) {
		for range 4 {
			w.Write([]byte(strings.Repeat("x", 1024)))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	c := &Client{MaxBytes: 1024, Timeout: 200 * time.Millisecond}
	ctx := context.Background()
	body, final, err := c.Get(ctx, srv.URL+"/card")
	if err != nil || string(body) != `{"name":"x"}` || final.Path != "/card" {
		t.Fatalf("got %q %v %v", body, final, err)
	}
	if !strings.HasPrefix(gotUA, "agentcards/") {
		t.Errorf("User-Agent %q", gotUA)
	}
	for path, want := range map[string]string{
		"/big":         "over the 1024-byte limit",
		"/chunked-big": "over the 1024-byte limit",
		"/loop":        "more than 3 redirects",
		"/slow":        "Timeout",
		"/missing":     "HTTP 404",
	} {
		if _, _, err := c.Get(ctx, srv.URL+path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", path, err, want)
		}
	}
	for _, u := range []string{"http://example.com/x", "ftp://127.0.0.1/x", "file:///etc/passwd", "/relative"} {
		if _, _, err := c.Get(ctx, u); err == nil {
			t.Errorf("%s: fetched", u)
		}
	}
}

func TestRedirectToPlainHTTPRefused(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) }))
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/card", http.StatusFound)
	}))
	defer tlsSrv.Close()
	pool := tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	c := &Client{RootCAs: pool}
	_, _, err := c.Get(context.Background(), tlsSrv.URL+"/card")
	if err == nil || !strings.Contains(err.Error(), "redirect from https to") {
		t.Fatalf("got %v", err)
	}
}
