package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCredentialClientNetworkRule: a URL named by a document from a public
// network cannot take the caller's headers to a loopback address; named by
// a loopback document, or by the caller, it can.
func TestCredentialClientNetworkRule(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("X-API-Key"))
	}))
	defer srv.Close()
	h := http.Header{"X-Api-Key": {"secret-value"}}
	for _, tc := range []struct {
		name string
		from *Network
		ok   bool
	}{
		{"the caller's own choice", nil, true},
		{"named by a loopback document", &Network{classLoopback}, true},
		{"named by a public document", &Network{classPublic}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			hc, err := (&Client{}).CredentialClient(srv.URL, h, tc.from)
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL, nil)
			resp, err := hc.Do(req)
			if resp != nil {
				resp.Body.Close()
			}
			if tc.ok != (err == nil) {
				t.Fatalf("err %v, want ok %v", err, tc.ok)
			}
			if !tc.ok && (len(got) != 0 || !strings.Contains(err.Error(), "loopback")) {
				t.Errorf("the request went out (%q) or the error does not say why: %v", got, err)
			}
			if tc.ok && (len(got) != 1 || got[0] != "secret-value") {
				t.Errorf("headers sent: %q", got)
			}
		})
	}
}
