package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/importer"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/terminal"
)

func runImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	id := fs.String("id", "", "agent id to use (default: from the card's id or name)")
	appendTo := fs.String("append", "", "append the block to this `manifest` (it must still load) instead of printing it")
	cacert := fs.String("cacert", "", "trust only the CA certificates in this PEM `file` for https")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: agentcards import [-id ID] [-append agents.toml] SOURCE\n\n"+
			"SOURCE is a card file or URL (A2A v1.0, v0.3, v0.2, or an older registry shape).\n"+
			"Prints an [[agents]] block for agents.toml; what cannot be carried is named on stderr.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	src := fs.Arg(0)
	var data []byte
	var err error
	if strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://") {
		client := &fetch.Client{}
		if *cacert != "" {
			if client.RootCAs, err = fetch.LoadRootCAs(*cacert); err != nil {
				return fmt.Errorf("%v: %w", err, errUsage)
			}
		}
		if data, _, err = client.Get(context.Background(), src); err != nil {
			return fmt.Errorf("%v: %w", err, errUsage)
		}
	} else if data, err = os.ReadFile(src); err != nil {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	res, err := importer.Card(data, *id)
	if err != nil {
		return fmt.Errorf("%s: %v", redacted(src), err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", terminal.Escape(w))
	}
	block := manifest.EncodeAgent(&res.Agent)
	header := fmt.Sprintf("# Imported from %s (A2A %s card).\n", redacted(src), res.Version)

	if *appendTo == "" {
		// Check that the block builds, in a manifest of its own.
		probe := append([]byte("[site]\nbaseUrl = \"https://agents.example.com\"\n\n"), block...)
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
	old, err := os.ReadFile(*appendTo)
	if err != nil {
		return err
	}
	next := bytes.TrimRight(old, "\n")
	next = append(next, "\n\n"...)
	next = append(next, header...)
	next = append(next, block...)
	if _, err := manifest.Parse(*appendTo, next); err != nil {
		var errs manifest.Errors
		if errors.As(err, &errs) {
			for _, d := range errs {
				fmt.Fprintln(stderr, terminal.Escape(d.String()))
			}
		}
		return fmt.Errorf("%s would not load with the imported agent, so it was left unchanged; print the block (without -append) and edit it in by hand", *appendTo)
	}
	if err := os.WriteFile(*appendTo, next, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "appended agent %q to %s\n", res.Agent.ID, *appendTo)
	return nil
}
