package keyring_test

import (
	"crypto"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/sign"
)

// TestOpen: the keys a build signs with. Active keys given sign, with
// their published alg; next and retired keys given are noted and do not
// sign; dropped keys given are warned of; with no keys folder, the one
// key given publishes its own public half; with no key, the development
// key signs where it is allowed. Each refusal says why.
func TestOpen(t *testing.T) {
	// Open reads the clock: "old" is retired today, "stale" long ago.
	states := map[string]string{"cur": "", "cur2": "", "new": "next 2026-03-01", "old": "retired " + time.Now().Format(time.DateOnly),
		"gone": "dropped 2026-01-01", "stale": "retired 2020-01-01"}
	for _, tc := range []struct {
		name   string
		folder string // "" (the keys folder), "absent", "named absent" or "file"
		give   []string
		dev    bool // the key given is marked as a development key
		noDev  bool // the development key is not allowed
		sign   []string
		notes  []string
		warn   []string
		err    string
	}{
		{name: "the active key", give: []string{"cur"}, sign: []string{"cur"}, warn: []string{"key {stale} was retired"}},
		{name: "two active keys", give: []string{"cur", "cur2"}, sign: []string{"cur", "cur2"}, warn: []string{"key {stale} was retired"}},
		{name: "a next key does not sign", give: []string{"cur", "new"}, sign: []string{"cur"},
			notes: []string{"key {new} (from new.pem) is the next key: published in the JWKS, not signing until `agentcards keys promote {new}`"}, warn: []string{"{stale}"}},
		{name: "a retired key does not sign", give: []string{"old", "cur"}, sign: []string{"cur"},
			notes: []string{"key {old} (from old.pem) is retired: it no longer signs; remove it from the secret"}, warn: []string{"{stale}"}},
		{name: "a dropped key does not sign", give: []string{"gone", "cur"}, sign: []string{"cur"},
			warn: []string{"{stale}", "key {gone} (from gone.pem) was dropped on 2026-01-01: it no longer signs; stop passing -key gone.pem"}},
		{name: "a dropped key from the environment", give: []string{"$gone", "cur"}, sign: []string{"cur"},
			warn: []string{"{stale}", "was dropped on 2026-01-01: it no longer signs; remove its PEM from the secret ($AGENTCARDS_SIGNING_KEY)"}},
		{name: "only a next key", give: []string{"new"}, err: "none of the signing keys given is active ("},
		{name: "only a dropped key", give: []string{"gone"}, err: "was dropped on 2026-01-01: it no longer signs; stop passing -key gone.pem\nnone of the signing keys given is active"},
		{name: "a key with no public half", give: []string{"cur", "stranger"}, err: "signing key {stranger} (from stranger.pem) has no public half in {dir}: run `agentcards keygen -from stranger.pem -alg ALG` to add it, and commit it"},
		{name: "a key with no public half, from the environment", give: []string{"$stranger"}, err: "(from $AGENTCARDS_SIGNING_KEY) has no public half in {dir}: write the PEM to a file and run `agentcards keygen -from FILE -alg ALG`"},
		{name: "a development key given", give: []string{"cur"}, dev: true, err: "the signing key from cur.pem is an agentcards development key"},
		{name: "no key: the development key", sign: []string{"dev"}, warn: []string{"{stale}"}},
		{name: "no key, no development key", noDev: true, err: keyring.ErrDevKeyRefused.Error()},
		{name: "no folder: the key publishes itself", folder: "absent", give: []string{"stranger"}, sign: []string{"stranger"},
			warn: []string{"there is no keys folder ({dir}), so the JWKS publishes the public half of the signing key given: {stranger} (EdDSA, from stranger.pem)"}},
		{name: "no folder, two keys", folder: "absent", give: []string{"stranger", "cur"}, err: "there is no keys folder ({dir}), and 2 signing keys were given"},
		{name: "the folder named does not exist", folder: "named absent", give: []string{"cur"}, err: "site.keys names the keys folder {dir}, which does not exist"},
		{name: "the folder is a file", folder: "file", give: []string{"cur"}, err: "keys folder {dir} is a file, not a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := makeFolder(t, states)
			stranger, err := sign.GenerateKey(sign.EdDSA)
			if err != nil {
				t.Fatal(err)
			}
			f.priv["stranger"] = stranger
			f.kid["stranger"], _ = sign.Thumbprint(stranger.Public())
			switch tc.folder {
			case "absent", "named absent":
				err = os.RemoveAll(f.Dir)
			case "file":
				err = errors.Join(os.RemoveAll(f.Dir), os.WriteFile(f.Dir, nil, 0o644))
			}
			if err != nil {
				t.Fatal(err)
			}
			var privs []keyring.Private
			for _, g := range tc.give {
				from := g + ".pem"
				if name, ok := strings.CutPrefix(g, "$"); ok {
					g, from = name, "$"+sign.EnvSigningKey
				}
				privs = append(privs, keyring.Private{Key: f.priv[g], From: from, Dev: tc.dev})
			}
			devDir := t.TempDir()
			r, err := keyring.Open(keyring.Options{KeysDir: f.Dir, KeysNamed: tc.folder == "named absent", DevDir: devDir,
				Private: privs, JKU: "https://agents.example.test/.well-known/jwks.json", AllowDev: !tc.noDev})
			checkErr(t, err, f.expand(tc.err))
			if err != nil {
				return
			}
			var signers []string
			for _, s := range r.Signers {
				signers = append(signers, s.KID)
			}
			var want []string
			for _, name := range tc.sign {
				want = append(want, f.kid[name])
			}
			if slices.Equal(tc.sign, []string{"dev"}) {
				if len(r.Signers) != 1 || !sign.IsDevKID(r.Signers[0].KID) || r.DevKey != filepath.Join(devDir, sign.DevKeyDir, sign.DevKeyFile) || !r.DevCreated {
					t.Errorf("no development key signs: %v, %q, %v", signers, r.DevKey, r.DevCreated)
				}
			} else if !slices.Equal(signers, want) {
				t.Errorf("signed by %v, want %v", signers, want)
			}
			for _, s := range r.Signers {
				if pub := r.Keys.Find(s.KID); pub == nil || pub.Algorithm != s.Alg {
					t.Errorf("signer %s (%s) is not published with its alg", s.KID, s.Alg)
				}
			}
			if len(r.Private) != max(len(privs), 1) {
				t.Errorf("the ring holds %d private keys, want every key given", len(r.Private))
			}
			checkLines(t, "notes", r.Notes, tc.notes, f)
			checkLines(t, "warnings", r.Warnings, tc.warn, f)
		})
	}
}

// checkLines fails the test unless each line of got holds the line of
// want in the same place, expanded.
func checkLines(t *testing.T, what string, got, want []string, f testFolder) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %q, want %d", what, got, len(want))
		return
	}
	for i := range want {
		if w := f.expand(want[i]); !strings.Contains(got[i], w) {
			t.Errorf("%s[%d] = %q, want %q", what, i, got[i], w)
		}
	}
}

// TestOpenRotationNamesUnknownKey: rotation.toml may name a key the
// folder does not hold only when that key is dropped.
func TestOpenRotationNamesUnknownKey(t *testing.T) {
	f := makeFolder(t, map[string]string{"cur": ""})
	writeRotation(t, f.Dir, "[[keys]]\nkid = \"nosuchkid\"\nstate = \"retired\"\nsince = \"2026-01-01\"\n")
	_, err := keyring.Open(keyring.Options{KeysDir: f.Dir, Private: []keyring.Private{{Key: f.priv["cur"], From: "cur.pem"}}})
	checkErr(t, err, "rotation.toml names kid nosuchkid, which has no public JWK in "+f.Dir)
	writeRotation(t, f.Dir, "[[keys]]\nkid = \"nosuchkid\"\nstate = \"dropped\"\nsince = \"2026-01-01\"\n")
	_, err = keyring.Open(keyring.Options{KeysDir: f.Dir, Private: []keyring.Private{{Key: f.priv["cur"], From: "cur.pem"}}})
	checkErr(t, err, "")
}

// TestRead: private keys from files and from the environment's PEM, each
// once, marked when their PEM marks a development key; a file that does
// not read or a PEM that does not parse is an error naming it.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, keys ...crypto.Signer) string {
		var data []byte
		for _, k := range keys {
			pem, err := sign.EncodePrivatePEM(k)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, pem...)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a, _ := sign.GenerateKey(sign.EdDSA)
	b, _ := sign.GenerateKey(sign.ES256)
	both, onlyA := write("both.pem", a, b), write("a.pem", a)
	envPEM, err := sign.EncodePrivatePEM(b)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.pem")
	if err := os.WriteFile(bad, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files []string
		env   string
		want  []string // From of each key read
		err   string
	}{
		{name: "nothing"},
		{name: "two files, one key twice", files: []string{onlyA, both}, want: []string{onlyA, both}},
		{name: "a file and the environment", files: []string{onlyA}, env: string(envPEM), want: []string{onlyA, "$AGENTCARDS_SIGNING_KEY"}},
		{name: "the environment's key already read", files: []string{both}, env: string(envPEM), want: []string{both, both}},
		{name: "no such file", files: []string{filepath.Join(dir, "none.pem")}, err: "none.pem"},
		{name: "not a PEM", files: []string{bad}, err: "signing key from " + bad + ": "},
		{name: "not a PEM in the environment", env: "nope", err: "signing key from $AGENTCARDS_SIGNING_KEY: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := keyring.Read(tc.files, tc.env)
			checkErr(t, err, tc.err)
			var from []string
			for _, p := range got {
				from = append(from, p.From)
				if p.Dev {
					t.Errorf("key from %s is marked as a development key", p.From)
				}
			}
			if !slices.Equal(from, tc.want) {
				t.Errorf("read keys from %q, want %q", from, tc.want)
			}
		})
	}
}

// TestDefaultAlg: EdDSA for Ed25519, ES256 for P-256, RS256 for RSA.
func TestDefaultAlg(t *testing.T) {
	for alg, want := range map[string]string{sign.EdDSA: sign.EdDSA, sign.ES256: sign.ES256, sign.PS256: sign.RS256} {
		key, err := sign.GenerateKey(alg)
		if err != nil {
			t.Fatal(err)
		}
		if got := keyring.DefaultAlg(key.Public()); got != want {
			t.Errorf("DefaultAlg(a %s key) = %s, want %s", alg, got, want)
		}
	}
}
