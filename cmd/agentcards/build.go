package main

import (
	"crypto"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/site"
)

func runBuild(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("build", stderr)
	manifestPath := fs.String("manifest", "agents.toml", "the manifest to build")
	outDir := fs.String("out", "", "output folder (default: site.output from the manifest, else public)")
	var keyFiles multiFlag
	fs.Var(&keyFiles, "key", "private signing key PEM `file` (repeatable; also $"+sign.EnvSigningKey+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}

	m, err := manifest.Load(*manifestPath)
	if err != nil {
		var errs manifest.Errors
		if errors.As(err, &errs) {
			for _, d := range errs {
				fmt.Fprintln(stderr, d)
			}
			return fmt.Errorf("%d problem(s) in %s; nothing was written", len(errs), *manifestPath)
		}
		return fmt.Errorf("%v (run it where agents.toml is, or pass -manifest)", err)
	}
	keys, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		return fmt.Errorf("keys folder: %v", err)
	}
	privs, err := signingKeys(keyFiles, getenv)
	if err != nil {
		return err
	}
	jku := site.JWKSURL(m)
	var signers []*sign.Signer
	if len(privs) == 0 {
		if isCI(getenv) {
			return fmt.Errorf("no signing key, and CI=%s: refusing to sign with a development key. Give the key through $%s (a secret holding the PEM) or -key FILE; see README, \"Signing keys\"", getenv("CI"), sign.EnvSigningKey)
		}
		key, path, created, err := sign.DevKey(m.Dir)
		if err != nil {
			return fmt.Errorf("development key: %v", err)
		}
		s, err := sign.NewSigner(key, sign.EdDSA, jku)
		if err != nil {
			return err
		}
		keys.Add(s.Public)
		signers = append(signers, s)
		verb := "using"
		if created {
			verb = "created"
		}
		fmt.Fprintf(stderr, "WARNING: no signing key configured: %s the DEVELOPMENT key %s (kid %s).\n"+
			"WARNING: its public half is added to this build's jwks.json. Do not publish this site;\n"+
			"WARNING: sign with $%s or -key FILE instead (README, \"Signing keys\").\n", verb, path, s.KID, sign.EnvSigningKey)
	} else {
		for _, p := range privs {
			kid, err := sign.Thumbprint(p.key.Public())
			if err != nil {
				return err
			}
			pub := keys.Find(kid)
			if pub == nil {
				return fmt.Errorf("signing key %s (from %s) has no public half in %s: run `agentcards keygen -from FILE -alg ALG` to add it, and commit it", kid, p.from, m.KeysDir())
			}
			s, err := sign.NewSigner(p.key, pub.Algorithm, jku)
			if err != nil {
				return fmt.Errorf("signing key %s (from %s): %v", kid, p.from, err)
			}
			signers = append(signers, s)
		}
	}

	if *outDir != "" {
		m.Site.Output = *outDir
		if !filepath.IsAbs(*outDir) {
			// -out is relative to where the command runs, not to the manifest.
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			m.Site.Output = filepath.Join(wd, *outDir)
		}
	}
	rep, err := site.Build(site.Options{Manifest: m, OutDir: m.OutputDir(), Keys: keys, Signers: signers})
	if err != nil {
		return fmt.Errorf("%v\nthe previous output (if any) was left untouched", err)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	if len(rep.Projected) > 0 {
		ids := make([]string, 0, len(rep.Projected))
		for id := range rep.Projected {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		var shown []string
		for i, id := range ids {
			if i == 5 {
				shown = append(shown, fmt.Sprintf("and %d more", len(ids)-5))
				break
			}
			shown = append(shown, id+": "+strings.Join(rep.Projected[id], ", "))
		}
		fmt.Fprintf(stderr, "note: %d agent(s) have security requirements without scopes, which the A2A SDKs erase before they verify (%s).\n",
			len(ids), strings.Join(shown, "; "))
		if m.Site.ProjectionSignatures() {
			fmt.Fprintf(stderr, "note: each key signed those cards twice: over the strict RFC 8785 form, and over the SDKs' form, which does not cover those fields (README, \"Scope-less security requirements\").\n")
		} else {
			fmt.Fprintf(stderr, "WARNING: site.sdkProjectionSignatures is false, so those cards carry strict signatures only and will NOT verify with the A2A SDKs.\n")
		}
	}
	var kids []string
	for _, s := range signers {
		kids = append(kids, s.KID+" ("+s.Alg+")")
	}
	fmt.Fprintf(stdout, "built %s: %d agents, %d files, signed by %s\n", m.OutputDir(), rep.Agents, rep.Files, strings.Join(kids, ", "))
	return nil
}

// isCI reports whether the build runs under CI, where the development key
// is refused.
func isCI(getenv env) bool {
	v := strings.ToLower(getenv("CI"))
	return v != "" && v != "false" && v != "0"
}

type privateKey struct {
	key  crypto.Signer
	from string
}

// signingKeys reads the private keys from -key files and $AGENTCARDS_SIGNING_KEY.
func signingKeys(files []string, getenv env) ([]privateKey, error) {
	var out []privateKey
	seen := map[string]bool{}
	add := func(from string, data []byte) error {
		keys, err := sign.ParsePrivatePEM(data)
		if err != nil {
			return fmt.Errorf("signing key from %s: %v", from, err)
		}
		for _, k := range keys {
			kid, err := sign.Thumbprint(k.Public())
			if err != nil {
				return err
			}
			if !seen[kid] {
				seen[kid] = true
				out = append(out, privateKey{k, from})
			}
		}
		return nil
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := add(f, data); err != nil {
			return nil, err
		}
	}
	if v := getenv(sign.EnvSigningKey); v != "" {
		if err := add("$"+sign.EnvSigningKey, []byte(v)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
