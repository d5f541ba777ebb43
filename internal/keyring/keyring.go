// Package keyring decides which keys a build signs with: the private keys
// given (files, $AGENTCARDS_SIGNING_KEY), each matched to its public half in
// the keys folder, or else the development key. It also keeps the keys
// folder through a rotation (Folder: next, promote, retire, drop), whose
// rules it enforces and records in rotation.toml.
package keyring

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/agentcards/agentcards/internal/sign"
)

// Private is a private key and where it came from.
type Private struct {
	Key  crypto.Signer
	From string
	// Dev says its PEM is marked as a development key (sign.IsDevPEM).
	Dev bool
}

// Read loads the private keys from files and from the PEM in envValue
// (the content of $AGENTCARDS_SIGNING_KEY), once per key.
func Read(files []string, envValue string) ([]Private, error) {
	var out []Private
	seen := map[string]bool{}
	add := func(from string, data []byte) error {
		keys, err := sign.ParsePrivatePEM(data)
		if err != nil {
			return fmt.Errorf("signing key from %s: %v", from, err)
		}
		dev := sign.IsDevPEM(data)
		for _, k := range keys {
			kid, err := sign.Thumbprint(k.Public())
			if err != nil {
				return err
			}
			if !seen[kid] {
				seen[kid] = true
				out = append(out, Private{k, from, dev})
			}
		}
		return nil
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := add(f, data); err != nil {
			return nil, err
		}
	}
	if envValue != "" {
		if err := add("$"+sign.EnvSigningKey, []byte(envValue)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WritePrivateKey writes key, whose kid is kid, as PEM to out, or by
// default to the git-ignored .agentcards/signing-key-<kid12>.pem (<kid12>
// the kid's first 12 characters), and returns where it went. It never
// overwrites a file.
func WritePrivateKey(key crypto.Signer, kid, out string) (string, error) {
	path := out
	if path == "" {
		var err error
		if path, err = LocalKeyPath(".", kid); err != nil {
			return "", err
		}
	}
	pemBytes, err := sign.EncodePrivatePEM(key)
	if err != nil {
		return "", err
	}
	if err := sign.WriteNewFile(path, pemBytes, 0o600); err != nil {
		return "", fmt.Errorf("writing the private key: %v", err)
	}
	return path, nil
}

// Ring is the published key set and the signers of one build.
type Ring struct {
	Keys    *sign.KeySet
	Signers []*sign.Signer
	// DevKey is the development key's path when the build signs with it.
	DevKey     string
	DevCreated bool
	// Found are the key files in .agentcards/ the build signs with, no
	// key having been given (LocalKeyPath).
	Found []string
	// Notes are keys given that do not sign (next, retired).
	Notes []string
	// Warnings are retired keys overdue for dropping.
	Warnings []string
	// Private is every private key this build holds, signing or not (the
	// development key included): the output is scanned for all of them.
	Private []crypto.Signer
}

// ErrDevKeyRefused is returned when no key is given and the development
// key is not allowed (CI).
var ErrDevKeyRefused = errors.New("no signing key, and the development key is refused here")

// Options says where a build's keys come from.
type Options struct {
	// KeysDir is the folder of committed public keys.
	KeysDir string
	// KeysNamed is set when the manifest names KeysDir (site.keys): then
	// it must exist.
	KeysNamed bool
	// DevDir is where the development key is kept.
	DevDir string
	// Private are the private keys given.
	Private []Private
	// JKU is the JWKS URL every signature names.
	JKU string
	// AllowDev allows, when no private key is given, the keys kept in
	// DevDir's .agentcards/ (LocalKeyPath) and else the development key:
	// never under CI, where the key comes from the secret.
	AllowDev bool
}

// Open loads the keys folder and makes a signer for each private key (its
// alg from its public JWK; a key without one is an error). With no private
// key, when o.AllowDev is set, it signs with the active keys keygen left
// in o.DevDir's .agentcards/ (Ring.Found), or else with the development
// key kept there.
//
// A keys folder that does not exist (and that the manifest does not name)
// is a project that has not committed its keys yet, such as a new
// repository with only agents.toml: the one private key given then
// publishes its own public half, with the default alg of its type
// (DefaultAlg), and a warning says how to commit it; several keys there
// are an error. A development key given as a signing key is refused.
func Open(o Options) (*Ring, error) {
	keysDir, privs := o.KeysDir, o.Private
	st, statErr := os.Lstat(keysDir)
	absent := errors.Is(statErr, fs.ErrNotExist)
	if absent && o.KeysNamed {
		return nil, fmt.Errorf("site.keys names the keys folder %s, which does not exist: create it with `agentcards keygen`, or fix site.keys", keysDir)
	}
	if statErr == nil && st.Mode().IsRegular() {
		return nil, fmt.Errorf("keys folder %s is a file, not a folder: it should hold one public JWK per file (agentcards keygen writes them)", keysDir)
	}
	if err := refuseDevKeys(privs, o.DevDir); err != nil {
		return nil, err
	}
	if absent && len(privs) > 1 {
		return nil, fmt.Errorf("there is no keys folder (%s), and %d signing keys were given: a key publishes its own public half only when it is the one key; several keys are a rotation, which the keys folder records. Publish each key's public half (write each PEM to its own file, run `agentcards keygen -from FILE`) and commit %s", keysDir, len(privs), keysDir)
	}
	keys, err := sign.LoadKeySet(keysDir)
	if err != nil {
		return nil, fmt.Errorf("keys folder: %v", err)
	}
	rot, err := loadRotationOf(keysDir, keys)
	if err != nil {
		return nil, err
	}
	r := &Ring{Keys: keys, Warnings: rot.Overdue(time.Now())}
	if len(privs) == 0 {
		if o.AllowDev {
			if found, err := r.useLocal(o, keys, rot); found || err != nil {
				return r, err
			}
		}
		if err := r.useDevKey(o); err != nil {
			return nil, err
		}
		return r, nil
	}
	for _, p := range privs {
		r.Private = append(r.Private, p.Key)
	}
	var derived []string
	for _, p := range privs {
		kid, err := sign.Thumbprint(p.Key.Public())
		if err != nil {
			return nil, err
		}
		pub := keys.Find(kid)
		if pub == nil && absent {
			alg := DefaultAlg(p.Key.Public())
			jwk, err := sign.PublicJWK(p.Key.Public(), alg)
			if err != nil {
				return nil, fmt.Errorf("signing key %s (from %s): %v", kid, p.From, err)
			}
			keys.Add(jwk)
			pub = keys.Find(kid)
			derived = append(derived, fmt.Sprintf("%s (%s, from %s)", kid, alg, p.From))
		}
		if state, since := rot.State(kid); pub == nil && state == StateDropped {
			stop := "stop passing -key " + p.From
			if strings.HasPrefix(p.From, "$") {
				stop = "remove its PEM from the secret (" + p.From + ")"
			}
			r.Warnings = append(r.Warnings, fmt.Sprintf("key %s (from %s) was dropped on %s: it no longer signs; %s", kid, p.From, since, stop))
			continue
		}
		if pub == nil {
			how := "run `agentcards keygen -from " + p.From + " -alg ALG` to add it, and commit it"
			if strings.HasPrefix(p.From, "$") {
				how = "write the PEM to a file and run `agentcards keygen -from FILE -alg ALG` to add it, and commit it"
			}
			return nil, fmt.Errorf("signing key %s (from %s) has no public half in %s: %s", kid, p.From, keysDir, how)
		}
		switch state, _ := rot.State(kid); state {
		case StateNext:
			r.Notes = append(r.Notes, fmt.Sprintf("key %s (from %s) is the next key: published in the JWKS, not signing until `agentcards keys promote %s`", kid, p.From, kid))
			continue
		case StateRetired:
			r.Notes = append(r.Notes, fmt.Sprintf("key %s (from %s) is retired: it no longer signs; remove it from the secret", kid, p.From))
			continue
		}
		s, err := sign.NewSigner(p.Key, pub.Algorithm, o.JKU)
		if err != nil {
			return nil, fmt.Errorf("signing key %s (from %s): %v", kid, p.From, err)
		}
		r.Signers = append(r.Signers, s)
	}
	if len(derived) > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("there is no keys folder (%s), so the JWKS publishes the public half of the signing key given: %s. Commit it to pin the published keys (a secret holding another key then fails the build) and to rotate them: write the PEM to a file, run `agentcards keygen -from FILE`, and commit %s (README, \"Signing keys\")", keysDir, strings.Join(derived, "; "), keysDir))
	}
	if len(r.Signers) == 0 {
		if len(r.Warnings) > 0 {
			return nil, fmt.Errorf("%s\nnone of the signing keys given is active (%s): give the active key's PEM (agentcards keys list shows which it is), or promote one with `agentcards keys promote KID`", strings.Join(r.Warnings, "\n"), rot.Describe())
		}
		return nil, fmt.Errorf("none of the signing keys given is active (%s): give the active key's PEM (agentcards keys list shows which key is active); a next key signs only after `agentcards keys promote KID`", rot.Describe())
	}
	return r, nil
}

// loadRotationOf reads the rotation.toml of keysDir, whose public keys
// are keys: it may name no other key, but for dropped ones.
func loadRotationOf(keysDir string, keys *sign.KeySet) (*Rotation, error) {
	rot, err := LoadRotation(keysDir)
	if err != nil {
		return nil, err
	}
	for _, e := range rot.Keys {
		if keys.Find(e.KID) == nil && e.State != StateDropped {
			return nil, fmt.Errorf("%s names kid %s, which has no public JWK in %s", RotationFile, e.KID, keysDir)
		}
	}
	return rot, nil
}

// useDevKey makes r sign with the development key kept in o.DevDir (made
// when there is none yet), and publish its public half, when o allows it.
func (r *Ring) useDevKey(o Options) error {
	if !o.AllowDev {
		return ErrDevKeyRefused
	}
	key, path, created, err := sign.DevKey(o.DevDir)
	if err != nil {
		return fmt.Errorf("development key: %v", err)
	}
	s, err := sign.NewDevSigner(key, o.JKU)
	if err != nil {
		return err
	}
	r.Keys.Add(s.Public)
	r.Signers, r.DevKey, r.DevCreated = []*sign.Signer{s}, path, created
	r.Private = append(r.Private, key)
	return nil
}

// refuseDevKeys refuses a development key given as a signing key: one
// whose PEM is marked as such, or the project's own development key
// (made before keys were marked).
func refuseDevKeys(privs []Private, devDir string) error {
	for _, p := range privs {
		if p.Dev || sign.IsProjectDevKey(devDir, p.Key) {
			return fmt.Errorf("the signing key from %s is an agentcards development key: it signs local builds when no key is given, and never a published site. Make a real key with `agentcards keygen` (README, \"Signing keys\")", p.From)
		}
	}
	return nil
}

// DefaultAlg is the JWS alg a key signs with when no public JWK says
// otherwise: EdDSA for Ed25519, ES256 for P-256, RS256 for RSA (the one
// every JOSE library and A2A SDK verifies).
func DefaultAlg(pub crypto.PublicKey) string {
	switch pub.(type) {
	case *ecdsa.PublicKey:
		return sign.ES256
	case *rsa.PublicKey:
		return sign.RS256
	}
	return sign.EdDSA
}
