package main

import (
	"crypto"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/sign"
)

func runKeygen(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("keygen", stderr)
	algFlag := fs.String("alg", "Ed25519", "algorithm: Ed25519 (EdDSA), ES256, RS256 or PS256 (with -from, the key's own: EdDSA, ES256, or RS256 for RSA)")
	out := fs.String("out", "", "where to write the new private key (default: .agentcards/signing-key-<kid12>.pem, <kid12> the kid's first 12 characters; git-ignored)")
	keysDir := fs.String("keys", "", "public key folder (default: site.keys from agents.toml, else keys)")
	from := fs.String("from", "", "publish the public half of this existing private key `file` instead of making a new key")
	manifestPath := fs.String("manifest", "agents.toml", "manifest whose site.keys names the public key folder")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	alg, err := sign.NormalizeAlg(*algFlag)
	if err != nil {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	if *from != "" && *out != "" {
		return fmt.Errorf("-from and -out do not go together: -from writes no private key: %w", errUsage)
	}
	dir := *keysDir
	if dir == "" {
		var err error
		if dir, err = manifestKeysDir(*manifestPath); err != nil {
			return err
		}
	}

	algGiven := false
	fs.Visit(func(f *flag.Flag) { algGiven = algGiven || f.Name == "alg" })
	var key crypto.Signer
	if *from != "" {
		data, err := os.ReadFile(*from)
		if err != nil {
			return err
		}
		keys, err := sign.ParsePrivatePEM(data)
		if err != nil {
			return fmt.Errorf("%s: %v", *from, err)
		}
		if len(keys) != 1 {
			return fmt.Errorf("%s holds %d keys; give one key per file", *from, len(keys))
		}
		key = keys[0]
		if !algGiven {
			// The alg a build gives the key when there is no keys folder.
			alg = keyring.DefaultAlg(key.Public())
		}
		// The development key lives in the project, unprotected: published
		// as a real key, it would sign real sites.
		if devDir := filepath.Dir(*manifestPath); sign.IsProjectDevKey(devDir, key) {
			return fmt.Errorf("%s is the development key (%s): it is for previews and never published; make a real key with `agentcards keygen`", *from, filepath.Join(devDir, sign.DevKeyDir, sign.DevKeyFile))
		}
	} else {
		if key, err = sign.GenerateKey(alg); err != nil {
			return err
		}
	}
	pub, err := sign.PublicJWK(key.Public(), alg)
	if err != nil {
		return fmt.Errorf("%v (pick the matching -alg)", err)
	}

	if *from == "" {
		path, next := *out, "agentcards build -key "+*out
		if path == "" {
			// Beside the manifest, where a build given no key finds it.
			if path, err = keyring.LocalKeyPath(filepath.Dir(*manifestPath), pub.KeyID); err != nil {
				return err
			}
			next = "agentcards build"
			if *manifestPath != "agents.toml" {
				next += " -manifest " + *manifestPath
			}
		}
		if path, err = keyring.WritePrivateKey(key, pub.KeyID, path); err != nil {
			return fmt.Errorf("%v (keygen never overwrites a key)", err)
		}
		fmt.Fprintf(stdout, "private key: %s (keep it secret; never commit it)\n", path)
		defer printKeygenNext(stdout, next, filepath.Join(dir, pub.KeyID+".json"), path)
	}
	p, err := sign.WritePublicJWK(dir, pub)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "public key:  %s\nkid:         %s\nalg:         %s\n", p, pub.KeyID, pub.Algorithm)
	return nil
}

// printKeygenNext says what to do with a key keygen made: build with it
// (next is the command), commit its public half, and give the private
// one to the publish workflow.
func printKeygenNext(stdout io.Writer, next, public, private string) {
	fmt.Fprintf(stdout, "\nNext:\n"+
		"  %s   # signs with the new key\n"+
		"  git add %s   # the public key is safe to publish\n"+
		"  gh secret set %s --env signing < %s   # for the publish workflow\n"+
		"Keep %s out of git, and a copy somewhere safe: CI signs with the secret, never with this file.\n",
		next, public, sign.EnvSigningKey, private, private)
}
