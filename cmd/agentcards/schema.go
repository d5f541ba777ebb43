package main

import (
	"io"

	"github.com/agentcards/agentcards/internal/manifest"
)

// runSchema prints the JSON Schema of agents.toml, made from the same Go
// types the manifest is read into.
func runSchema(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("schema", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	b, err := manifest.Schema()
	if err != nil {
		return err
	}
	_, err = stdout.Write(b)
	return err
}
