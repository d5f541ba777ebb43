package keyring_test

import (
	"crypto"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/sign"
)

// today is the day every test's rotation step happens on.
var today = day("2026-03-10")

// testFolder is a keys folder made for a test: the kid and the private
// key of each key by the name the test gives it.
type testFolder struct {
	*keyring.Folder
	kid  map[string]string
	priv map[string]crypto.Signer
}

// makeFolder makes a keys folder in a temporary directory with one
// Ed25519 key for each name in states, whose value is the key's rotation
// entry, "state YYYY-MM-DD", or "" for none (an active key): the public
// key is in the folder unless the key is dropped. It returns the folder as
// OpenFolder reads it.
func makeFolder(t *testing.T, states map[string]string) testFolder {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "keys")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rot, err := keyring.LoadRotation(dir)
	if err != nil {
		t.Fatal(err)
	}
	kids, privs := map[string]string{}, map[string]crypto.Signer{}
	for name, entry := range states {
		key, err := sign.GenerateKey(sign.EdDSA)
		if err != nil {
			t.Fatal(err)
		}
		pub, err := sign.PublicJWK(key.Public(), sign.EdDSA)
		if err != nil {
			t.Fatal(err)
		}
		kids[name], privs[name] = pub.KeyID, key
		state, since, ok := strings.Cut(entry, " ")
		if ok {
			rot.Set(pub.KeyID, state, day(since))
		}
		if state == keyring.StateDropped {
			continue // gone from the folder
		}
		if _, err := sign.WritePublicJWK(dir, pub); err != nil {
			t.Fatal(err)
		}
	}
	if err := rot.Save(); err != nil {
		t.Fatal(err)
	}
	f, err := keyring.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	return testFolder{f, kids, privs}
}

// arg is the kid of the key named name, "" for "", or else name itself
// (a kid no key has).
func (f testFolder) arg(name string) string {
	if kid, ok := f.kid[name]; ok {
		return kid
	}
	return name
}

// expand replaces each {name} in s with the kid of the key named name,
// and {dir} with the folder.
func (f testFolder) expand(s string) string {
	for name, kid := range f.kid {
		s = strings.ReplaceAll(s, "{"+name+"}", kid)
	}
	return strings.ReplaceAll(s, "{dir}", f.Dir)
}

// state is the key named name's state and since, as rotation.toml on
// disk records it.
func (f testFolder) state(t *testing.T, name string) string {
	t.Helper()
	rot, err := keyring.LoadRotation(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	state, since := rot.State(f.kid[name])
	return strings.TrimSpace(state + " " + since)
}

// checkErr fails the test unless err says want, or is nil when want is "".
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Fatalf("no error, want %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("error %q, want %q", err, want)
	}
}

// TestOpenFolder: a folder that does not exist holds no keys; a public
// key or a rotation.toml that does not read is an error.
func TestOpenFolder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string // nil: no folder at all
		keys  int
		err   string
	}{
		{name: "absent"},
		{name: "empty", files: map[string]string{}},
		{name: "bad rotation.toml", files: map[string]string{keyring.RotationFile: "[[keys]]\nkid = \"a\"\nstate = \"gone\"\nsince = \"2026-01-01\"\n"}, err: `state "gone" is not next, active, retired or dropped`},
		{name: "bad public key", files: map[string]string{"k.json": "{}"}, err: "k.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "keys")
			if tc.files != nil {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := keyring.OpenFolder(dir)
			checkErr(t, err, tc.err)
			if err == nil && (f.Dir != dir || len(f.List()) != tc.keys) {
				t.Errorf("OpenFolder = %s holding %d keys, want %s holding %d", f.Dir, len(f.List()), dir, tc.keys)
			}
		})
	}
}

// TestList: every key of the folder, by kid, with its algorithm, state
// and since; a key that rotation.toml does not name is active, since "".
func TestList(t *testing.T) {
	f := makeFolder(t, map[string]string{"plain": "", "new": "next 2026-03-01", "old": "retired 2026-02-01"})
	want := []keyring.KeyState{
		{KID: f.kid["plain"], Alg: sign.EdDSA, State: keyring.StateActive},
		{KID: f.kid["new"], Alg: sign.EdDSA, State: keyring.StateNext, Since: "2026-03-01"},
		{KID: f.kid["old"], Alg: sign.EdDSA, State: keyring.StateRetired, Since: "2026-02-01"},
	}
	slices.SortFunc(want, func(a, b keyring.KeyState) int { return strings.Compare(a.KID, b.KID) })
	if got := f.List(); !slices.Equal(got, want) {
		t.Errorf("List = %v,\nwant %v", got, want)
	}
}

// TestResolve: a kid names its key, and so does any start of it that no
// other kid shares; anything else is an error that says why.
func TestResolve(t *testing.T) {
	f := makeFolder(t, map[string]string{"a": "", "b": ""})
	for _, tc := range []struct {
		name, arg, want, err string
	}{
		{name: "kid", arg: f.kid["a"], want: f.kid["a"]},
		{name: "prefix", arg: f.kid["b"][:len(f.kid["b"])-1], want: f.kid["b"]},
		{name: "shared prefix", arg: "", err: " starts 2 kids ("},
		{name: "unknown", arg: "nosuchkid", err: "no key nosuchkid in " + f.Dir + " (agentcards keys list shows them)"},
		{name: "longer than a kid", arg: f.kid["a"] + "x", err: "no key " + f.kid["a"] + "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.Resolve(tc.arg)
			checkErr(t, err, tc.err)
			if got != tc.want {
				t.Errorf("Resolve(%q) = %q, want %q", tc.arg, got, tc.want)
			}
		})
	}
}

// TestNext: the next key is written (private and public halves) and
// recorded as next as of today, once the folder exists and no other key
// is next. An algorithm it does not know is an AlgError; a failure leaves
// nothing behind.
func TestNext(t *testing.T) {
	for _, tc := range []struct {
		name   string
		states map[string]string
		noDir  bool
		alg    string
		want   string // the new key's alg
		err    string
		algErr bool
	}{
		{name: "Ed25519 beside the current key", states: map[string]string{"cur": ""}, alg: "Ed25519", want: sign.EdDSA},
		{name: "ES256", states: map[string]string{"cur": ""}, alg: "es256", want: sign.ES256},
		{name: "default algorithm", states: map[string]string{}, alg: "", want: sign.EdDSA},
		{name: "after a rotation", states: map[string]string{"cur": "active 2026-01-01", "old": "retired 2026-01-01"}, alg: "Ed25519", want: sign.EdDSA},
		{name: "no keys folder", noDir: true, alg: "Ed25519", err: "there is no keys folder ({dir}) yet: publish the current key's public half first"},
		{name: "a next key pending", states: map[string]string{"cur": "", "new": "next 2026-03-01"}, alg: "Ed25519", err: "key {new} is already the next key: promote it before making another"},
		{name: "unknown algorithm", states: map[string]string{"cur": ""}, alg: "HS256", err: `unsupported algorithm "HS256"`, algErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := makeFolder(t, tc.states)
			if tc.noDir {
				if err := os.RemoveAll(f.Dir); err != nil {
					t.Fatal(err)
				}
			}
			private := filepath.Join(t.TempDir(), "next.pem")
			before := f.Rotation.Describe()
			k, err := f.Next(tc.alg, private, today)
			checkErr(t, err, f.expand(tc.err))
			if algErr := (*keyring.AlgError)(nil); errors.As(err, &algErr) != tc.algErr {
				t.Errorf("error %v is an AlgError: %v, want %v", err, !tc.algErr, tc.algErr)
			}
			if err != nil {
				if _, err := os.Stat(private); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("a failed Next left the private key behind: %v", err)
				}
				if after, err := keyring.LoadRotation(f.Dir); err != nil || after.Describe() != before {
					t.Errorf("a failed Next changed rotation.toml to %q (%v)", after.Describe(), err)
				}
				return
			}
			if k.Alg != tc.want || k.Private != private || k.Public != filepath.Join(f.Dir, k.KID+".json") {
				t.Errorf("Next = %+v", k)
			}
			f.kid["next"] = k.KID
			if got := f.state(t, "next"); got != "next 2026-03-10" {
				t.Errorf("the new key is %q, want next since 2026-03-10", got)
			}
			reopened, err := keyring.OpenFolder(f.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if pub := reopened.Keys.Find(k.KID); pub == nil || pub.Algorithm != tc.want || f.Keys.Find(k.KID) == nil {
				t.Errorf("the folder does not hold the new public key with alg %s", tc.want)
			}
			data, err := os.ReadFile(private)
			if err != nil {
				t.Fatal(err)
			}
			if keys, err := sign.ParsePrivatePEM(data); err != nil || len(keys) != 1 {
				t.Errorf("the private key file does not read: %v", err)
			}
		})
	}
}

// TestNextRollsBack: when the public key cannot be written, the private
// key just written is removed and rotation.toml is left alone; a private
// key that cannot be written stops Next before the public one is.
func TestNextRollsBack(t *testing.T) {
	tmp := t.TempDir()
	notDir := filepath.Join(tmp, "keys")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rot, err := keyring.LoadRotation(tmp)
	if err != nil {
		t.Fatal(err)
	}
	f := &keyring.Folder{Dir: notDir, Keys: &sign.KeySet{}, Rotation: rot}
	private := filepath.Join(tmp, "next.pem")
	if _, err := f.Next("Ed25519", private, today); err == nil {
		t.Fatal("Next wrote a public key into a file")
	}
	if _, err := os.Stat(private); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the private key outlives its public half: %v", err)
	}
	if len(rot.Keys) != 0 || len(f.Keys.Keys) != 0 {
		t.Errorf("a failed Next recorded %v, %d keys", rot.Keys, len(f.Keys.Keys))
	}

	g := makeFolder(t, map[string]string{"cur": ""})
	taken := filepath.Join(tmp, "taken.pem")
	if err := os.WriteFile(taken, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = g.Next("Ed25519", taken, today)
	checkErr(t, err, "writing the private key: ")
	if data, _ := os.ReadFile(taken); string(data) != "mine" {
		t.Errorf("Next overwrote %s", taken)
	}
	if entries, _ := os.ReadDir(g.Dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files after a failed Next, want 1", len(entries))
	}
}

// step is one rotation step a test takes.
type step func(f testFolder, arg string, force bool) (string, error)

var (
	promote step = func(f testFolder, arg string, _ bool) (string, error) {
		kid, _, err := f.Promote(arg, today)
		return kid, err
	}
	retire step = func(f testFolder, arg string, _ bool) (string, error) { return f.Retire(arg, today) }
	drop   step = func(f testFolder, arg string, force bool) (string, error) { return f.Drop(arg, force, today) }
)

// TestSteps: promote takes only a next key, retire only an active key
// that is not the last, drop only a key retired at least a week ago (or
// sooner, forced); each names its key by kid or a unique start of one and
// records the new state as of today. {name} in an error is that key's kid.
func TestSteps(t *testing.T) {
	for _, tc := range []struct {
		name   string
		states map[string]string
		step   step
		key    string // the key's name, or an argument no kid matches
		force  bool
		want   string // its state after the step
		err    string
	}{
		{name: "promote the next key", states: map[string]string{"old": "", "new": "next 2026-03-01"}, step: promote, key: "new", want: "active 2026-03-10"},
		{name: "promote an active key", states: map[string]string{"old": ""}, step: promote, key: "old", err: "key {old} is active, not next"},
		{name: "promote a retired key", states: map[string]string{"old": "retired 2026-01-01", "cur": ""}, step: promote, key: "old", err: "key {old} is retired, not next"},
		{name: "promote an unknown key", states: map[string]string{"old": ""}, step: promote, key: "zzz", err: "no key zzz in {dir}"},
		{name: "promote an ambiguous prefix", states: map[string]string{"a": "next 2026-03-01", "b": ""}, step: promote, key: "", err: " starts 2 kids"},

		{name: "retire beside another active key", states: map[string]string{"old": "", "new": "active 2026-03-05"}, step: retire, key: "old", want: "retired 2026-03-10"},
		{name: "retire the only active key", states: map[string]string{"old": "", "new": "next 2026-03-01", "gone": "retired 2026-01-01"}, step: retire, key: "old", err: "key {old} is the only active key: promote its successor first"},
		{name: "retire a next key", states: map[string]string{"old": "", "new": "next 2026-03-01"}, step: retire, key: "new", err: "key {new} is next, not active"},
		{name: "retire a retired key", states: map[string]string{"old": "retired 2026-03-01", "new": ""}, step: retire, key: "old", err: "key {old} is retired, not active"},
		{name: "retire an unknown key", states: map[string]string{"old": ""}, step: retire, key: "zzz", err: "no key zzz in {dir}"},

		{name: "drop after a week", states: map[string]string{"old": "retired 2026-03-03", "new": ""}, step: drop, key: "old", want: "dropped 2026-03-10"},
		{name: "drop long after", states: map[string]string{"old": "retired 2020-01-01", "new": ""}, step: drop, key: "old", want: "dropped 2026-03-10"},
		{name: "drop the same day", states: map[string]string{"old": "retired 2026-03-10", "new": ""}, step: drop, key: "old", err: "key {old} was retired 0 days ago; cards signed with it may still be cached for up to 7 days (use -force to drop it anyway)"},
		{name: "drop a day later", states: map[string]string{"old": "retired 2026-03-09", "new": ""}, step: drop, key: "old", err: "was retired 1 day ago;"},
		{name: "drop six days later", states: map[string]string{"old": "retired 2026-03-04", "new": ""}, step: drop, key: "old", err: "was retired 6 days ago;"},
		{name: "drop early, forced", states: map[string]string{"old": "retired 2026-03-10", "new": ""}, step: drop, key: "old", force: true, want: "dropped 2026-03-10"},
		{name: "drop an active key", states: map[string]string{"old": "", "new": ""}, step: drop, key: "old", force: true, err: "key {old} is active, not retired"},
		{name: "drop a next key", states: map[string]string{"old": "", "new": "next 2026-01-01"}, step: drop, key: "new", force: true, err: "key {new} is next, not retired"},
		{name: "drop an unknown key", states: map[string]string{"old": ""}, step: drop, key: "zzz", err: "no key zzz in {dir}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := makeFolder(t, tc.states)
			before := f.Rotation.Describe()
			arg := f.arg(tc.key)
			if tc.err == "" {
				arg = arg[:12] // a unique start of the kid names the key
			}
			kid, err := tc.step(f, arg, tc.force)
			checkErr(t, err, f.expand(tc.err))
			if err != nil {
				if after, err := keyring.LoadRotation(f.Dir); err != nil || after.Describe() != before {
					t.Errorf("a refused step changed rotation.toml to %q (%v)", after.Describe(), err)
				}
				return
			}
			if kid != f.kid[tc.key] {
				t.Errorf("the step names key %s, want %s", kid, f.kid[tc.key])
			}
			if got := f.state(t, tc.key); got != tc.want {
				t.Errorf("the key is %q, want %q", got, tc.want)
			}
			_, statErr := os.Stat(filepath.Join(f.Dir, kid+".json"))
			if dropped := tc.want == "dropped 2026-03-10"; dropped != errors.Is(statErr, fs.ErrNotExist) || dropped != (f.Keys.Find(kid) == nil) {
				t.Errorf("dropped: %v, but its public key file: %v, in Keys: %v", dropped, statErr, f.Keys.Find(kid) != nil)
			}
		})
	}
}

// TestPromoteReplaces: Promote lists the other active keys, which the
// new one replaces, whether rotation.toml names them or not.
func TestPromoteReplaces(t *testing.T) {
	f := makeFolder(t, map[string]string{"a": "", "b": "active 2026-01-01", "new": "next 2026-03-01", "old": "retired 2026-02-01"})
	kid, replaced, err := f.Promote(f.kid["new"], today)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{f.kid["a"], f.kid["b"]}
	slices.Sort(want)
	if kid != f.kid["new"] || !slices.Equal(replaced, want) {
		t.Errorf("Promote = %s, %v; want %s, %v", kid, replaced, f.kid["new"], want)
	}
}

// TestRotation: a whole rotation through one Folder, as `agentcards keys`
// takes it: next, promote, retire, and a week later drop; at each step the
// folder, read again, agrees.
func TestRotation(t *testing.T) {
	f := makeFolder(t, map[string]string{"old": ""})
	k, err := f.Next("ES256", filepath.Join(t.TempDir(), "new.pem"), today)
	if err != nil {
		t.Fatal(err)
	}
	f.kid["new"] = k.KID
	steps := []struct {
		do          func() error
		old, newKey string
	}{
		{func() error { return nil }, "active", "next 2026-03-10"},
		{func() error { _, _, err := f.Promote(k.KID, today); return err }, "active", "active 2026-03-10"},
		{func() error { _, err := f.Retire(f.kid["old"], today); return err }, "retired 2026-03-10", "active 2026-03-10"},
		{func() error { _, err := f.Drop(f.kid["old"], false, today.AddDate(0, 0, 7)); return err }, "dropped 2026-03-17", "active 2026-03-10"},
	}
	for i, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if old, newKey := f.state(t, "old"), f.state(t, "new"); old != s.old || newKey != s.newKey {
			t.Errorf("step %d: old %q, new %q; want %q, %q", i, old, newKey, s.old, s.newKey)
		}
	}
	reopened, err := keyring.OpenFolder(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := reopened.List(); len(got) != 1 || got[0].KID != k.KID || got[0].Alg != sign.ES256 {
		t.Errorf("after the rotation the folder holds %v, want only %s", got, k.KID)
	}
}
