// Package fetch gets small JSON documents (cards, JWKS) over HTTP with the
// hygiene a verifier needs: https only (plain http only on loopback), a
// timeout, a body size limit, no user info in URLs, few redirects, never
// to http nor from a public origin to a loopback, private or link-local
// address, each origin held to the network its first answer came from for
// the whole run (Pins), and an honest User-Agent.
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
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/agentcards/agentcards/internal/terminal"
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
	// Pins, when set, is the network policy of the run (see Pins): every
	// fetch made with a Client that shares it keeps each origin on the
	// network it first answered from. When nil, each fetch (or each
	// client HTTPClient returns) keeps its own.
	Pins *Pins
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
	// StatusCode is the HTTP status of a response other than 200 OK, and
	// 0 when the request got no answer or the answer was refused.
	StatusCode int
}

// Error says which URL failed and why, escaped for a terminal: the why may
// hold a server's text (a certificate's names, a status line).
func (e *Error) Error() string {
	return fmt.Sprintf("fetch %s: %s", terminal.Escape(e.URL), terminal.Escape(e.Err.Error()))
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// CheckURL reports whether u may be fetched: https, or http to a loopback
// host, and never with user info (which Go's client would send as Basic
// authentication).
func CheckURL(u *url.URL) error {
	if u.User != nil {
		return errors.New("the URL carries user info (user@ or user:password@): refused; credentials never belong in a URL")
	}
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
	body, final, _, err := c.get(ctx, rawURL, nil)
	return body, final, err
}

// Network is the kind of network a fetch reached (public, private,
// loopback ...), which bounds where the URLs its document names may lead.
type Network struct{ class addrClass }

// String names the network ("" for nil: no rule).
func (n *Network) String() string {
	if n == nil {
		return ""
	}
	return n.class.String()
}

// PublicNetwork is the rule of a document that no fetch of this run
// served, which anyone may have written (a catalog file, say): handed to
// GetWithin as the network of that document, it holds every URL the
// document names to the rule of a public origin's documents, from the
// first connection: public addresses only.
func PublicNetwork() *Network { return &Network{class: classPublic} }

// IsRefused reports whether err is a fetch the network policy refused
// (an address or a redirect the rule does not allow, an origin that
// answered from another network than before), before any request was
// sent there.
func IsRefused(err error) bool { return errors.Is(err, errRefused) }

// GetWithin fetches rawURL as Get does, from a document fetched from the
// network from (nil: the caller's own choice): every connection, the first
// one too, is held to the rule a redirect from that document would be (a
// public catalog may not send the fetches of its entries to loopback,
// private or link-local addresses). It returns the network reached.
func (c *Client) GetWithin(ctx context.Context, rawURL string, from *Network) ([]byte, *url.URL, *Network, error) {
	return c.get(ctx, rawURL, from)
}

func (c *Client) get(ctx context.Context, rawURL string, from *Network) ([]byte, *url.URL, *Network, error) {
	u, err := fetchable(rawURL)
	if err != nil {
		return nil, nil, nil, err
	}
	rawURL = u.Redacted() // errors never repeat a password
	hc, policy, redirected := c.client(u, from)
	defer hc.CloseIdleConnections()
	if from != nil {
		// A literal address the document named is refused before any
		// connection.
		if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
			if err := policy.check(ip); err != nil {
				return nil, nil, nil, &Error{URL: rawURL, Err: err}
			}
		}
	}
	// The network a document was served from is the one of the connection
	// that gave the final response (the last one got), whatever the
	// network of the document that named it: a public catalog nested in a
	// local one is still public, and so are the URLs it names.
	var servedMu sync.Mutex
	var served netip.Addr
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		if ap, err := netip.ParseAddrPort(info.Conn.RemoteAddr().String()); err == nil {
			servedMu.Lock()
			served = ap.Addr().Unmap()
			servedMu.Unlock()
		}
	}})
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, nil, &Error{URL: rawURL, Err: err}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "application/json, application/a2a-agent-card+json;q=0.9, */*;q=0.1")
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, errRefused) && *redirected != nil {
			err = fmt.Errorf("redirect to %s: %w", (*redirected).Redacted(), err)
		}
		return nil, nil, nil, &Error{URL: rawURL, Err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, nil, nil, &Error{URL: rawURL, Err: fmt.Errorf("HTTP %s", resp.Status), StatusCode: resp.StatusCode}
	}
	maxBytes := c.maxBytes()
	if resp.ContentLength > maxBytes {
		return nil, nil, nil, &Error{URL: rawURL, Err: fmt.Errorf("body of %d bytes is over the %d-byte limit", resp.ContentLength, maxBytes)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return nil, nil, nil, &Error{URL: rawURL, Err: err}
	}
	if int64(len(body)) > maxBytes {
		return nil, nil, nil, &Error{URL: rawURL, Err: fmt.Errorf("body is over the %d-byte limit", maxBytes)}
	}
	servedMu.Lock()
	defer servedMu.Unlock()
	if !served.IsValid() {
		return nil, nil, nil, &Error{URL: rawURL, Err: errors.New("the address that answered is unknown")}
	}
	return body, resp.Request.URL, &Network{classify(served)}, nil
}

// fetchable parses rawURL and checks it may be fetched (CheckURL); the
// error is an *Error that never repeats a password.
func fetchable(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, &Error{URL: "URL", Err: errors.New("not an absolute URL")}
	}
	if err := CheckURL(u); err != nil {
		return nil, &Error{URL: u.Redacted(), Err: err}
	}
	return u, nil
}

// maxBytes is the body size limit in force.
func (c *Client) maxBytes() int64 {
	if c.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return c.MaxBytes
}

// client is the HTTP client of one fetch of u: a timeout on each request,
// connections and redirects held to the address policy (from, when set,
// is the network of the document that named u), at most MaxRedirects
// redirects and never from https to http. The last redirect followed is
// kept in *redirected, for errors.
func (c *Client) client(u *url.URL, from *Network) (*http.Client, *addressPolicy, **url.URL) {
	timeout, maxRedirects := c.Timeout, c.MaxRedirects
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if maxRedirects <= 0 {
		maxRedirects = DefaultMaxRedirects
	}
	policy := &addressPolicy{pins: c.Pins}
	if policy.pins == nil {
		policy.pins = &Pins{}
	}
	if from != nil {
		policy.setOrigin(from.class)
	} else if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
		policy.setOrigin(classify(ip))
	} else if IsLoopback(u.Hostname()) {
		policy.setOrigin(classLoopback)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // a verifier talks to the site itself
	tr.DialContext = policy.dialer(timeout)
	if c.RootCAs != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: c.RootCAs, MinVersion: tls.VersionTLS12}
	}
	redirected := new(*url.URL)
	hc := &http.Client{
		Timeout:   timeout,
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			if err := CheckURL(req.URL); err != nil {
				return fmt.Errorf("redirect to %s: %v", req.URL.Redacted(), err)
			}
			if via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect from https to %s refused", req.URL.Redacted())
			}
			// Literal addresses are refused here, before any connection;
			// names (localhost too) when they are dialled.
			if ip, err := netip.ParseAddr(req.URL.Hostname()); err == nil {
				if err := policy.check(ip); err != nil {
					return fmt.Errorf("redirect to %s: %v", req.URL.Redacted(), err)
				}
			}
			*redirected = req.URL
			return nil
		},
	}
	return hc, policy, redirected
}

// HTTPClient is an *http.Client for a protocol client that talks to
// rawURL (an MCP server, say) with the hygiene of Get: rawURL must pass
// CheckURL; every request has the timeout, connections and redirects
// follow the same address policy and limits, every response body is cut
// off with an error past MaxBytes, and the User-Agent is set.
func (c *Client) HTTPClient(rawURL string) (*http.Client, error) {
	return c.httpClient(rawURL, nil)
}

// httpClient is HTTPClient held to the network rule of a document fetched
// from from (nil: none), as GetWithin is.
func (c *Client) httpClient(rawURL string, from *Network) (*http.Client, error) {
	u, err := fetchable(rawURL)
	if err != nil {
		return nil, err
	}
	hc, _, _ := c.client(u, from)
	hc.Transport = &limitTransport{base: hc.Transport, max: c.maxBytes()}
	return hc, nil
}

// limitTransport sets the User-Agent and limits response bodies.
type limitTransport struct {
	base http.RoundTripper
	max  int64
}

func (t *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("User-Agent", UserAgent)
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, fmt.Errorf("response of %d bytes is over the %d-byte limit", resp.ContentLength, t.max)
	}
	resp.Body = &limitedBody{rc: resp.Body, left: t.max}
	return resp, nil
}

// limitedBody fails a read past its limit rather than cut the body short
// in silence.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errOverLimit
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, errOverLimit
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// errOverLimit is a response body over the size limit.
var errOverLimit = errors.New("response body is over the size limit")

// addrClass is the kind of network an address is on.
type addrClass int

const (
	classPublic addrClass = iota
	classPrivate
	classLoopback
	classUnspecified // 0.0.0.0/8 and ::, which reach this host
	classLinkLocal
	classMulticast
)

func (c addrClass) String() string {
	return [...]string{"a public", "a private", "a loopback", "an unspecified", "a link-local", "a multicast"}[c]
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	cgnat     = netip.MustParsePrefix("100.64.0.0/10")
	thisNet   = netip.MustParsePrefix("0.0.0.0/8")
	siteLocal = netip.MustParsePrefix("fec0::/10")
	// Special-purpose and reserved ranges that are no public host either:
	// IETF protocol assignments, benchmarking, reserved (240/4), and the
	// cloud hosts' platform addresses (Azure's wireserver).
	specialV4 = []netip.Prefix{netip.MustParsePrefix("192.0.0.0/24"), netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("240.0.0.0/4"), netip.MustParsePrefix("168.63.129.16/32")}
	// IPv6 forms that embed an IPv4 address: in their last 32 bits
	// (IPv4-compatible, IPv4-translated, local NAT64), at bits 16-47
	// (6to4), or bitwise inverted in their last 32 bits (Teredo's client).
	compatible = netip.MustParsePrefix("::/96")
	translated = netip.MustParsePrefix("::ffff:0:0:0/96")
	nat64Local = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	teredo     = netip.MustParsePrefix("2001::/32")
)

// classifyAddr says what network an address is on, looking through IPv6
// zones and every IPv6 form that embeds an IPv4 address (IPv4-mapped,
// IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo): such an address
// is classed by its IPv4 address. :: and ::1 stay the IPv6 unspecified and
// loopback addresses.
func classifyAddr(a netip.Addr) addrClass {
	a = a.WithZone("").Unmap()
	switch b := a.As16(); {
	case a.Is4(), a == netip.IPv6Unspecified(), a == netip.IPv6Loopback():
	case nat64Local.Contains(a):
		// RFC 8215's local-use prefix may embed the IPv4 address at any
		// of RFC 6052's lengths, so where it sits is a local choice: a
		// local network, whatever it maps to.
		return classPrivate
	case compatible.Contains(a), translated.Contains(a), nat64.Contains(a), isatap(b):
		a = netip.AddrFrom4([4]byte(b[12:]))
	case sixToFour.Contains(a):
		a = netip.AddrFrom4([4]byte(b[2:6]))
	case teredo.Contains(a):
		a = netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
	}
	for _, p := range specialV4 {
		if p.Contains(a) {
			return classPrivate
		}
	}
	switch {
	case a.IsLoopback():
		return classLoopback
	case a.IsUnspecified(), thisNet.Contains(a):
		return classUnspecified
	case a.IsMulticast():
		return classMulticast
	case a.IsLinkLocalUnicast():
		return classLinkLocal
	case a.IsPrivate(), cgnat.Contains(a), siteLocal.Contains(a):
		return classPrivate
	}
	return classPublic
}

// isatap reports an ISATAP address (RFC 5214): interface identifier
// 0:5efe or 200:5efe followed by the IPv4 address of the tunnel's end.
func isatap(b [16]byte) bool {
	return (b[8] == 0 || b[8] == 2) && b[9] == 0 && b[10] == 0x5e && b[11] == 0xfe
}

// classify is classifyAddr; tests replace it to give loopback addresses
// the roles of public and private ones.
var classify = classifyAddr

// resolver looks up names for connections; nil is the system's. Tests
// set one that reads the hosts file and never asks a DNS server.
var resolver *net.Resolver

// errRefused marks a connection the address policy refused.
var errRefused = errors.New("refused")

// addressPolicy keeps redirects from a public origin away from loopback,
// unspecified, private, link-local and multicast addresses (SSRF): the
// origin is a literal address or "localhost" as the caller wrote it, or
// else the address the first connection reached; every later connection
// must pass it. An origin on this host (loopback or unspecified) may lead
// anywhere (a local test setup); a private origin may lead to private
// addresses (an intranet site moving within the intranet). Every
// connection must also keep its own origin on the network pins has for it.
type addressPolicy struct {
	mu     sync.Mutex
	origin addrClass
	known  bool
	pins   *Pins // the run's (nil: none)
}

func (p *addressPolicy) setOrigin(c addrClass) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.known {
		p.origin, p.known = c, true
	}
}

// dialer returns a DialContext that checks every address it connects to.
// Control runs for each address a name resolved to, before any packet
// leaves: the address must be on the network the run's pins hold for the
// origin dialled, and pass the rule of this fetch. Until a first
// connection succeeds, every address may be tried as far as the rule
// goes: that connection is to the origin the caller chose, and the
// address it reached sets the rule (an address that was only tried does
// not: a name listing 127.0.0.1 first must not make a public origin count
// as local), and pins the origin when it was not yet. Every later
// connection (a redirect, or the origin again after its name resolved
// anew) must pass both. A refusal at this point names neither the address
// nor its network (refusal).
func (p *addressPolicy) dialer(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		origin := originOf(addr)
		d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Resolver: resolver}
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return err
			}
			return p.allow(origin, ap.Addr())
		}
		conn, err := d.DialContext(ctx, network, addr)
		if r := (*refusal)(nil); errors.As(err, &r) {
			return nil, r // not the *net.OpError, which names the address
		}
		if err != nil {
			return nil, err
		}
		ap, err := netip.ParseAddrPort(conn.RemoteAddr().String())
		if err != nil {
			conn.Close()
			return nil, err
		}
		c := classify(ap.Addr())
		if err := p.pins.pin(origin, c); err != nil {
			conn.Close()
			return nil, err
		}
		p.setOrigin(c)
		return conn, nil
	}
}

// allow is the check of a connection to origin at a, once origin's host
// resolved to a: the run's pin first, then the rule of this fetch. When
// the host is a name, a refusal does not say what it resolved to; when it
// is the literal address a, it may (check).
func (p *addressPolicy) allow(origin string, a netip.Addr) error {
	c := classify(a)
	if err := p.pins.check(origin, c); err != nil {
		return err
	}
	ok, from := p.allows(c)
	if ok {
		return nil
	}
	if host, _, err := net.SplitHostPort(origin); err == nil {
		if lit, err := netip.ParseAddr(host); err == nil && lit.WithZone("").Unmap() == a.WithZone("").Unmap() {
			return p.check(a)
		}
	}
	return &refusal{origin: origin, from: from}
}

// allows reports whether the rule allows a connection to an address of
// class c, and the class of the origin that sets it.
func (p *addressPolicy) allows(c addrClass) (bool, addrClass) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case !p.known: // the origin, not reached yet
		return true, c
	case p.origin == classLoopback, p.origin == classUnspecified: // a local setup
		return true, p.origin
	case c == classPublic, c == classPrivate && p.origin == classPrivate:
		return true, p.origin
	}
	return false, p.origin
}

// check allows a connection to the literal address a (as a URL wrote
// it), or says why not.
func (p *addressPolicy) check(a netip.Addr) error {
	c := classify(a)
	if ok, from := p.allows(c); !ok {
		return fmt.Errorf("%w: %s is %s address, and redirects from %s origin, like the URLs its documents name, may lead only to %s", errRefused, a, c, from, allowedFrom(from))
	}
	return nil
}

// allowedFrom says where an origin of class from may lead.
func allowedFrom(from addrClass) string {
	if from == classPrivate {
		return "private or public addresses"
	}
	return "public addresses"
}
