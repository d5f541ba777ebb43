package sign

import (
	"crypto"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EnvSigningKey names the environment variable that holds the private
// signing key(s) as PEM. Several PEM blocks mean several keys, each adding a
// signature to every card (rotation overlap).
const EnvSigningKey = "AGENTCARDS_SIGNING_KEY"

// DevKeyDir is the git-ignored folder, beside agents.toml, that holds the
// development key.
const DevKeyDir = ".agentcards"

// DevKeyFile is the development key's file name inside DevKeyDir.
const DevKeyFile = "dev-signing-key.pem"

// DevKey returns the development signing key kept in dir/.agentcards,
// making it (Ed25519) on first use; created reports that it was made now.
// The folder gets a .gitignore of its own so the key is never committed.
func DevKey(dir string) (key crypto.Signer, path string, created bool, err error) {
	path = filepath.Join(dir, DevKeyDir, DevKeyFile)
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		keys, err := ParsePrivatePEM(data)
		if err != nil {
			return nil, path, false, fmt.Errorf("%s: %v (delete it to make a new development key)", path, err)
		}
		return keys[0], path, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, path, false, err
	}
	if _, err := PrivateDir(dir); err != nil {
		return nil, path, false, err
	}
	key, err = GenerateKey(EdDSA)
	if err != nil {
		return nil, path, false, err
	}
	pemBytes, err := EncodePrivatePEM(key)
	if err != nil {
		return nil, path, false, err
	}
	if err := WriteNewFile(path, pemBytes, 0o600); err != nil {
		return nil, path, false, err
	}
	return key, path, true, nil
}

// PrivateDir makes dir/.agentcards, the folder for private keys, with a
// .gitignore that keeps everything in it out of git, and returns its path.
func PrivateDir(dir string) (string, error) {
	kd := filepath.Join(dir, DevKeyDir)
	if err := os.MkdirAll(kd, 0o700); err != nil {
		return "", err
	}
	gi := filepath.Join(kd, ".gitignore")
	if _, err := os.Stat(gi); err == nil {
		return kd, nil
	}
	return kd, os.WriteFile(gi, []byte("# agentcards: private keys; never commit.\n*\n"), 0o644)
}

// WriteNewFile writes data to a file that must not exist yet.
func WriteNewFile(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
