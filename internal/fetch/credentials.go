package fetch

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// SameOrigin reports whether two URLs have the same scheme, host and port.
func SameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// CredentialClient is HTTPClient for requests that carry the caller's
// headers (credentials) to rawURL's origin: every request to that origin
// gets them, none elsewhere does, and a redirect to another origin is
// refused. When rawURL comes from a document fetched from the network from
// (not nil), every connection is held to that network's rule, as
// GetWithin's are: a public document cannot send credentials to loopback,
// private or link-local addresses. Errors should pass through
// RedactHeaders.
func (c *Client) CredentialClient(rawURL string, h http.Header, from *Network) (*http.Client, error) {
	hc, err := c.httpClient(rawURL, from)
	if err != nil {
		return nil, err
	}
	origin, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	checkRedirect := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !SameOrigin(req.URL, origin) {
			return fmt.Errorf("redirect to another origin (%s) refused: the request may carry your headers", req.URL.Redacted())
		}
		if checkRedirect != nil {
			return checkRedirect(req, via)
		}
		return nil
	}
	hc.Transport = &credentialTransport{base: hc.Transport, origin: origin, header: h}
	return hc, nil
}

// credentialTransport adds the caller's headers to requests to origin.
type credentialTransport struct {
	base   http.RoundTripper
	origin *url.URL
	header http.Header
}

func (t *credentialTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !SameOrigin(req.URL, t.origin) || len(t.header) == 0 {
		return t.base.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	for k, vs := range t.header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return t.base.RoundTrip(req)
}

// redactedError is an error whose text had the caller's header values
// taken out (a server may echo a credential in an error message).
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// SecretsOf is what of a header value is secret: the value, and the token
// alone without its scheme ("Bearer abc" -> "abc"), each when at least
// min bytes long (shorter text would match by chance).
func SecretsOf(value string, min int) []string {
	var out []string
	if len(value) >= min {
		out = append(out, value)
	}
	if _, tok, ok := strings.Cut(value, " "); ok && len(tok) >= min {
		out = append(out, tok)
	}
	return out
}

// RedactHeaders removes the values of h from err's text.
func RedactHeaders(err error, h http.Header) error {
	if err == nil {
		return nil
	}
	msg := RedactText(err.Error(), h)
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg, err}
}

// RedactText removes the values of h from s.
func RedactText(s string, h http.Header) string {
	for _, vs := range h {
		for _, v := range vs {
			for _, sec := range SecretsOf(v, 4) {
				s = strings.ReplaceAll(s, sec, "[header value]")
			}
		}
	}
	return s
}
