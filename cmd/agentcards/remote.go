package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/importer"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/remote"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/internal/terminal"
	"github.com/agentcards/agentcards/internal/verify"
)

// errRemoteChanged makes exit code 1 without another message: remote
// refresh found changes, and said which.
type errRemoteChanged struct{}

func (errRemoteChanged) Error() string { return "remote cards changed" }

// remoteFetchOptions are the network flags of remote fetch and refresh.
type remoteFetchOptions struct {
	cacert   *string
	timeout  *time.Duration
	maxBytes *int64
}

// remoteNetworkFlags defines the network flags on fs.
func remoteNetworkFlags(fs *flag.FlagSet) remoteFetchOptions {
	return remoteFetchOptions{
		cacert:   fs.String("cacert", "", "trust only the CA certificates in this PEM `file` for https (default: the system's)"),
		timeout:  fs.Duration("timeout", fetch.DefaultTimeout, "timeout for each HTTP request"),
		maxBytes: fs.Int64("max-bytes", fetch.DefaultMaxBytes, "largest card or JWKS read, in bytes"),
	}
}

// client is the fetch client of one run: one network policy (Pins) for
// every fetch.
func (o remoteFetchOptions) client() (*fetch.Client, error) {
	c := &fetch.Client{Pins: &fetch.Pins{}, Timeout: *o.timeout, MaxBytes: *o.maxBytes}
	if *o.cacert != "" {
		pool, err := fetch.LoadRootCAs(*o.cacert)
		if err != nil {
			return nil, err
		}
		c.RootCAs = pool
	}
	return c, nil
}

// runRemote is `agentcards remote fetch|refresh`.
func runRemote(args []string, stdout, stderr io.Writer, getenv env) error {
	if len(args) > 0 {
		switch args[0] {
		case "fetch":
			return remoteFetch(args[1:], stdout, stderr)
		case "refresh":
			return remoteRefresh(args[1:], stdout, stderr)
		case "-h", "-help", "--help", "help":
			printHelp(stdout, "remote", nil)
			return nil
		}
	}
	printHelp(stderr, "remote", nil)
	if len(args) == 0 {
		return errUsage
	}
	hint := ""
	for _, sub := range []string{"fetch", "refresh"} {
		if manifest.EditDistance(strings.ToLower(args[0]), sub) <= 2 {
			hint = fmt.Sprintf(" (did you mean %q?)", sub)
		}
	}
	return fmt.Errorf("unknown command %q%s; it takes fetch or refresh: %w", terminal.Escape(args[0]), hint, errUsage)
}

// remoteFetch is `agentcards remote fetch`: the snapshot of one remote
// card, verified, and the [[remoteAgents]] table that publishes it.
func remoteFetch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("remote fetch", stderr)
	out := fs.String("o", "", "write the snapshot to this `file` (default remote/<id>.json)")
	id := fs.String("id", "", "the remote agent's `id` in the manifest (default: from the card's name, as import makes one)")
	jwks := fs.String("jwks", "", "verify with the JWKS in this `FILE|URL`, pinned, instead of the one at the card's origin; refresh keeps using it")
	allowUnsigned := fs.Bool("allow-unsigned", false, "take a card that carries no signature, recorded as unsigned (a signed card is verified all the same)")
	net := remoteNetworkFlags(fs)
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("give the URL of one card (an origin means its /.well-known/agent-card.json): %w", errUsage)
	}
	if *id != "" && !layout.ValidID(*id) {
		return fmt.Errorf("-id %q is not an agent id: use 1-64 lower-case letters, digits and inner hyphens: %w", terminal.Escape(*id), errUsage)
	}
	client, err := net.client()
	if err != nil {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	ctx := context.Background()
	opts := remote.FetchOptions{Client: client, AllowUnsigned: *allowUnsigned}
	if *jwks != "" {
		if opts.Pinned, err = readPinnedJWKS(ctx, client, *jwks); err != nil {
			return fmt.Errorf("-jwks: %v: %w", err, errUsage)
		}
	}
	s, err := remote.Fetch(ctx, fs.Arg(0), opts)
	if err != nil {
		return err
	}
	if *id == "" {
		*id = "agent"
		if res, err := importer.Card([]byte(s.Card), ""); err == nil && layout.ValidID(res.Agent.ID) {
			*id = res.Agent.ID
		}
	}
	if *out == "" {
		*out = filepath.Join("remote", *id+".json")
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	if err := s.Write(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", terminal.Escape(*out), describeSnapshot(s))
	for _, kid := range s.Verification.KIDs {
		if sign.IsDevKID(kid) {
			fmt.Fprintf(stderr, "warning: the card is signed by an agentcards DEVELOPMENT key (kid %s): its owner previews it locally and has not published it with a real key; fetch it again once they have\n", terminal.Escape(kid))
			break
		}
	}
	fmt.Fprintf(stdout, "\nTo publish it under your gateway, add to agents.toml (snapshot is read relative to agents.toml's folder):\n\n")
	fmt.Fprintf(stdout, "[[remoteAgents]]\nid = %s\nsnapshot = %s\ngateway = %s   # where your gateway routes this agent\n",
		manifest.Quote(*id), manifest.Quote(filepath.ToSlash(*out)), manifest.Quote("https://gateway.example.com/a2a/"+*id))
	return nil
}

// readPinnedJWKS reads the JWKS -jwks names: a URL (fetched under the
// run's policy, as named on the command line) or a file.
func readPinnedJWKS(ctx context.Context, client *fetch.Client, src string) ([]byte, error) {
	if strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://") {
		body, _, _, err := client.GetWithin(ctx, src, nil)
		return body, err
	}
	return verify.ReadLocalFile(src, client.MaxBytes)
}

// describeSnapshot says what a snapshot holds, in one line: the card's
// name, version and shape, its skills, and what verified it.
func describeSnapshot(s *remote.Snapshot) string {
	doc, _ := card.Decode([]byte(s.Card), card.Strict) // read when it was made
	name, _ := doc["name"].(string)
	version, _ := doc["version"].(string)
	shape := "A2A 0.3"
	if _, v1 := doc["supportedInterfaces"]; v1 {
		shape = "A2A 1.0"
	}
	skills, _ := doc["skills"].([]any)
	var by string
	switch s.Verification.KeySource {
	case remote.KeysNone:
		by = "UNSIGNED, taken with -allow-unsigned: nothing vouches that its owner wrote it"
	case remote.KeysPinned:
		by = "verified with the pinned JWKS, key " + strings.Join(s.Verification.KIDs, ", ")
	default:
		by = "verified with " + s.JWKSURL + ", key " + strings.Join(s.Verification.KIDs, ", ")
	}
	return terminal.Escape(fmt.Sprintf("%q %s (%s), %s; %s", name, version, shape, plural(len(skills), "skill"), by))
}

// remoteTarget is one snapshot remote refresh refreshes.
type remoteTarget struct{ id, path string }

// remoteRefresh is `agentcards remote refresh`: every snapshot fetched
// again, compared, and rewritten only when what it says changed.
func remoteRefresh(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("remote refresh", stderr)
	manifestPath := fs.String("manifest", "agents.toml", "the manifest whose [[remoteAgents]] name the snapshots (when it has that table)")
	dir := fs.String("dir", "remote", "without [[remoteAgents]] in the manifest, or when given: refresh every *.json snapshot in this `folder`")
	allowPrivate := fs.Bool("allow-private", false, "fetch the URLs the snapshots record as if each were named on the command line (loopback over http, private and link-local addresses too), for remotes on a local or intranet network you vouch for; by default they may lead only to public addresses")
	net := remoteNetworkFlags(fs)
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return usageOrHelp(err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	targets, from, err := refreshTargets(*manifestPath, *dir, set["manifest"], set["dir"])
	if err != nil {
		return err
	}
	if targets, err = pickTargets(targets, fs.Args(), from); err != nil {
		return err
	}
	client, err := net.client()
	if err != nil {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	ctx := context.Background()
	within := fetch.PublicNetwork() // a snapshot is a file: anyone may have written it
	if *allowPrivate {
		within = nil
	}
	changed, failed := 0, 0
	for _, t := range targets {
		c, err := refreshOne(ctx, t, client, within, stdout)
		switch {
		case err != nil:
			failed++
			hint := ""
			if fetch.IsRefused(err) && !*allowPrivate {
				hint = " (refresh it with -allow-private if you vouch for the address it records)"
			}
			fmt.Fprintf(stderr, "%s: %s%s; the snapshot was left as it was\n", terminal.Escape(t.id), terminal.EscapeLines(err.Error()), hint)
		case c:
			changed++
		}
	}
	fmt.Fprintf(stdout, "refreshed %s from %s: %d changed, %d unchanged, %d failed\n",
		plural(len(targets), "snapshot"), terminal.Escape(from), changed, len(targets)-changed-failed, failed)
	if failed > 0 {
		return fmt.Errorf("%d of %s could not be refreshed (above)", failed, plural(len(targets), "snapshot"))
	}
	if changed > 0 {
		return errRemoteChanged{}
	}
	return nil
}

// refreshOne refreshes one snapshot, prints what changed, and reports
// whether anything did.
func refreshOne(ctx context.Context, t remoteTarget, client *fetch.Client, within *fetch.Network, stdout io.Writer) (bool, error) {
	old, err := remote.Read(t.path)
	if err != nil {
		return false, err
	}
	now, err := remote.Refetch(ctx, old, client, within)
	if err != nil {
		return false, err
	}
	changes, err := remote.Diff(old, now)
	if err != nil {
		return false, err
	}
	if len(changes) == 0 {
		note := ""
		if now.Card != old.Card {
			note = " (its bytes differ, what it says does not: the snapshot is kept)"
		}
		fmt.Fprintf(stdout, "%s: unchanged%s\n", terminal.Escape(t.id), note)
		return false, nil
	}
	if err := now.Write(t.path); err != nil {
		return false, err
	}
	fmt.Fprintf(stdout, "%s: changed, %s rewritten:\n", terminal.Escape(t.id), terminal.Escape(t.path))
	keys := false
	for _, c := range changes {
		fmt.Fprintf(stdout, "  %s\n", terminal.Escape(c.String()))
		keys = keys || c.Op == remote.OpKeys
	}
	if keys {
		fmt.Fprintf(stdout, "  WARNING: %s changed the keys its card is verified with: confirm with its owner that they did before you publish this\n", terminal.Escape(t.id))
	}
	return true, nil
}

// refreshTargets are the snapshots to refresh: those the manifest's
// [[remoteAgents]] name, or every *.json in dir. from says which.
func refreshTargets(manifestPath, dir string, manifestSet, dirSet bool) ([]remoteTarget, string, error) {
	if !dirSet {
		entries, found, err := manifestRemoteAgents(manifestPath, manifestSet)
		switch {
		case err != nil:
			return nil, "", err
		case found:
			return entries, manifestPath, nil
		case manifestSet:
			return nil, "", fmt.Errorf("%s has no [[remoteAgents]]: name a folder of snapshots with -dir: %w", manifestPath, errUsage)
		}
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, "", fmt.Errorf("no snapshots: %s is not a folder, and %s names no [[remoteAgents]]; make one with agentcards remote fetch: %w", dir, manifestPath, errUsage)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, "", err
	}
	var targets []remoteTarget
	for _, p := range paths {
		targets = append(targets, remoteTarget{strings.TrimSuffix(filepath.Base(p), ".json"), p})
	}
	return targets, dir, nil
}

// manifestRemoteAgents reads the [[remoteAgents]] of the manifest at path,
// if it exists (it must when required): their ids and snapshots only (made relative to its folder),
// so that a manifest that no longer loads, because a snapshot is stale, can
// still have its snapshots refreshed.
func manifestRemoteAgents(path string, required bool) (targets []remoteTarget, found bool, err error) {
	var doc struct {
		RemoteAgents []struct {
			ID       string `toml:"id"`
			Snapshot string `toml:"snapshot"`
		} `toml:"remoteAgents"`
	}
	if _, err := toml.DecodeFile(path, &doc); errors.Is(err, fs.ErrNotExist) && !required {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("%s: %v", path, err)
	}
	for i, r := range doc.RemoteAgents {
		if r.ID == "" || r.Snapshot == "" {
			return nil, true, fmt.Errorf("%s: remoteAgents[%d] needs an id and a snapshot", path, i)
		}
		p := filepath.FromSlash(r.Snapshot)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(path), p)
		}
		targets = append(targets, remoteTarget{r.ID, p})
	}
	return targets, len(doc.RemoteAgents) > 0, nil
}

// pickTargets keeps the targets ids name (all when none), in their order.
func pickTargets(targets []remoteTarget, ids []string, from string) ([]remoteTarget, error) {
	if len(targets) == 0 {
		return nil, fmt.Errorf("%s holds no snapshot: make one with agentcards remote fetch: %w", from, errUsage)
	}
	if len(ids) == 0 {
		return targets, nil
	}
	var picked []remoteTarget
	for _, id := range ids {
		i := slices.IndexFunc(targets, func(t remoteTarget) bool { return t.id == id })
		if i < 0 {
			return nil, fmt.Errorf("%s names no remote agent %q: %w", from, terminal.Escape(id), errUsage)
		}
		picked = append(picked, targets[i])
	}
	return picked, nil
}
