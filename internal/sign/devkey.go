package sign

import (
	"crypto"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
// Builds that start at once agree on one key: the key file appears whole
// or not at all (written aside, then linked into place), and a build that
// finds it made by another reads that one.
func DevKey(dir string) (key crypto.Signer, path string, created bool, err error) {
	path = filepath.Join(dir, DevKeyDir, DevKeyFile)
	if key, err := readDevKey(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, path, false, err
	}
	kd, err := PrivateDir(dir)
	if err != nil {
		return nil, path, false, err
	}
	key, err = GenerateKey(EdDSA)
	if err != nil {
		return nil, path, false, err
	}
	pemBytes, err := encodeDevPEM(key)
	if err != nil {
		return nil, path, false, err
	}
	tmp, err := writeTemp(kd, ".dev-signing-key-*", pemBytes, 0o600)
	if err != nil {
		return nil, path, false, err
	}
	defer os.Remove(tmp)
	// A link fails when the name exists: exactly one build's key lands.
	if err := os.Link(tmp, path); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return nil, path, false, err
		}
		key, err := readDevKey(path)
		return key, path, false, err
	}
	return key, path, true, nil
}

// DevPEMHeader is the PEM header that marks a development key, so that it
// is refused wherever it is given as a signing key, with or without the
// project it was made in.
const DevPEMHeader = "Agentcards-Key"

// encodeDevPEM is EncodePrivatePEM with the development key's header.
func encodeDevPEM(k crypto.Signer) ([]byte, error) {
	plain, err := EncodePrivatePEM(k)
	if err != nil {
		return nil, err
	}
	b, _ := pem.Decode(plain)
	b.Headers = map[string]string{DevPEMHeader: "development; previews only, never publish"}
	return pem.EncodeToMemory(b), nil
}

// IsDevPEM reports whether PEM data holds a key marked as a development
// key.
func IsDevPEM(data []byte) bool {
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return false
		}
		if strings.HasPrefix(b.Headers[DevPEMHeader], "development") {
			return true
		}
	}
}

// IsProjectDevKey reports whether key is the development key kept in
// dir/.agentcards (none there: false).
func IsProjectDevKey(dir string, key crypto.Signer) bool {
	data, err := os.ReadFile(filepath.Join(dir, DevKeyDir, DevKeyFile))
	if err != nil {
		return false
	}
	dev, err := ParsePrivatePEM(data)
	if err != nil || len(dev) != 1 {
		return false
	}
	a, errA := Thumbprint(dev[0].Public())
	b, errB := Thumbprint(key.Public())
	return errA == nil && errB == nil && a == b
}

// readDevKey reads the development key at path.
func readDevKey(path string) (crypto.Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	keys, err := ParsePrivatePEM(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (delete it to make a new development key)", path, err)
	}
	return keys[0], nil
}

// writeTemp writes data to a new file in dir named after pattern, synced
// to disk, and returns its path.
func writeTemp(dir, pattern string, data []byte, perm os.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(f.Name(), perm)); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
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
	// Whole or not at all, whoever writes it.
	tmp, err := writeTemp(kd, ".gitignore-*", []byte("# agentcards: private keys; never commit.\n*\n"), 0o644)
	if err != nil {
		return "", err
	}
	if err := os.Rename(tmp, gi); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return kd, nil
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
