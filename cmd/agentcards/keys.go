package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

const keysUsage = `Usage: agentcards keys COMMAND [-manifest agents.toml] [-keys DIR] ...

Key rotation, with the states recorded in keys/rotation.toml:
  keys list                 every key in the keys folder, its alg and state
  keys next [-alg A] [-out FILE]
                            make the next key: published in the JWKS, not signing yet
  keys promote KID          the next key starts signing (old and new sign during the overlap)
  keys retire KID           an active key stops signing; it stays in the JWKS
  keys drop [-force] KID    remove a retired key from the keys folder (after a week)
`

func runKeys(args []string, stdout, stderr io.Writer, getenv env) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, keysUsage)
		return errUsage
	}
	cmd := args[0]
	fs := newFlags("keys "+cmd, stderr)
	manifestPath := fs.String("manifest", "agents.toml", "manifest whose site.keys names the keys folder")
	keysDir := fs.String("keys", "", "keys folder (default: site.keys from the manifest, else keys)")
	algFlag := fs.String("alg", "Ed25519", "keys next: algorithm (Ed25519, ES256, RS256, PS256)")
	out := fs.String("out", "", "keys next: where to write the private key (default .agentcards/signing-key-<kid>.pem)")
	force := fs.Bool("force", false, "keys drop: drop a key retired less than a week ago")
	fs.Usage = func() { fmt.Fprint(stderr, keysUsage) }
	if err := fs.Parse(kidsAfterFlags(fs, args[1:])); err != nil {
		return usageOrHelp(err)
	}
	dir := *keysDir
	if dir == "" {
		var err error
		if dir, err = manifestKeysDir(*manifestPath); err != nil {
			return err
		}
	}
	ks, err := sign.LoadKeySet(dir)
	if err != nil {
		return err
	}
	rot, err := keyring.LoadRotation(dir)
	if err != nil {
		return err
	}
	today := time.Now()
	needKID := func(want string) (string, error) {
		if fs.NArg() != 1 {
			return "", fmt.Errorf("give the kid of the key: %w", errUsage)
		}
		kid := fs.Arg(0)
		if ks.Find(kid) == nil {
			return "", fmt.Errorf("no key %s in %s", kid, dir)
		}
		if state, _ := rot.State(kid); want != "" && state != want {
			return "", fmt.Errorf("key %s is %s, not %s", kid, state, want)
		}
		return kid, nil
	}
	switch cmd {
	case "list":
		if len(ks.Keys) == 0 {
			fmt.Fprintf(stdout, "no keys in %s\n", dir)
		}
		for _, k := range ks.Keys {
			state, since := rot.State(k.KeyID)
			if since != "" {
				since = " since " + since
			}
			fmt.Fprintf(stdout, "%s  %-6s  %s%s\n", k.KeyID, k.Algorithm, state, since)
		}
		for _, w := range rot.Overdue(today) {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
		return nil
	case "next":
		if fs.NArg() != 0 {
			return fmt.Errorf("keys next takes no argument: %w", errUsage)
		}
		for _, k := range ks.Keys {
			if state, _ := rot.State(k.KeyID); state == keyring.StateNext {
				return fmt.Errorf("key %s is already the next key: promote it before making another", k.KeyID)
			}
		}
		alg, err := sign.NormalizeAlg(*algFlag)
		if err != nil {
			return fmt.Errorf("%v: %w", err, errUsage)
		}
		key, err := sign.GenerateKey(alg)
		if err != nil {
			return err
		}
		pub, err := sign.PublicJWK(key.Public(), alg)
		if err != nil {
			return err
		}
		path, err := writePrivateKey(key, pub.KeyID, *out)
		if err != nil {
			return err
		}
		p, err := sign.WritePublicJWK(dir, pub)
		if err != nil {
			os.Remove(path)
			return err
		}
		rot.Set(pub.KeyID, keyring.StateNext, today)
		if err := rot.Save(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "next key %s (%s): public %s, private %s\n", pub.KeyID, alg, p, path)
		fmt.Fprintf(stdout, "Commit %s and %s and deploy: the JWKS publishes it before it signs.\n"+
			"Then add the PEM to the secret beside the current key (two PEM blocks in $%s)\n"+
			"and run: agentcards keys promote %s\n", p, filepath.Join(dir, keyring.RotationFile), sign.EnvSigningKey, pub.KeyID)
		return nil
	case "promote":
		kid, err := needKID(keyring.StateNext)
		if err != nil {
			return err
		}
		rot.Set(kid, keyring.StateActive, today)
		if err := rot.Save(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %s is active: every key in the secret that is active signs every card.\n"+
			"When the new signatures are live, retire the old key: agentcards keys retire OLD-KID\n", kid)
		return nil
	case "retire":
		kid, err := needKID(keyring.StateActive)
		if err != nil {
			return err
		}
		active := 0
		for _, k := range ks.Keys {
			if state, _ := rot.State(k.KeyID); state == keyring.StateActive && k.KeyID != kid {
				active++
			}
		}
		if active == 0 {
			return fmt.Errorf("key %s is the only active key: promote its successor first (agentcards keys next, then promote)", kid)
		}
		rot.Set(kid, keyring.StateRetired, today)
		if err := rot.Save(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %s is retired: it no longer signs and stays in the JWKS until cached cards expire.\n"+
			"Remove its PEM from the secret. After %d days: agentcards keys drop %s\n", kid, keyring.RetiredKeepDays, kid)
		return nil
	case "drop":
		kid, err := needKID(keyring.StateRetired)
		if err != nil {
			return err
		}
		_, since := rot.State(kid)
		day, _ := time.Parse(time.DateOnly, since)
		if days := int(today.Sub(day).Hours() / 24); days < keyring.RetiredKeepDays && !*force {
			return fmt.Errorf("key %s was retired %d day(s) ago; cards signed with it may still be cached for up to %d days (use -force to drop it anyway)", kid, days, keyring.RetiredKeepDays)
		}
		if err := os.Remove(filepath.Join(dir, kid+".json")); err != nil {
			return err
		}
		rot.Remove(kid)
		if err := rot.Save(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %s dropped from %s\n", kid, dir)
		return nil
	}
	fmt.Fprintf(stderr, "agentcards keys: unknown command %q\n\n%s", cmd, keysUsage)
	return errUsage
}

// manifestKeysDir is the manifest's site.keys folder; "keys" when there is
// no manifest. A manifest that does not load is an error: writing keys to
// the wrong folder would be worse.
func manifestKeysDir(path string) (string, error) {
	m, err := manifest.Load(path)
	switch {
	case err == nil:
		return m.KeysDir(), nil
	case errors.Is(err, fs.ErrNotExist):
		return "keys", nil
	}
	return "", fmt.Errorf("%s must load to know where public keys go (site.keys); fix it or pass -keys DIR:\n%v", path, err)
}

// kidsAfterFlags reorders args so that only the flags fs defines are read
// as flags: about one RFC 7638 thumbprint in 64 starts with '-', and such a
// kid, as the tool itself prints it, must still name a key.
func kidsAfterFlags(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if name == "h" || name == "help" {
			flags = append(flags, a) // flag's own help
			continue
		}
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" || f == nil {
			if a != "--" {
				rest = append(rest, a)
			}
			continue
		}
		flags = append(flags, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return append(append(flags, "--"), rest...)
}
