package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/terminal"
	"github.com/agentcards/agentcards/internal/trust"
)

// FetchOptions steer Fetch.
type FetchOptions struct {
	// Client fetches the card and the JWKS, under its network policy
	// (give one Client with Pins to every fetch of a run). The card's URL
	// is the caller's own choice: loopback over http is allowed, as
	// `verify` allows a URL named on the command line.
	Client *fetch.Client
	// Pinned, when not nil, is the text of the JWKS to verify with,
	// instead of the one at the card's origin (KeysPinned).
	Pinned []byte
	// Within is the network rule of where the URL came from (as
	// fetch.Client.GetWithin takes it): nil for a URL named on the command
	// line, which may lead anywhere (loopback over http too);
	// fetch.PublicNetwork() for one a file records, which anyone may have
	// written, so that it leads only to public addresses. The JWKS of the
	// card's origin is held to the same rule.
	Within *fetch.Network
	// AllowUnsigned takes a card that carries no signature at all,
	// recorded as such (KeysNone). A card with signatures is verified all
	// the same.
	AllowUnsigned bool
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// ErrFetch is a remote card that could not be taken: unreachable, too
// big or deep, unsigned, or not verified by the keys it was checked with.
var ErrFetch = errors.New("remote card refused")

// Fetch gets the card at rawURL (an origin alone means its
// /.well-known/agent-card.json), reads it strictly, verifies it with the
// JWKS of that origin (never of a redirect's) or o.Pinned, and returns its
// snapshot (New). Nothing but the card and the JWKS is recorded: no
// request header is ever sent but the User-Agent and Accept.
func Fetch(ctx context.Context, rawURL string, o FetchOptions) (*Snapshot, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || !u.IsAbs() {
		return nil, fmt.Errorf("%w: %q is not an absolute URL", ErrFetch, terminal.Escape(redact(rawURL)))
	}
	if f, ok := secret.InURLs(rawURL); ok {
		return nil, fmt.Errorf("%w: the URL carries a credential (%s); a snapshot records the URL it was taken from, and remote fetch sends no credentials: give the card's public URL", ErrFetch, f.Kind)
	}
	u = trust.CardURL(u)
	u.Fragment = ""
	cardURL := u.String()
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	client := o.Client
	if client == nil {
		client = &fetch.Client{Pins: &fetch.Pins{}}
	}
	body, _, _, err := client.GetWithin(ctx, cardURL, o.Within)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFetch, err)
	}
	fetchedAt := now()
	head, err := card.Decode(body, card.Strict)
	if err != nil {
		if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '<' {
			return nil, fmt.Errorf("%w: %s is an HTML page, not a card: give the card's URL (.../.well-known/agent-card.json) or the origin alone", ErrFetch, terminal.Escape(cardURL))
		}
		return nil, fmt.Errorf("%w: the card at %s: %v", ErrFetch, terminal.Escape(cardURL), err)
	}
	if _, signed := head["signatures"]; !signed {
		if !o.AllowUnsigned {
			return nil, fmt.Errorf("%w: the card at %s carries no signature (take it unsigned on purpose with -allow-unsigned, which the snapshot records)", ErrFetch, terminal.Escape(cardURL))
		}
		return newSnapshot(cardURL, fetchedAt, body, "", nil, KeysNone)
	}
	source, jwksURL, jwks := KeysPinned, "", o.Pinned
	from := "the pinned JWKS"
	if o.Pinned == nil {
		source, jwksURL = KeysFromOrigin, trust.OriginJWKS(u)
		from = "the JWKS at " + jwksURL
		if jwks, _, _, err = client.GetWithin(ctx, jwksURL, o.Within); err != nil {
			return nil, fmt.Errorf("%w: the card's keys: %w", ErrFetch, err)
		}
	}
	if err := judge(head, jwks, jwksURL, from); err != nil {
		return nil, fmt.Errorf("%w: the card at %s %v", ErrFetch, terminal.Escape(cardURL), err)
	}
	return newSnapshot(cardURL, fetchedAt, body, jwksURL, jwks, source)
}

// Refetch fetches the card of s again, from its URL and with the keys it
// was taken with: its origin's JWKS as it is now, the same pinned JWKS
// (which is what pinning means), or none for a card taken unsigned (which,
// signed since, is verified with its origin's JWKS). within is the
// network rule of the snapshot's URL (FetchOptions.Within).
func Refetch(ctx context.Context, s *Snapshot, client *fetch.Client, within *fetch.Network) (*Snapshot, error) {
	o := FetchOptions{Client: client, Within: within}
	switch s.Verification.KeySource {
	case KeysPinned:
		o.Pinned = []byte(s.JWKS)
	case KeysNone:
		o.AllowUnsigned = true
	}
	return Fetch(ctx, s.URL, o)
}

// judge verifies the card head (as card.Decode read it) with the JWKS text
// jwks (from jwksURL, "" when pinned; from names it in errors), and says
// why not in words that follow "the card at URL".
func judge(head map[string]any, jwks []byte, jwksURL, from string) error {
	ks, err := trust.NewKeys(jwks, from, jwksURL)
	if err != nil {
		return fmt.Errorf("cannot be checked: %s: %v", from, err)
	}
	if len(ks.Leaked) > 0 {
		return fmt.Errorf("cannot be checked: %s publishes a private key, so none of it can be trusted (its owner must rotate that key)", from)
	}
	// Judge takes the signatures out of head, which is not used after.
	v := trust.Judge(head, ks, trust.Policy{})
	if v.Verified {
		return nil
	}
	why := "no signature verified"
	if errors.Is(v.Err, sign.ErrUnsigned) {
		why = "its signatures member holds no signature"
	} else if len(v.Problems) > 0 {
		why = v.Problems[0]
	}
	for _, r := range v.Results {
		if r.Err != nil {
			why = fmt.Sprintf("signature %q: %v", r.KID, r.Err)
			break
		}
	}
	return fmt.Errorf("does not verify with %s: %s", from, terminal.Escape(why))
}

// newSnapshot makes the snapshot (New) and holds it to the size Read
// accepts.
func newSnapshot(cardURL string, at time.Time, body []byte, jwksURL string, jwks []byte, source string) (*Snapshot, error) {
	s, err := New(cardURL, at, body, jwksURL, jwks, source)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFetch, err)
	}
	if b, err := json.MarshalIndent(s, "", "  "); err != nil {
		return nil, err
	} else if len(b)+1 > MaxSnapshotBytes {
		return nil, fmt.Errorf("%w: the card and its JWKS make a snapshot of %d bytes, more than the %d a snapshot may hold", ErrFetch, len(b)+1, MaxSnapshotBytes)
	}
	return s, nil
}

// redact is rawURL without a password, when it parses.
func redact(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		return u.Redacted()
	}
	return "URL"
}
