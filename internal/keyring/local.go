package keyring

import (
	"crypto"
	"fmt"
	"path/filepath"

	"github.com/agentcards/agentcards/internal/regular"
	"github.com/agentcards/agentcards/internal/sign"
)

// Keys kept in the project: `agentcards keygen` writes a new private key
// to the git-ignored .agentcards/ beside the manifest, and a build given
// no key (and allowed the development key: not under CI) signs with the
// active ones it finds there, so that keygen then build just works.

// localPattern names the private keys keygen writes into .agentcards/
// (LocalKeyPath); the development key's file is not one of them.
const localPattern = "signing-key-*.pem"

// LocalKeyPath is where keygen writes a new private key by default:
// .agentcards/signing-key-<kid12>.pem in dir (the manifest's folder), the
// folder made with the .gitignore that keeps it out of git. A build run
// with that manifest and no key signs with it.
func LocalKeyPath(dir, kid string) (string, error) {
	kd, err := sign.PrivateDir(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(kd, "signing-key-"+kid[:12]+".pem"), nil
}

// useLocal makes r sign with the private keys kept in o.DevDir's
// .agentcards/ whose public halves are active in keys; it reports whether
// any signs. A key that cannot sign there (unreadable, not in the keys
// folder, the next key) is noted and skipped, a retired or dropped one
// skipped: these files are the user's own, not keys given for this build,
// and one left over never fails a build. Every key read is scanned for
// in the output all the same.
func (r *Ring) useLocal(o Options, keys *sign.KeySet, rot *Rotation) (bool, error) {
	paths, err := filepath.Glob(filepath.Join(o.DevDir, sign.DevKeyDir, localPattern))
	if err != nil {
		return false, err
	}
	for _, path := range paths {
		// Never through a link: a repository may carry .agentcards/ (git
		// can be made to add it), and a link there could name another
		// project's key.
		data, err := regular.ReadFile(path)
		if err != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: not used: %v", path, err))
			continue
		}
		parsed, err := sign.ParsePrivatePEM(data)
		if err != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: not used: %v", path, err))
			continue
		}
		if sign.IsDevPEM(data) {
			continue
		}
		signs := false
		for _, k := range parsed {
			r.Private = append(r.Private, k)
			s, note, err := localSigner(path, k, keys, rot, o)
			if err != nil {
				return false, err
			}
			if note != "" {
				r.Notes = append(r.Notes, note)
			}
			if s != nil {
				r.Signers = append(r.Signers, s)
				signs = true
			}
		}
		if signs {
			r.Found = append(r.Found, path)
		}
	}
	return len(r.Signers) > 0, nil
}

// localSigner is the signer of key k from the file path, when its public
// half is active in keys; else a note says why it does not sign (none
// for a retired or dropped key).
func localSigner(path string, k crypto.Signer, keys *sign.KeySet, rot *Rotation, o Options) (*sign.Signer, string, error) {
	kid, err := sign.Thumbprint(k.Public())
	if err != nil {
		return nil, "", err
	}
	pub := keys.Find(kid)
	state, _ := rot.State(kid)
	switch {
	case state == StateRetired || state == StateDropped:
		return nil, "", nil
	case pub == nil:
		return nil, fmt.Sprintf("%s holds key %s, which is not in the keys folder %s: not used; publish it with `agentcards keygen -from %s`", path, kid, o.KeysDir, path), nil
	case state == StateNext:
		return nil, fmt.Sprintf("%s holds the next key %s: published in the JWKS, not signing until `agentcards keys promote %s`", path, kid, kid), nil
	}
	s, err := sign.NewSigner(k, pub.Algorithm, o.JKU)
	if err != nil {
		return nil, "", fmt.Errorf("signing key %s (from %s): %v", kid, path, err)
	}
	return s, "", nil
}
