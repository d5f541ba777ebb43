package fetch

import (
	"fmt"
	"net"
	"strings"
	"sync"
)

// Pins is the network policy of one run: for each origin (host and port)
// it keeps the network (public, private, loopback ...) of the address
// that first answered there, and every later connection to that origin,
// in any fetch made with a Client that shares the Pins, must reach an
// address of that same network. A name that answered a public address
// first cannot lead a later fetch (a card's JWKS, an agent's interface, a
// catalog's entries) to a private one by answering it next (DNS
// rebinding), nor a private name to a public one. Only a connection made
// pins: an address merely tried does not. The refusal names neither the
// address that answered nor its network.
//
// The zero value is an empty policy; a Pins is safe for concurrent use. It
// only grows: each origin it has seen stays pinned for its life (a run,
// or a long-lived Verifier's life).
type Pins struct {
	mu sync.Mutex
	by map[string]addrClass // by origin, "host:port" in lower case
}

// check refuses a connection to origin that reaches an address of class
// c when origin first answered from another network. A nil Pins allows
// everything.
func (p *Pins) check(origin string, c addrClass) error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if first, ok := p.by[origin]; ok && first != c {
		return &refusal{origin: origin, rebound: true}
	}
	return nil
}

// pin records c as origin's network when it has none yet, and refuses c
// when it has another (two first connections at once that reached
// different networks: the later one loses).
func (p *Pins) pin(origin string, c addrClass) error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if first, ok := p.by[origin]; ok {
		if first != c {
			return &refusal{origin: origin, rebound: true}
		}
		return nil
	}
	if p.by == nil {
		p.by = map[string]addrClass{}
	}
	p.by[origin] = c
	return nil
}

// originOf is the key of the origin a connection to addr ("host:port",
// as the HTTP transport dials it) is made for.
func originOf(addr string) string {
	host, port, err := net.SplitHostPort(strings.ToLower(addr))
	if err != nil {
		return strings.ToLower(addr)
	}
	// "rebind.test." is the name "rebind.test" (DNS takes both alike):
	// one origin, one pin.
	return net.JoinHostPort(strings.TrimSuffix(host, "."), port)
}

// refusal is a connection refused once its name had resolved, at dial
// time. Its text names neither the address that answered nor that
// address's network: an error may reach whoever controls the name, and
// what answered where tells what a private network holds.
type refusal struct {
	origin  string // "host:port" as asked for
	rebound bool   // the origin first answered from another network
	// from is the network of the origin whose redirects or documents led
	// here, when not rebound.
	from addrClass
}

func (e *refusal) Error() string {
	if e.rebound {
		return fmt.Sprintf("refused: %s answered from another network than before in this run", e.origin)
	}
	return fmt.Sprintf("refused: %s answered from an address that redirects from %s origin, like the URLs its documents name, may not reach (they may lead only to %s)", e.origin, e.from, allowedFrom(e.from))
}

// Unwrap makes a refusal errRefused.
func (e *refusal) Unwrap() error { return errRefused }

// ForRun is the client of one run: c itself when it has Pins, or else a
// copy of c (of the zero Client when c is nil) with Pins of its own.
func (c *Client) ForRun() *Client {
	if c != nil && c.Pins != nil {
		return c
	}
	run := &Client{}
	if c != nil {
		*run = *c
	}
	run.Pins = &Pins{}
	return run
}
