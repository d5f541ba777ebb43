package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcards/agentcards/internal/scaffold"
	"github.com/agentcards/agentcards/internal/terminal"
)

// runInit writes a new project into DIR (default: the working folder) and
// prints the next two commands.
func runInit(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("init", stderr)
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("init takes one folder, not %d arguments: %w", fs.NArg(), errUsage)
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	res, err := scaffold.Write(dir)
	if err != nil {
		return err
	}
	for _, p := range res.Created {
		fmt.Fprintf(stdout, "created %s\n", terminal.Escape(filepath.Join(dir, filepath.FromSlash(p))))
	}
	for _, p := range res.Amended {
		fmt.Fprintf(stdout, "added the build's output folders and key files to %s\n", terminal.Escape(filepath.Join(dir, filepath.FromSlash(p))))
	}
	fmt.Fprintln(stdout, "\nNext: build the site (signed with a development key until you make a real one), then preview it:")
	if filepath.Clean(dir) != "." {
		fmt.Fprintf(stdout, "  cd %s\n", terminal.Escape(shellQuote(dir)))
	}
	fmt.Fprintln(stdout, "  agentcards build")
	fmt.Fprintln(stdout, "  agentcards serve")
	if exe, err := os.Executable(); err == nil && strings.Contains(filepath.ToSlash(exe), "/go-build") {
		fmt.Fprintln(stdout, "(this ran through `go run`: install the command with `go install ./cmd/agentcards` in the agentcards clone)")
	}
	return nil
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and ./_-+,:@%.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./_-+,:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
