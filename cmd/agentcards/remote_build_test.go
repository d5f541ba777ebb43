package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentcards/agentcards/internal/remote"
	"github.com/agentcards/agentcards/internal/sign"
)

// snapshotTime is the fetchedAt of every snapshot remotesnapshot makes,
// so that builds from them are reproducible.
var snapshotTime = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// cmdRemoteSnapshot implements
//
//	remotesnapshot [-unsigned|-unchecked] [-pad N] [-alg ALG] [-card FILE] [-jwks FILE] CARD URL OUT
//
// It signs the card file CARD with the published test key of ALG
// (testdata/keys/test-<alg>.pem, default es256: not the key the
// scenarios' sites sign with; jku the JWKS at URL's origin), and writes the
// snapshot of it, as fetched from URL, to OUT, as `agentcards remote
// fetch` would; with -unsigned the card is taken unsigned, as is. With
// -card it also writes the card as signed (the snapshot's card) to FILE,
// with -jwks the snapshot's JWKS. With -unchecked the card is recorded
// unsigned without any check (remote.New would refuse what the scenario
// wants the build to refuse), and -pad N first adds N bytes to the end of
// its description.
func cmdRemoteSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! remotesnapshot")
	}
	const usage = "usage: remotesnapshot [-unsigned|-unchecked] [-pad N] [-alg ALG] [-card FILE] [-jwks FILE] CARD URL OUT"
	unsigned, unchecked, pad, alg, cardOut, jwksOut := false, false, 0, "es256", "", ""
	for len(args) > 3 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-unsigned":
			unsigned, args = true, args[1:]
		case "-unchecked":
			unchecked, args = true, args[1:]
		case "-pad":
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			pad, args = n, args[2:]
		case "-alg":
			alg, args = args[1], args[2:]
		case "-card":
			cardOut, args = args[1], args[2:]
		case "-jwks":
			jwksOut, args = args[1], args[2:]
		default:
			ts.Fatalf(usage)
		}
	}
	if len(args) != 3 {
		ts.Fatalf(usage)
	}
	text := []byte(ts.ReadFile(args[0]))
	if pad > 0 {
		text = bytes.Replace(text, []byte(`","version"`), []byte(strings.Repeat(" ", pad)+`","version"`), 1)
	}
	var snap *remote.Snapshot
	var err error
	switch {
	case unchecked:
		sum := sha256.Sum256(text)
		snap = &remote.Snapshot{SnapshotFormat: remote.Format, URL: args[1], FetchedAt: snapshotTime, Card: string(text), CardSHA256: hex.EncodeToString(sum[:]),
			Verification: remote.Verification{Result: remote.ResultUnsigned, KeySource: remote.KeysNone}}
	case unsigned:
		snap, err = remote.New(args[1], snapshotTime, text, "", nil, remote.KeysNone)
	default:
		u, perr := url.Parse(args[1])
		ts.Check(perr)
		jwksURL := u.Scheme + "://" + u.Host + "/.well-known/jwks.json"
		cardText, jwks := signWithTestKey(ts, text, alg, jwksURL)
		snap, err = remote.New(args[1], snapshotTime, cardText, jwksURL, jwks, remote.KeysFromOrigin)
	}
	ts.Check(err)
	ts.Check(snap.Write(ts.MkAbs(args[2])))
	if cardOut != "" {
		ts.Check(os.WriteFile(ts.MkAbs(cardOut), []byte(snap.Card), 0o644))
	}
	if jwksOut != "" {
		ts.Check(os.WriteFile(ts.MkAbs(jwksOut), []byte(snap.JWKS), 0o644))
	}
}

// signWithTestKey signs the card text with the test key of alg and
// returns the signed card and that key's JWKS.
func signWithTestKey(ts *testscript.TestScript, text []byte, alg, jku string) (cardText, jwks []byte) {
	_, file, _, _ := runtime.Caller(0)
	pemBytes, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "keys", "test-"+alg+".pem"))
	ts.Check(err)
	keys, err := sign.ParsePrivatePEM(pemBytes)
	ts.Check(err)
	name, err := sign.NormalizeAlg(alg)
	ts.Check(err)
	key := keys[0]
	s, err := sign.NewSigner(key, name, jku)
	ts.Check(err)
	sig, err := s.Sign(text)
	ts.Check(err)
	var doc map[string]any
	ts.Check(json.Unmarshal(text, &doc))
	doc["signatures"] = []any{sig}
	cardText, err = json.Marshal(doc)
	ts.Check(err)
	jwk, err := sign.PublicJWK(key.Public(), name)
	ts.Check(err)
	set := &sign.KeySet{}
	set.Add(jwk)
	jwks, err = set.JSON()
	ts.Check(err)
	return cardText, jwks
}
