package keyring

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentcards/agentcards/internal/sign"
)

// Folder is a keys folder: the committed public keys, one JWK per file,
// and its rotation.toml, which says where each key stands in a rotation.
// Its methods are the steps of a rotation; each enforces its rules and
// saves rotation.toml:
//
//	Next     a new key, published ahead of its use: it does not sign yet
//	Promote  next -> active: it signs, beside the key it replaces
//	Retire   active -> retired: it stops signing and stays published
//	Drop     retired -> dropped: gone from the folder and the JWKS, a week later
type Folder struct {
	// Dir is the folder.
	Dir string
	// Keys are its public keys.
	Keys *sign.KeySet
	// Rotation is its rotation.toml.
	Rotation *Rotation
}

// OpenFolder reads the keys folder dir and its rotation.toml. A folder
// that does not exist holds no keys.
func OpenFolder(dir string) (*Folder, error) {
	keys, err := sign.LoadKeySet(dir)
	if err != nil {
		return nil, err
	}
	rot, err := LoadRotation(dir)
	if err != nil {
		return nil, err
	}
	return &Folder{Dir: dir, Keys: keys, Rotation: rot}, nil
}

// KeyState is one public key of a folder and its place in the rotation.
type KeyState struct {
	KID string
	Alg string
	// State is StateNext, StateActive or StateRetired.
	State string
	// Since is the day (YYYY-MM-DD) the key entered State; "" for a key
	// that rotation.toml does not name, which is active.
	Since string
}

// List is every public key of the folder, by kid, with its state.
func (f *Folder) List() []KeyState {
	out := make([]KeyState, 0, len(f.Keys.Keys))
	for _, k := range f.Keys.Keys {
		state, since := f.Rotation.State(k.KeyID)
		out = append(out, KeyState{KID: k.KeyID, Alg: k.Algorithm, State: state, Since: since})
	}
	return out
}

// Resolve is the kid of the one key of the folder whose kid is arg or
// starts with it.
func (f *Folder) Resolve(arg string) (string, error) {
	if f.Keys.Find(arg) != nil {
		return arg, nil
	}
	var matches []string
	for _, k := range f.Keys.Keys {
		if strings.HasPrefix(k.KeyID, arg) {
			matches = append(matches, k.KeyID)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", fmt.Errorf("no key %s in %s (agentcards keys list shows them)", arg, f.Dir)
	}
	return "", fmt.Errorf("%s starts %d kids (%s): give more of it", arg, len(matches), strings.Join(matches, ", "))
}

// resolveIn is Resolve for a step that applies only to a key in state
// want.
func (f *Folder) resolveIn(arg, want string) (string, error) {
	kid, err := f.Resolve(arg)
	if err != nil {
		return "", err
	}
	if state, _ := f.Rotation.State(kid); state != want {
		return "", fmt.Errorf("key %s is %s, not %s", kid, state, want)
	}
	return kid, nil
}

// others are the keys of the folder other than kid that are in state.
func (f *Folder) others(kid, state string) []string {
	var out []string
	for _, k := range f.Keys.Keys {
		if s, _ := f.Rotation.State(k.KeyID); s == state && k.KeyID != kid {
			out = append(out, k.KeyID)
		}
	}
	return out
}

// NewKey is a next key that Next made.
type NewKey struct {
	KID string
	Alg string
	// Public is the file of its public JWK, in the folder.
	Public string
	// Private is the file of its private key (PEM).
	Private string
}

// AlgError is an algorithm that Next does not know: the caller's
// mistake, not the folder's.
type AlgError struct{ Err error }

// Error is the underlying error's message.
func (e *AlgError) Error() string { return e.Err.Error() }

// Unwrap is the underlying error.
func (e *AlgError) Unwrap() error { return e.Err }

// Next makes the next key, of the algorithm alg (a name that
// sign.NormalizeAlg reads, such as Ed25519): it writes the private key
// (WritePrivateKey, to privateOut or by default), adds the public JWK to
// the folder, and records the key as next as of today, so that the JWKS
// publishes it before it signs.
//
// The folder must exist (a build publishes the one key it is given while
// there is none, and a folder holding only the next key would leave the
// current one out), and it may hold one next key at a time. A public key
// that cannot be written takes the private one with it.
func (f *Folder) Next(alg, privateOut string, today time.Time) (*NewKey, error) {
	if _, err := os.Lstat(f.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("there is no keys folder (%s) yet: publish the current key's public half first (write its PEM to a file, run `agentcards keygen -from FILE`, commit %s), then make the next key", f.Dir, f.Dir)
	}
	for _, k := range f.Keys.Keys {
		if state, _ := f.Rotation.State(k.KeyID); state == StateNext {
			return nil, fmt.Errorf("key %s is already the next key: promote it before making another", k.KeyID)
		}
	}
	alg, err := sign.NormalizeAlg(alg)
	if err != nil {
		return nil, &AlgError{err}
	}
	key, err := sign.GenerateKey(alg)
	if err != nil {
		return nil, err
	}
	pub, err := sign.PublicJWK(key.Public(), alg)
	if err != nil {
		return nil, err
	}
	private, err := WritePrivateKey(key, pub.KeyID, privateOut)
	if err != nil {
		return nil, err
	}
	public, err := sign.WritePublicJWK(f.Dir, pub)
	if err != nil {
		os.Remove(private)
		return nil, err
	}
	f.Keys.Add(pub)
	f.Rotation.Set(pub.KeyID, StateNext, today)
	if err := f.Rotation.Save(); err != nil {
		return nil, err
	}
	return &NewKey{KID: pub.KeyID, Alg: alg, Public: public, Private: private}, nil
}

// Promote makes the next key arg (its kid, or the start of it) active as
// of today: from then on every build given its private key signs with it.
// It returns the key's kid and the other active keys, which it replaces:
// each is to be retired once the new signatures are live.
func (f *Folder) Promote(arg string, today time.Time) (kid string, replaced []string, err error) {
	if kid, err = f.resolveIn(arg, StateNext); err != nil {
		return "", nil, err
	}
	f.Rotation.Set(kid, StateActive, today)
	if err := f.Rotation.Save(); err != nil {
		return "", nil, err
	}
	return kid, f.others(kid, StateActive), nil
}

// Retire retires the active key arg (its kid, or the start of it) as of
// today: it no longer signs, and stays in the JWKS until the cards signed
// with it have left every cache. The only active key cannot be retired:
// its successor must be promoted first. It returns the key's kid.
func (f *Folder) Retire(arg string, today time.Time) (string, error) {
	kid, err := f.resolveIn(arg, StateActive)
	if err != nil {
		return "", err
	}
	if len(f.others(kid, StateActive)) == 0 {
		return "", fmt.Errorf("key %s is the only active key: promote its successor first (agentcards keys next, then promote)", kid)
	}
	f.Rotation.Set(kid, StateRetired, today)
	if err := f.Rotation.Save(); err != nil {
		return "", err
	}
	return kid, nil
}

// Drop removes the retired key arg (its kid, or the start of it) from the
// folder, and so from the JWKS, and records it as dropped as of today. A
// key retired less than RetiredKeepDays ago is kept, unless force is set:
// cards it signed may still be cached. It returns the key's kid.
func (f *Folder) Drop(arg string, force bool, today time.Time) (string, error) {
	kid, err := f.resolveIn(arg, StateRetired)
	if err != nil {
		return "", err
	}
	_, since := f.Rotation.State(kid)
	day, _ := time.Parse(time.DateOnly, since)
	if days := int(today.Sub(day).Hours() / 24); days < RetiredKeepDays && !force {
		return "", fmt.Errorf("key %s was retired %s ago; cards signed with it may still be cached for up to %d days (use -force to drop it anyway)", kid, countDays(days), RetiredKeepDays)
	}
	if err := os.Remove(filepath.Join(f.Dir, kid+".json")); err != nil {
		return "", err
	}
	f.Keys.Keys = slices.DeleteFunc(f.Keys.Keys, func(k jose.JSONWebKey) bool { return k.KeyID == kid })
	f.Rotation.Set(kid, StateDropped, today)
	if err := f.Rotation.Save(); err != nil {
		return "", err
	}
	return kid, nil
}

// countDays is "1 day" or "n days".
func countDays(n int) string {
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}
