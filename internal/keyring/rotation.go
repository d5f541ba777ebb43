package keyring

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/agentcards/agentcards/internal/regular"
)

// RotationFile is the committed file, in the keys folder, that records
// each key's place in a rotation. A key with no entry is active.
const RotationFile = "rotation.toml"

// Key states.
const (
	// StateNext: published in the JWKS ahead of a rotation; does not sign.
	StateNext = "next"
	// StateActive: signs every card.
	StateActive = "active"
	// StateRetired: no longer signs, still published until cards signed
	// with it have left every cache; then it is dropped.
	StateRetired = "retired"
	// StateDropped: removed from the keys folder and the JWKS (kept
	// here so that a build given its PEM can say so).
	StateDropped = "dropped"
)

// RetiredKeepDays is how long a retired key stays in the JWKS: cards are
// served with max-age 300 s, but clients and registries keep copies of
// cards far longer, so a week leaves a wide margin.
const RetiredKeepDays = 7

// Entry is one key's rotation state.
type Entry struct {
	KID   string `toml:"kid"`
	State string `toml:"state"`
	Since string `toml:"since"` // YYYY-MM-DD, when it entered the state
}

// Rotation is the content of keys/rotation.toml.
type Rotation struct {
	Keys []Entry `toml:"keys"`
	path string
}

// LoadRotation reads keysDir/rotation.toml (an absent file is empty).
func LoadRotation(keysDir string) (*Rotation, error) {
	r := &Rotation{path: filepath.Join(keysDir, RotationFile)}
	data, err := regular.ReadFile(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	md, err := toml.Decode(string(data), r)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", r.path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s", r.path, und[0])
	}
	for i, e := range r.Keys {
		if !slices.Contains([]string{StateNext, StateActive, StateRetired, StateDropped}, e.State) {
			return nil, fmt.Errorf("%s: keys[%d] (kid %s): state %q is not next, active, retired or dropped", r.path, i, e.KID, e.State)
		}
		if _, err := time.Parse(time.DateOnly, e.Since); err != nil {
			return nil, fmt.Errorf("%s: keys[%d] (kid %s): since %q is not a date such as 2026-01-31", r.path, i, e.KID, e.Since)
		}
	}
	return r, nil
}

// State returns kid's state (active when it has no entry) and since when.
func (r *Rotation) State(kid string) (state, since string) {
	for _, e := range r.Keys {
		if e.KID == kid {
			return e.State, e.Since
		}
	}
	return StateActive, ""
}

// Set records kid's new state as of today.
func (r *Rotation) Set(kid, state string, today time.Time) {
	day := today.Format(time.DateOnly)
	for i := range r.Keys {
		if r.Keys[i].KID == kid {
			r.Keys[i].State, r.Keys[i].Since = state, day
			return
		}
	}
	r.Keys = append(r.Keys, Entry{KID: kid, State: state, Since: day})
}

// Remove forgets kid.
func (r *Rotation) Remove(kid string) {
	r.Keys = slices.DeleteFunc(r.Keys, func(e Entry) bool { return e.KID == kid })
}

// Save writes the file (or removes it when no key has an entry).
func (r *Rotation) Save() error {
	if len(r.Keys) == 0 {
		err := os.Remove(r.path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var b bytes.Buffer
	b.WriteString("# Key rotation states, kept by `agentcards keys`. A key of the folder with\n")
	b.WriteString("# no entry here is active. next: published, not signing. active: signing.\n")
	b.WriteString("# retired: published, not signing, dropped after a week (README, \"Key rotation\").\n")
	b.WriteString("# dropped: gone from the folder and the JWKS; a build given its PEM says so.\n\n")
	if err := toml.NewEncoder(&b).Encode(r); err != nil {
		return err
	}
	return os.WriteFile(r.path, b.Bytes(), 0o644)
}

// Overdue lists the retired keys kept longer than RetiredKeepDays.
func (r *Rotation) Overdue(today time.Time) []string {
	var out []string
	for _, e := range r.Keys {
		if e.State != StateRetired {
			continue
		}
		since, _ := time.Parse(time.DateOnly, e.Since)
		if days := int(today.Sub(since).Hours() / 24); days > RetiredKeepDays {
			out = append(out, fmt.Sprintf("key %s was retired %d days ago (more than %d): cached cards have expired, so drop it: agentcards keys drop %s", e.KID, days, RetiredKeepDays, e.KID))
		}
	}
	return out
}

// Describe is a one-line summary of the states.
func (r *Rotation) Describe() string {
	var parts []string
	for _, e := range r.Keys {
		parts = append(parts, e.KID+"="+e.State)
	}
	return strings.Join(parts, ", ")
}
