package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/preview"
	"github.com/agentcards/agentcards/internal/sign"
)

func runServe(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("serve", stderr)
	manifestPath := fs.String("manifest", "agents.toml", "the manifest to serve")
	addr := fs.String("addr", preview.DefaultAddr, "listen address (loopback only)")
	var keyFiles multiFlag
	fs.Var(&keyFiles, "key", "private signing key PEM `file` (repeatable; also $"+sign.EnvSigningKey+"; default: the keys keygen left in .agentcards/, else the development key)")
	verbose := fs.Bool("v", false, "print every note of each build, also those that ask nothing of you")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if _, err := os.Stat(*manifestPath); err != nil {
		return fmt.Errorf("%v (run it where agents.toml is, or pass -manifest)", err)
	}
	privs, err := keyring.Read(keyFiles, getenv(sign.EnvSigningKey))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := preview.Start(ctx, preview.Config{Manifest: *manifestPath, Addr: *addr, Keys: privs, Secret: getenv(sign.EnvSigningKey), Log: stderr, Verbose: *verbose})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving %s/ (rebuilds on changes to the manifest, site/, templates/ and keys/, and open pages reload; Ctrl-C stops)\n", srv.URL)
	<-srv.Done()
	fmt.Fprintln(stdout, "stopped")
	return nil
}
