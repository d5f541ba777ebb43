package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentcards/agentcards/internal/aicatalog"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/importer"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/terminal"
	"github.com/agentcards/agentcards/internal/verify"
)

// importMaxBytes is the largest local file import reads (a catalog may be
// large; a card is far smaller).
const importMaxBytes = 64 << 20

func runImport(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("import", stderr)
	id := fs.String("id", "", "agent id to use (default: from the card's id or name)")
	appendTo := fs.String("append", "", "append the block to this `manifest` (it must still load) instead of printing it")
	cacert := fs.String("cacert", "", "trust only the CA certificates in this PEM `file` for https")
	asCatalog := fs.Bool("catalog", false, "SOURCE is an AI Catalog (an origin means its /.well-known/ai-catalog.json): import every A2A card it lists (default for a URL or file named ai-catalog.json, or a file holding a catalog)")
	allowPrivate := fs.Bool("allow-private", false, "with a catalog file: fetch the URLs it names as if each were named on the command line (loopback over http, private and link-local addresses too), for a catalog of local or intranet agents you vouch for; by default they may lead only to public addresses, as a public catalog's may")
	maxEntries := fs.Int("max-entries", aicatalog.DefaultMaxEntries, "with a catalog: take at most `N` entries in all, nested catalogs' included, breadth-first in catalog order")
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	src := fs.Arg(0)
	client := &fetch.Client{Pins: &fetch.Pins{}} // one network policy for the run
	var err error
	if *cacert != "" {
		if client.RootCAs, err = fetch.LoadRootCAs(*cacert); err != nil {
			return fmt.Errorf("%v: %w", err, errUsage)
		}
	}
	ctx := context.Background()
	remote := strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://")
	if remote && (*asCatalog || aicatalog.IsCatalogName(src)) {
		return importCatalog(ctx, src, nil, client, catalogFlags{*id, *appendTo, *maxEntries, *allowPrivate}, stdout, stderr)
	}
	var data []byte
	if remote {
		if data, _, err = client.Get(ctx, src); err != nil {
			return fmt.Errorf("%v: %w", err, errUsage)
		}
	} else if data, err = verify.ReadLocalFile(src, importMaxBytes); err != nil {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	if *asCatalog || aicatalog.IsCatalogName(src) || isCatalog(data) {
		return importCatalog(ctx, src, data, client, catalogFlags{*id, *appendTo, *maxEntries, *allowPrivate}, stdout, stderr)
	}
	res, err := importer.Card(data, *id)
	if err != nil {
		return fmt.Errorf("%s: %v", redacted(src), err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", terminal.Escape(w))
	}
	block := manifest.EncodeAgent(&res.Agent)
	header := fmt.Sprintf("# Imported from %s (A2A %s card).\n", terminal.Escape(redacted(src)), res.Version)
	return writeImported(block, header, res.Agent.ID, 1, *appendTo, stdout, stderr)
}

// isCatalog reports whether a document is an AI Catalog rather than a
// card: an object with an entries array and no name.
func isCatalog(data []byte) bool {
	var probe struct {
		Entries []json.RawMessage `json:"entries"`
		Name    *json.RawMessage  `json:"name"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Entries != nil && probe.Name == nil
}

// catalogFlags are the flags of import that steer a catalog's.
type catalogFlags struct {
	id, appendTo string
	maxEntries   int
	allowPrivate bool // -allow-private
}

// importCatalog imports every A2A card a catalog lists: data is the
// catalog file, or nil for a URL, which is fetched (again, when it was
// read as a card first) for the network it reaches, which bounds where
// its entries may lead. A file's entries may lead only to public
// addresses, unless -allow-private.
func importCatalog(ctx context.Context, src string, data []byte, client *fetch.Client, f catalogFlags, stdout, stderr io.Writer) error {
	id, appendTo, maxEntries := f.id, f.appendTo, f.maxEntries
	if id != "" {
		return fmt.Errorf("-id names one agent; a catalog's agents take their ids from their entries: %w", errUsage)
	}
	catClient := *client
	catClient.MaxBytes = catalogMaxBytes
	var root aicatalog.Doc
	if data != nil && !strings.HasPrefix(src, "https://") && !strings.HasPrefix(src, "http://") {
		root = aicatalog.Doc{Source: src, Body: data, AllowPrivate: f.allowPrivate}
	} else {
		var err error
		if root, err = aicatalog.Fetch(ctx, src, &catClient); err != nil {
			return fmt.Errorf("%v: %w", err, errUsage)
		}
	}
	taken := map[string]bool{}
	if appendTo != "" {
		m, err := manifest.Load(appendTo)
		if err != nil {
			return fmt.Errorf("%s must load before agents are appended to it: %v", appendTo, err)
		}
		for _, a := range m.Agents {
			taken[a.ID] = true
		}
	}
	res := importer.Catalog(ctx, root, importer.CatalogOptions{Cards: client, Catalogs: &catClient, MaxEntries: maxEntries, Taken: taken})
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", terminal.Escape(w))
	}
	if len(res.Agents) == 0 {
		return fmt.Errorf("%s: no A2A agent could be imported from the catalog", redacted(src))
	}
	var blocks []byte
	for i, a := range res.Agents {
		if i > 0 {
			blocks = append(blocks, '\n')
		}
		// A comment line: text from the catalog is escaped, so that no
		// line break in it can write TOML.
		blocks = fmt.Appendf(blocks, "# Imported from %s (A2A %s card), entry %s of %s.\n", terminal.Escape(a.Source), a.Version, terminal.Escape(a.Entry.Identifier), terminal.Escape(redacted(src)))
		blocks = append(blocks, manifest.EncodeAgent(&a.Agent)...)
	}
	if res.Failed > 0 || res.Skipped > 0 {
		what := fmt.Sprintf("%d of the catalog's A2A entries could not be imported (warnings above)", res.Failed)
		switch {
		case res.Failed == 0:
			what = fmt.Sprintf("%d of the catalog's entries were past -max-entries and not taken (warnings above)", res.Skipped)
		case res.Skipped > 0:
			what += fmt.Sprintf(", and %d entries were past -max-entries and not taken", res.Skipped)
		}
		if appendTo != "" {
			return fmt.Errorf("%s, so %s was left unchanged; import them one by one, or print the blocks (without -append) and edit them in", what, appendTo)
		}
		stdout.Write(blocks)
		return fmt.Errorf("%s; the others are printed", what)
	}
	return writeImported(blocks, "", res.Agents[0].Agent.ID, len(res.Agents), appendTo, stdout, stderr)
}

// catalogMaxBytes is the largest catalog import reads.
const catalogMaxBytes = 64 << 20

// writeImported prints the agents' blocks (n agents, the first with id
// first), checked to build, or appends them to the manifest appendTo when
// it still loads with them.
func writeImported(block []byte, header, first string, n int, appendTo string, stdout, stderr io.Writer) error {
	if appendTo == "" {
		// Check that the block builds, in a manifest of its own.
		probe := fmt.Appendf(nil, "[site]\nbaseUrl = \"https://agents.example.com\"\ndefaultAgent = %q\n\n", first)
		probe = append(probe, block...)
		if _, err := manifest.Parse("imported block", probe); err != nil {
			var errs manifest.Errors
			if errors.As(err, &errs) {
				for _, d := range errs {
					fmt.Fprintf(stderr, "warning: edit before building: %s: %s\n", terminal.Escape(d.Path), terminal.Escape(d.Msg))
				}
			}
		}
		fmt.Fprint(stdout, header)
		_, err := stdout.Write(block)
		return err
	}
	old, err := os.ReadFile(appendTo)
	if err != nil {
		return err
	}
	next := bytes.TrimRight(old, "\n")
	next = append(next, "\n\n"...)
	next = append(next, header...)
	next = append(next, block...)
	if _, err := manifest.Parse(appendTo, next); err != nil {
		var errs manifest.Errors
		if errors.As(err, &errs) {
			for _, d := range errs {
				fmt.Fprintln(stderr, terminal.Escape(d.String()))
			}
		}
		return fmt.Errorf("%s would not load with the imported agent(s), so it was left unchanged; print the block (without -append) and edit it in by hand", appendTo)
	}
	if err := os.WriteFile(appendTo, next, 0o644); err != nil {
		return err
	}
	if n == 1 {
		fmt.Fprintf(stdout, "appended agent %q to %s\n", first, appendTo)
	} else {
		fmt.Fprintf(stdout, "appended %s to %s\n", plural(n, "agent"), appendTo)
	}
	return nil
}
