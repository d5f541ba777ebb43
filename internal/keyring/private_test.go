package keyring_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/sign"
)

// TestWritePrivateKey: the key goes to the file named, or by default to
// .agentcards/signing-key-<kid12>.pem, readable by its owner only, and a
// file already there is never overwritten.
func TestWritePrivateKey(t *testing.T) {
	key, err := sign.GenerateKey(sign.EdDSA)
	if err != nil {
		t.Fatal(err)
	}
	kid, err := sign.Thumbprint(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tc := range []struct {
		name, out, want, err string
	}{
		{name: "named", out: "mine.pem", want: "mine.pem"},
		{name: "default", want: filepath.Join(sign.DevKeyDir, "signing-key-"+kid[:12]+".pem")},
		{name: "named exists", out: "mine.pem", err: "writing the private key: "},
		{name: "default exists", err: "writing the private key: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, err := keyring.WritePrivateKey(key, kid, tc.out)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || path != tc.want {
				t.Fatalf("WritePrivateKey = %q, %v; want %q", path, err, tc.want)
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Errorf("%s has mode %v, want 0600", path, st.Mode().Perm())
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			keys, err := sign.ParsePrivatePEM(data)
			if err != nil || len(keys) != 1 {
				t.Fatalf("ParsePrivatePEM = %d keys, %v", len(keys), err)
			}
			if got, _ := sign.Thumbprint(keys[0].Public()); got != kid {
				t.Errorf("the file holds key %s, want %s", got, kid)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(sign.DevKeyDir, ".gitignore")); err != nil {
		t.Errorf("the default folder has no .gitignore: %v", err)
	}
}
