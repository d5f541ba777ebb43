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

func runKeys(args []string, stdout, stderr io.Writer, getenv env) error {
	if len(args) == 0 {
		printHelp(stderr, "keys", nil)
		return errUsage
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		printHelp(stdout, "keys", nil)
		return nil
	}
	cmd := args[0]
	fs := newFlags("keys "+cmd, stderr)
	manifestPath := fs.String("manifest", "agents.toml", "manifest whose site.keys names the keys folder")
	keysDir := fs.String("keys", "", "keys folder (default: site.keys from the manifest, else keys)")
	algFlag := fs.String("alg", "Ed25519", "keys next: algorithm (Ed25519, ES256, RS256, PS256)")
	out := fs.String("out", "", "keys next: where to write the private key (default .agentcards/signing-key-<kid12>.pem, <kid12> the kid's first 12 characters)")
	force := fs.Bool("force", false, "keys drop: drop a key retired less than a week ago")
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
		kid, err := resolveKID(ks, fs.Arg(0), dir)
		if err != nil {
			return "", err
		}
		if state, _ := rot.State(kid); want != "" && state != want {
			return "", fmt.Errorf("key %s is %s, not %s", kid, state, want)
		}
		return kid, nil
	}
	switch cmd {
	case "list":
		if len(ks.Keys) == 0 {
			fmt.Fprintf(stdout, "the keys folder %s holds no public keys: make one with agentcards keygen\n", dir)
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
		if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
			// The build publishes the one key it is given while there is
			// no keys folder; a folder holding only the next key would
			// leave the current one out.
			return fmt.Errorf("there is no keys folder (%s) yet: publish the current key's public half first (write its PEM to a file, run `agentcards keygen -from FILE`, commit %s), then make the next key", dir, dir)
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
		path, err := keyring.WritePrivateKey(key, pub.KeyID, *out)
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
		var old []string
		for _, k := range ks.Keys {
			if state, _ := rot.State(k.KeyID); state == keyring.StateActive && k.KeyID != kid {
				old = append(old, k.KeyID)
			}
		}
		fmt.Fprintf(stdout, "key %s is active: every key in the secret that is active signs every card.\n", kid)
		for _, o := range old {
			fmt.Fprintf(stdout, "When the new signatures are live, retire the old key: agentcards keys retire %s\n", o)
		}
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
			return fmt.Errorf("key %s was retired %s ago; cards signed with it may still be cached for up to %d days (use -force to drop it anyway)", kid, plural(days, "day"), keyring.RetiredKeepDays)
		}
		if err := os.Remove(filepath.Join(dir, kid+".json")); err != nil {
			return err
		}
		rot.Set(kid, keyring.StateDropped, today)
		if err := rot.Save(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %s dropped from %s; if its PEM is still in the secret, remove it\n", kid, dir)
		return nil
	}
	return fmt.Errorf("unknown command %q%s; it takes list, next, promote, retire or drop: %w", cmd, keysDidYouMean(cmd), errUsage)
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

// resolveKID is the kid of the one key in ks whose kid is arg or starts
// with it.
func resolveKID(ks *sign.KeySet, arg, dir string) (string, error) {
	if ks.Find(arg) != nil {
		return arg, nil
	}
	var matches []string
	for _, k := range ks.Keys {
		if strings.HasPrefix(k.KeyID, arg) {
			matches = append(matches, k.KeyID)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", fmt.Errorf("no key %s in %s (agentcards keys list shows them)", arg, dir)
	}
	return "", fmt.Errorf("%s starts %d kids (%s): give more of it", arg, len(matches), strings.Join(matches, ", "))
}

// keysDidYouMean is " (did you mean X?)" for the keys command closest to
// cmd, or "".
func keysDidYouMean(cmd string) string {
	for _, c := range []string{"list", "next", "promote", "retire", "drop"} {
		if manifest.EditDistance(strings.ToLower(cmd), c) <= 2 {
			return fmt.Sprintf(" (did you mean %q?)", c)
		}
	}
	return ""
}
