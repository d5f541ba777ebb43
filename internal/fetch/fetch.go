// Package fetch gets small JSON documents (cards, JWKS) over HTTP with the
// hygiene a verifier needs: https only (plain http only on loopback), a
// timeout, a body size limit, few redirects and never to http, and an
// honest User-Agent.
package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"
)

// Defaults for a Client.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBytes     = 1 << 20
	DefaultMaxRedirects = 3
)

// UserAgent is sent with every request.
var UserAgent = "agentcards/1 (+https://github.com/agentcards/agentcards; A2A agent card verifier)"

// Client fetches documents. The zero value uses the defaults.
type Client struct {
	Timeout      time.Duration
	MaxBytes     int64
	MaxRedirects int
	// RootCAs, when set, replaces the system's trusted certificate
	// authorities (for a private PKI, or a test server).
	RootCAs *x509.CertPool
}

// LoadRootCAs reads PEM certificates from a file into a pool.
func LoadRootCAs(path string) (*x509.CertPool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("%s: no PEM certificate found", path)
	}
	return pool, nil
}

// Error is a fetch failure: a bad URL, a refused scheme or redirect, a
// network or HTTP error, a body over the limit.
type Error struct {
	URL string
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("fetch %s: %v", e.URL, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// CheckURL reports whether u may be fetched: https, or http to a loopback
// host.
func CheckURL(u *url.URL) error {
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if IsLoopback(u.Hostname()) {
			return nil
		}
		return errors.New("plain http is refused (https only; http only for loopback hosts)")
	default:
		return fmt.Errorf("scheme %q is not fetched (https only)", u.Scheme)
	}
}

// IsLoopback reports whether host is localhost or a loopback address.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Get fetches rawURL and returns the body and the final URL after
// redirects.
func (c *Client) Get(ctx context.Context, rawURL string) ([]byte, *url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, nil, &Error{rawURL, errors.New("not an absolute URL")}
	}
	if err := CheckURL(u); err != nil {
		return nil, nil, &Error{rawURL, err}
	}
	timeout, maxBytes, maxRedirects := c.Timeout, c.MaxBytes, c.MaxRedirects
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if maxRedirects <= 0 {
		maxRedirects = DefaultMaxRedirects
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // a verifier talks to the site itself
	if c.RootCAs != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: c.RootCAs, MinVersion: tls.VersionTLS12}
	}
	hc := &http.Client{
		Timeout:   timeout,
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			if err := CheckURL(req.URL); err != nil {
				return fmt.Errorf("redirect to %s: %v", req.URL, err)
			}
			if via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect from https to %s refused", req.URL)
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, &Error{rawURL, err}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "application/json, application/a2a-agent-card+json;q=0.9, */*;q=0.1")
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, nil, &Error{rawURL, err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, nil, &Error{rawURL, fmt.Errorf("HTTP %s", resp.Status)}
	}
	if resp.ContentLength > maxBytes {
		return nil, nil, &Error{rawURL, fmt.Errorf("body of %d bytes is over the %d-byte limit", resp.ContentLength, maxBytes)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return nil, nil, &Error{rawURL, err}
	}
	if int64(len(body)) > maxBytes {
		return nil, nil, &Error{rawURL, fmt.Errorf("body is over the %d-byte limit", maxBytes)}
	}
	return body, resp.Request.URL, nil
}
