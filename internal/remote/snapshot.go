// Package remote keeps snapshots of other people's A2A agent cards, for a
// gateway that publishes them under its own URLs ([[remoteAgents]]): the
// exact bytes fetched, the JWKS that verified them, where and when they
// came from. A build works from the snapshot alone and checks it again;
// nothing secret (request headers, tokens) is ever part of one.
package remote

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/atomicfile"
	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/trust"
)

// Format is the snapshotFormat of the snapshots this package writes and
// reads.
const Format = "agentcards-remote-snapshot/1"

// MaxSnapshotBytes is the largest snapshot file read.
const MaxSnapshotBytes = 4 << 20

// Key sources, for Verification.KeySource.
const (
	KeysFromOrigin = "origin" // the JWKS at the card's origin, /.well-known/jwks.json
	KeysPinned     = "pinned" // a JWKS given on the command line
	KeysNone       = "none"   // an unsigned card, taken on purpose
)

// Snapshot is one remote agent card as fetched.
type Snapshot struct {
	SnapshotFormat string `json:"snapshotFormat"`
	// URL is the card's URL, as fetched (after no redirect: the URL asked
	// for).
	URL       string    `json:"url"`
	FetchedAt time.Time `json:"fetchedAt"`
	// Card is the exact text fetched; CardSHA256 its digest in hex.
	Card       string `json:"card"`
	CardSHA256 string `json:"cardSha256"`
	// JWKSURL is where JWKS came from ("" when pinned or unsigned); JWKS
	// is its exact text ("" when unsigned).
	JWKSURL      string       `json:"jwksUrl,omitempty"`
	JWKS         string       `json:"jwks,omitempty"`
	Verification Verification `json:"verification"`
}

// Verification is what was found when the snapshot was taken, and what
// Check finds again.
type Verification struct {
	// Result is trust's outcome (trust.OutcomeVerified, ...), or
	// "unsigned" for a card taken unsigned on purpose.
	Result    string `json:"result"`
	KeySource string `json:"keySource"`
	// KIDs are the key ids whose signatures verified, in card order.
	KIDs []string `json:"kids,omitempty"`
}

// ResultUnsigned is the Verification.Result of a card taken unsigned.
const ResultUnsigned = "unsigned"

// ErrSnapshot is a snapshot that cannot be used: unreadable, edited, or
// whose card no longer verifies with its own JWKS.
var ErrSnapshot = errors.New("unusable remote snapshot")

// New makes a snapshot of cardText fetched from url, verified with the
// JWKS text jwksText from jwksURL (keySource says which kind), and checks
// it as Check does. With keySource KeysNone, jwksText must be empty and
// the card is recorded unsigned.
func New(url string, fetchedAt time.Time, cardText []byte, jwksURL string, jwksText []byte, keySource string) (*Snapshot, error) {
	sum := sha256.Sum256(cardText)
	s := &Snapshot{
		SnapshotFormat: Format, URL: url, FetchedAt: fetchedAt.UTC().Truncate(time.Second),
		Card: string(cardText), CardSHA256: hex.EncodeToString(sum[:]),
		JWKSURL: jwksURL, JWKS: string(jwksText),
		Verification: Verification{KeySource: keySource},
	}
	v, err := s.verify()
	if err != nil {
		return nil, err
	}
	s.Verification = v
	return s, nil
}

// Read reads and checks the snapshot file path (Check).
func Read(path string) (*Snapshot, error) {
	b, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	var s Snapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrSnapshot, err)
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// readLimited reads the snapshot file path as the manifest reads MCP
// snapshots (regular.ReadFile: a regular file, never through a symbolic
// link, never a named pipe that would wait), of at most MaxSnapshotBytes.
func readLimited(path string) ([]byte, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() && st.Size() > MaxSnapshotBytes {
		return nil, fmt.Errorf("%s: %w: %d bytes, more than %d", path, ErrSnapshot, st.Size(), MaxSnapshotBytes)
	}
	b, err := regular.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSnapshotBytes {
		return nil, fmt.Errorf("%s: %w: more than %d bytes", path, ErrSnapshot, MaxSnapshotBytes)
	}
	return b, nil
}

// Check holds the snapshot to itself: its format, its card's digest, and
// its card's signatures against its own JWKS, which must find what the
// snapshot says was found (the same result, key source and kids). A card
// recorded unsigned must carry no JWKS.
func (s *Snapshot) Check() error {
	if s.SnapshotFormat != Format {
		return fmt.Errorf("%w: snapshotFormat %q, want %q", ErrSnapshot, s.SnapshotFormat, Format)
	}
	sum := sha256.Sum256([]byte(s.Card))
	if hex.EncodeToString(sum[:]) != s.CardSHA256 {
		return fmt.Errorf("%w: the card's SHA-256 is not cardSha256: the snapshot was edited; fetch it again with `agentcards remote fetch`", ErrSnapshot)
	}
	if err := s.checkURLs(); err != nil {
		return err
	}
	v, err := s.verify()
	if err != nil {
		return err
	}
	if v.Result != s.Verification.Result || v.KeySource != s.Verification.KeySource || !slices.Equal(v.KIDs, s.Verification.KIDs) {
		return fmt.Errorf("%w: its card now checks as %s (keys %v), but the snapshot says %s (keys %v): the snapshot was edited; fetch it again", ErrSnapshot, v.Result, v.KIDs, s.Verification.Result, s.Verification.KIDs)
	}
	return nil
}

// checkURLs holds the URLs a snapshot records to each other, as Fetch
// records them: the card's URL is an absolute http(s) URL without user
// information, and the JWKS of a card verified with its origin's keys is
// that origin's, so that the card's URL (which the gateway's card and page
// publish as where the owner's card lives) cannot be changed to another
// origin's without the keys that verified it.
func (s *Snapshot) checkURLs() error {
	u, err := url.Parse(s.URL)
	if err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil {
		return fmt.Errorf("%w: url %q is not the absolute http(s) URL of a card", ErrSnapshot, s.URL)
	}
	switch want := trust.OriginJWKS(u); {
	case s.Verification.KeySource == KeysFromOrigin && s.JWKSURL != want:
		return fmt.Errorf("%w: jwksUrl %q is not the JWKS of the card's origin, %s: the snapshot was edited; fetch it again", ErrSnapshot, s.JWKSURL, want)
	case s.Verification.KeySource == KeysPinned && s.JWKSURL != "":
		return fmt.Errorf("%w: a card verified with a pinned JWKS has a jwksUrl: the snapshot was edited; fetch it again", ErrSnapshot)
	}
	return nil
}

// verify checks the card against the snapshot's JWKS and returns what it
// found; a card that does not verify (or, recorded unsigned, carries a
// JWKS) is an error.
func (s *Snapshot) verify() (Verification, error) {
	v := Verification{KeySource: s.Verification.KeySource}
	if !utf8.ValidString(s.Card) {
		return v, fmt.Errorf("%w: the card is not UTF-8", ErrSnapshot)
	}
	head, err := card.Decode([]byte(s.Card), card.Strict)
	if err != nil {
		return v, fmt.Errorf("%w: the card: %v", ErrSnapshot, err)
	}
	switch s.Verification.KeySource {
	case KeysNone:
		if s.JWKS != "" || s.JWKSURL != "" {
			return v, fmt.Errorf("%w: a card taken unsigned carries a JWKS", ErrSnapshot)
		}
		v.Result = ResultUnsigned
		return v, nil
	case KeysFromOrigin, KeysPinned:
	default:
		return v, fmt.Errorf("%w: keySource %q: want %q, %q or %q", ErrSnapshot, s.Verification.KeySource, KeysFromOrigin, KeysPinned, KeysNone)
	}
	ks, err := trust.NewKeys([]byte(s.JWKS), "the snapshot's JWKS", s.JWKSURL)
	if err != nil {
		return v, fmt.Errorf("%w: its JWKS: %v", ErrSnapshot, err)
	}
	if len(ks.Leaked) > 0 {
		return v, fmt.Errorf("%w: %s", ErrSnapshot, ks.Leaked[0])
	}
	verdict := trust.Judge(head, ks, trust.Policy{})
	if !verdict.Verified {
		why := "no signature verified"
		if len(verdict.Problems) > 0 {
			why = verdict.Problems[0]
		}
		for _, r := range verdict.Results {
			if r.Err != nil {
				why = r.Err.Error()
				break
			}
		}
		return v, fmt.Errorf("%w: the card does not verify with the JWKS it was fetched with: %s", ErrSnapshot, why)
	}
	v.Result = verdict.Outcome
	for _, r := range verdict.Results {
		if r.Verified {
			v.KIDs = append(v.KIDs, r.KID)
		}
	}
	return v, nil
}

// Write writes s to path as indented JSON, replacing the file all at once
// (atomicfile).
func (s *Snapshot) Write(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o644)
}
