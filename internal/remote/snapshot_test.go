package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const jwksURL = "https://partner.example.com/.well-known/jwks.json"

const unsigned = `{"name":"Partner","description":"d","version":"1","supportedInterfaces":[{"url":"https://partner.example.com/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"s","description":"d","tags":["t"]}]}`

// TestSnapshotRoundTrip: a snapshot written and read back checks, keeps
// the card's bytes, and records the kid that verified it.
func TestSnapshotRoundTrip(t *testing.T) {
	cardText, jwks := signedAt(t, unsigned, 1, jwksURL)
	s, err := New("https://partner.example.com/.well-known/agent-card.json", time.Now(), cardText, jwksURL, jwks, KeysFromOrigin)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Verification.KIDs) != 1 || s.Verification.Result != "verified" {
		t.Fatalf("verification %+v", s.Verification)
	}
	path := filepath.Join(t.TempDir(), "partner.json")
	if err := s.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Card != string(cardText) {
		t.Error("the card's bytes changed on the way through the file")
	}
}

// TestSnapshotRefusals: an edited card, a card that no longer verifies,
// a changed verification record, a JWKS on an unsigned card and an
// unsigned card without KeysNone are each refused.
func TestSnapshotRefusals(t *testing.T) {
	cardText, jwks := signedAt(t, unsigned, 1, jwksURL)
	_, otherJWKS := signedAt(t, unsigned, 2, jwksURL)
	good, err := New("https://partner.example.com/", time.Now(), cardText, jwksURL, jwks, KeysFromOrigin)
	if err != nil {
		t.Fatal(err)
	}
	edited := *good
	edited.Card = strings.Replace(good.Card, `"version":"1"`, `"version":"2"`, 1)
	resummed := edited // the digest made to match: the signature fails
	digest := sha256.Sum256([]byte(edited.Card))
	resummed.CardSHA256 = hex.EncodeToString(digest[:])
	recorded := *good
	recorded.Verification.KIDs = []string{"someone-else"}
	unsignedWithJWKS := *good
	unsignedWithJWKS.Verification = Verification{Result: ResultUnsigned, KeySource: KeysNone}
	for name, s := range map[string]*Snapshot{"edited": &edited, "resummed": &resummed, "kids": &recorded, "unsigned with a JWKS": &unsignedWithJWKS} {
		if err := s.Check(); !errors.Is(err, ErrSnapshot) {
			t.Errorf("%s: Check = %v, want ErrSnapshot", name, err)
		}
	}
	if _, err := New("x", time.Now(), []byte(unsigned), jwksURL, jwks, KeysFromOrigin); !errors.Is(err, ErrSnapshot) {
		t.Errorf("an unsigned card as signed: %v", err)
	}
	if _, err := New("x", time.Now(), cardText, jwksURL, otherJWKS, KeysPinned); !errors.Is(err, ErrSnapshot) {
		t.Errorf("a card with another JWKS: %v", err)
	}
	if s, err := New("x", time.Now(), []byte(unsigned), "", nil, KeysNone); err != nil || s.Verification.Result != ResultUnsigned {
		t.Errorf("an unsigned card taken on purpose: %v", err)
	}
}

// TestSnapshotURLsHeld: the card's URL of a snapshot verified with its
// origin's keys cannot be moved to another origin (where the gateway's
// page and card then say the owner's card lives) without the JWKS URL,
// which the signature's jku holds; nor be anything but an http(s) URL.
func TestSnapshotURLsHeld(t *testing.T) {
	cardText, jwks := signedAt(t, unsigned, 1, jwksURL)
	good, err := New("https://partner.example.com/.well-known/agent-card.json", time.Now(), cardText, jwksURL, jwks, KeysFromOrigin)
	if err != nil {
		t.Fatal(err)
	}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	moved := *good
	moved.URL = "https://bigbank.example/.well-known/agent-card.json"
	script := *good
	script.URL = "javascript:alert(1)"
	userinfo := *good
	userinfo.URL = "https://u:p@partner.example.com/.well-known/agent-card.json"
	pinned := *good
	pinned.Verification.KeySource = KeysPinned
	for name, s := range map[string]*Snapshot{"moved": &moved, "javascript": &script, "userinfo": &userinfo, "pinned with a jwksUrl": &pinned} {
		if err := s.Check(); !errors.Is(err, ErrSnapshot) {
			t.Errorf("%s: Check = %v, want ErrSnapshot", name, err)
		}
	}
	samePlace := *good
	samePlace.URL = "https://partner.example.com/agents/x/.well-known/agent-card.json"
	if err := samePlace.Check(); err != nil {
		t.Errorf("another card of the same origin: %v", err)
	}
}

// TestReadRefusesLinks: a snapshot is read as a regular file, never
// through a symbolic link (to a valid snapshot elsewhere, or to a file
// that is none).
func TestReadRefusesLinks(t *testing.T) {
	cardText, jwks := signedAt(t, unsigned, 1, jwksURL)
	s, err := New("https://partner.example.com/.well-known/agent-card.json", time.Now(), cardText, jwksURL, jwks, KeysFromOrigin)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	if err := s.Write(real); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if _, err := Read(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Read through a link: %v", err)
	}
	if _, err := Read(real); err != nil {
		t.Errorf("Read of the file itself: %v", err)
	}
}
