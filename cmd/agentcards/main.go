// Command agentcards builds a static site of signed A2A Agent Cards from
// agents.toml.
//
//	agentcards init   [DIR]
//	agentcards build  [-manifest agents.toml] [-out DIR] [-key FILE]...
//	agentcards schema
//	agentcards version
//	agentcards keygen [-alg Ed25519|ES256|RS256|PS256] [-out FILE] [-keys DIR] [-from FILE] [-manifest agents.toml]
//	agentcards verify [-jwks URL|FILE|SITE] [-all] [-strict] [-json] TARGET...
//	agentcards verify -extended [-H 'Name: value']... [-header-env Name=VAR]... URL...
//	agentcards lint   [-manifest agents.toml] [-json] [-strict] [-rules] [TARGET...]
//	agentcards import [-id ID] [-append agents.toml] SOURCE
//	agentcards serve  [-manifest agents.toml] [-addr 127.0.0.1:8090] [-key FILE]...
//	agentcards keys   list | next | promote KID | retire KID | drop KID
//	agentcards mcp fetch [-o FILE] [-H 'Name: value']... [-header-env Name=VAR]... URL
//	agentcards remote fetch [-o remote/<id>.json] [-id ID] [-jwks FILE|URL] [-allow-unsigned] URL
//	agentcards remote refresh [-manifest agents.toml] [-dir remote] [-allow-private] [ID...]
//
// Exit codes: 0 success, 1 the command failed, 2 usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentcards/agentcards/internal/terminal"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// env looks up an environment variable ("" when unset).
type env func(string) string

// errUsage marks errors that are the caller's invocation, not the work.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer, getenv env) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	var err error
	switch name := args[0]; name {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	case "-version", "--version":
		err = runVersion(nil, stdout, stderr, getenv)
	default:
		r, ok := runners()[name]
		if !ok {
			fmt.Fprintf(stderr, "agentcards: unknown command %q%s\n\n%s", terminal.Escape(name), didYouMean(name), usage())
			return 2
		}
		if asksForHelp(args[1:]) {
			stderr = stdout // help that was asked for is output, as with `agentcards help CMD`
		}
		err = r(args[1:], stdout, stderr, getenv)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(errNotVerified)), errors.As(err, new(errLintFailed)), errors.As(err, new(errRemoteChanged)):
		return 1
	case errors.As(err, new(errLintUnread)):
		return 2
	case errors.Is(err, errUsage):
		msg := strings.TrimSuffix(strings.TrimSuffix(err.Error(), errUsage.Error()), ": ")
		if msg != "" {
			fmt.Fprintf(stderr, "agentcards %s: %s\n", args[0], terminal.EscapeLines(msg))
		}
		return 2
	default:
		fmt.Fprintf(stderr, "agentcards %s: %s\n", args[0], terminal.EscapeLines(err.Error()))
		return 1
	}
}

// asksForHelp reports whether args hold -h, -help or --help before any
// "--".
func asksForHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// runner runs one command.
type runner func(args []string, stdout, stderr io.Writer, getenv env) error

// runners are the commands by name.
func runners() map[string]runner {
	return map[string]runner{
		"init": runInit, "build": runBuild, "keygen": runKeygen, "verify": runVerify, "lint": runLint, "import": runImport,
		"serve": runServe, "keys": runKeys, "mcp": runMCP, "remote": runRemote, "schema": runSchema, "version": runVersion, "help": runHelp,
	}
}

// newFlags makes a FlagSet that reports its errors as usage errors and
// prints the command's help (printHelp) for -h; name is the command, with
// its subcommand ("keys retire").
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("agentcards "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	top, _, _ := strings.Cut(name, " ")
	fs.Usage = func() { printHelp(fs.Output(), top, fs) }
	return fs
}

// parseFlags parses args, flags anywhere among them (see flagsFirst), for a
// command that takes no other argument.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	return nil
}

// flagsFirst moves the flags of args before the other arguments, so that
// "lint card.json -json" means "lint -json card.json" (package flag stops
// at the first argument that is not a flag). "--" ends the flags; "-"
// alone is an argument.
func flagsFirst(fs *flag.FlagSet, args []string) []string {
	return reorderFlags(fs, args, false)
}

// kidsAfterFlags is flagsFirst for `keys`, where only the flags fs defines
// (and -h) are read as flags: about one RFC 7638 thumbprint in 64 starts
// with '-', and such a kid, as the tool itself prints it, must still name
// a key.
func kidsAfterFlags(fs *flag.FlagSet, args []string) []string {
	return reorderFlags(fs, args, true)
}

// reorderFlags moves the flags of args before "--" and the other
// arguments. With unknownAreArguments, an argument that looks like a flag
// fs does not define (but -h) is an argument.
func reorderFlags(fs *flag.FlagSet, args []string, unknownAreArguments bool) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			rest = append(rest, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil && unknownAreArguments && name != "h" && name != "help" {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		if f == nil || hasValue {
			continue // an unknown flag (or -h): Parse says so
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !(ok && b.IsBoolFlag()) {
			if i+1 == len(args) {
				// The last argument is a flag that takes a value and has
				// none: Parse must say so, not take the "--" added
				// below for its value ("build -out" writing to "--").
				return flags
			}
			i++
			flags = append(flags, args[i])
		}
	}
	return append(append(flags, "--"), rest...)
}

// usageOrHelp turns a flag parsing error into errUsage (flag has printed
// it), keeping -h a success.
func usageOrHelp(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return errUsage
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
