// Package fetchtest helps tests play DNS rebinding on this host alone: a
// DNS server in the test process whose answers for one name change from
// one query to the next, and twin TLS servers on 127.0.0.2 and 127.0.0.3
// (the public and private addresses of fetch.SetTestNetwork) at the same
// port. Nothing here sends a packet off this host. For tests only.
package fetchtest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// Public and Private are the addresses fetch.SetTestNetwork gives the
// roles of a public and a private address.
const (
	Public  = "127.0.0.2"
	Private = "127.0.0.3"
)

// DNS answers A queries for one name with the addresses given, in turn:
// the i-th query gets the i-th address, and every query after the last
// address gets the last (a name rebound with TTL 0). AAAA queries get no
// record; other names do not exist.
type DNS struct {
	name    string // fully qualified, lower case
	answers []netip.Addr
	mu      sync.Mutex
	asked   int
}

// NewDNS returns a DNS for name that answers the addresses in turn.
func NewDNS(name string, answers ...string) *DNS {
	d := &DNS{name: strings.ToLower(strings.TrimSuffix(name, ".")) + "."}
	for _, a := range answers {
		d.answers = append(d.answers, netip.MustParseAddr(a))
	}
	return d
}

// Asked is how many A queries for the name were answered.
func (d *DNS) Asked() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.asked
}

// Resolver is a resolver that asks d and nothing else.
func (d *DNS) Resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe() // a stream: DNS over TCP framing
		go d.serve(server)
		return client, nil
	}}
}

// serve answers the queries on one connection.
func (d *DNS) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	for {
		var n [2]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return
		}
		q := make([]byte, binary.BigEndian.Uint16(n[:]))
		if _, err := io.ReadFull(c, q); err != nil {
			return
		}
		a, err := d.answer(q)
		if err != nil {
			return
		}
		c.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(a))), a...))
	}
}

// answer is the response to the query q.
func (d *DNS) answer(q []byte) ([]byte, error) {
	var m dnsmessage.Message
	if err := m.Unpack(q); err != nil {
		return nil, err
	}
	if len(m.Questions) != 1 {
		return nil, errors.New("one question expected")
	}
	qu := m.Questions[0]
	resp := dnsmessage.Message{
		Header:    dnsmessage.Header{ID: m.ID, Response: true, Authoritative: true, RecursionDesired: m.RecursionDesired, RecursionAvailable: true},
		Questions: m.Questions,
	}
	switch {
	case strings.ToLower(qu.Name.String()) != d.name:
		resp.RCode = dnsmessage.RCodeNameError
	case qu.Type == dnsmessage.TypeA:
		d.mu.Lock()
		a := d.answers[min(d.asked, len(d.answers)-1)]
		d.asked++
		d.mu.Unlock()
		resp.Answers = []dnsmessage.Resource{{
			Header: dnsmessage.ResourceHeader{Name: qu.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET, TTL: 0},
			Body:   &dnsmessage.AResource{A: a.As4()},
		}}
	}
	return resp.Pack()
}

// Cert makes a self-signed certificate for the names and for 127.0.0.1-3,
// and a pool that trusts it.
func Cert(t testing.TB, names ...string) (*tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "agentcards rebinding test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              names,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv4(127, 0, 0, 2), net.IPv4(127, 0, 0, 3)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// Server is one of the twins, counting what reaches it.
type Server struct {
	Conns atomic.Int32 // connections accepted
	Hits  atomic.Int32 // HTTP requests
}

// Twins starts h over TLS with cert on Public and on Private, at the same
// port (a name that resolves to either reaches the same URL), and returns
// the port and the two servers. It skips the test when it cannot listen
// there.
func Twins(t testing.TB, h http.Handler, cert *tls.Certificate) (port string, public, private *Server) {
	t.Helper()
	for range 20 {
		lnPub, err := net.Listen("tcp", Public+":0")
		if err != nil {
			t.Skipf("cannot listen on %s: %v", Public, err)
		}
		_, port, _ = net.SplitHostPort(lnPub.Addr().String())
		lnPriv, err := net.Listen("tcp", net.JoinHostPort(Private, port))
		if err != nil {
			lnPub.Close()
			continue // the port is taken there: another
		}
		return port, serve(t, lnPub, h, cert), serve(t, lnPriv, h, cert)
	}
	t.Skipf("no port free on both %s and %s", Public, Private)
	return "", nil, nil
}

func serve(t testing.TB, ln net.Listener, h http.Handler, cert *tls.Certificate) *Server {
	s := &Server{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.Conns.Add(1)
		}
	}
	srv.Listener.Close()
	srv.Listener = ln
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{*cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return s
}
