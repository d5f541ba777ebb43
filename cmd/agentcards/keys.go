package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

// runKeys runs `agentcards keys CMD`: it reads the flags, has the keys
// folder take the step (keyring.Folder holds the rotation's rules), and
// says what was done and what comes next.
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
	f, err := keyring.OpenFolder(dir)
	if err != nil {
		return err
	}
	today := time.Now()
	switch cmd {
	case "list":
		keysList(f, today, stdout, stderr)
		return nil
	case "next":
		if fs.NArg() != 0 {
			return fmt.Errorf("keys next takes no argument: %w", errUsage)
		}
		return keysNext(f, *algFlag, *out, today, stdout)
	case "promote", "retire", "drop":
		if fs.NArg() != 1 {
			return fmt.Errorf("give the kid of the key: %w", errUsage)
		}
		return keysStep(f, cmd, fs.Arg(0), *force, today, stdout)
	}
	return fmt.Errorf("unknown command %q%s; it takes list, next, promote, retire or drop: %w", cmd, keysDidYouMean(cmd), errUsage)
}

// keysList prints each key of f and its state, and warns of retired keys
// overdue for dropping.
func keysList(f *keyring.Folder, today time.Time, stdout, stderr io.Writer) {
	keys := f.List()
	if len(keys) == 0 {
		fmt.Fprintf(stdout, "the keys folder %s holds no public keys: make one with agentcards keygen\n", f.Dir)
	}
	for _, k := range keys {
		since := ""
		if k.Since != "" {
			since = " since " + k.Since
		}
		fmt.Fprintf(stdout, "%s  %-6s  %s%s\n", k.KID, k.Alg, k.State, since)
	}
	for _, w := range f.Rotation.Overdue(today) {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
}

// keysNext makes the next key and says how to deploy and promote it.
func keysNext(f *keyring.Folder, alg, out string, today time.Time, stdout io.Writer) error {
	k, err := f.Next(alg, out, today)
	if algErr := (*keyring.AlgError)(nil); errors.As(err, &algErr) {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "next key %s (%s): public %s, private %s\n", k.KID, k.Alg, k.Public, k.Private)
	fmt.Fprintf(stdout, "Commit %s and %s and deploy: the JWKS publishes it before it signs.\n"+
		"Then add the PEM to the secret beside the current key (two PEM blocks in $%s)\n"+
		"and run: agentcards keys promote %s\n", k.Public, filepath.Join(f.Dir, keyring.RotationFile), sign.EnvSigningKey, k.KID)
	return nil
}

// keysStep promotes, retires or drops the key arg names (cmd says which)
// and says what comes next.
func keysStep(f *keyring.Folder, cmd, arg string, force bool, today time.Time, stdout io.Writer) error {
	switch cmd {
	case "promote":
		kid, replaced, err := f.Promote(arg, today)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %s is active: every key in the secret that is active signs every card.\n", kid)
		for _, o := range replaced {
			fmt.Fprintf(stdout, "When the new signatures are live, retire the old key: agentcards keys retire %s\n", o)
		}
	case "retire":
		kid, err := f.Retire(arg, today)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %s is retired: it no longer signs and stays in the JWKS until cached cards expire.\n"+
			"Remove its PEM from the secret. After %d days: agentcards keys drop %s\n", kid, keyring.RetiredKeepDays, kid)
	case "drop":
		kid, err := f.Drop(arg, force, today)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %s dropped from %s; if its PEM is still in the secret, remove it\n", kid, f.Dir)
	}
	return nil
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
