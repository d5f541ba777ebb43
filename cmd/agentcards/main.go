// Command agentcards builds a static site of signed A2A Agent Cards from
// agents.toml.
//
//	agentcards build  [-manifest agents.toml] [-out DIR] [-key FILE]...
//	agentcards keygen [-alg Ed25519|ES256|RS256|PS256] [-out FILE] [-keys DIR] [-from FILE] [-manifest agents.toml]
//	agentcards verify [-jwks URL|FILE|SITE] [-all] [-strict] [-json] TARGET...
//	agentcards verify -extended [-H 'Name: value']... [-header-env Name=VAR]... URL...
//	agentcards import [-id ID] [-append agents.toml] SOURCE
//	agentcards serve  [-manifest agents.toml] [-addr 127.0.0.1:8090] [-key FILE]...
//	agentcards keys   list | next | promote KID | retire KID | drop KID
//	agentcards mcp fetch [-o FILE] [-H 'Name: value']... [-header-env Name=VAR]... URL
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

const usage = `agentcards publishes signed A2A Agent Cards as a static site.

Usage:
  agentcards build  [-manifest agents.toml] [-out DIR] [-key FILE]...
  agentcards keygen [-alg Ed25519|ES256|RS256|PS256] [-out FILE] [-keys DIR] [-from FILE] [-manifest agents.toml]
  agentcards keys   list | next | promote KID | retire KID | drop KID
  agentcards verify [-jwks URL|FILE|SITE] [-all] [-strict] [-json] TARGET...
  agentcards verify -extended [-H 'Name: value']... [-header-env Name=VAR]... URL...
  agentcards import [-id ID] [-append agents.toml] SOURCE
  agentcards serve  [-manifest agents.toml] [-addr 127.0.0.1:8090] [-key FILE]...
  agentcards mcp fetch [-o FILE] [-H 'Name: value']... [-header-env Name=VAR]... URL

Run "agentcards <command> -h" for a command's flags. README.md has the rest.
`

// env looks up an environment variable ("" when unset).
type env func(string) string

// errUsage marks errors that are the caller's invocation, not the work.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer, getenv env) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "build":
		err = runBuild(args[1:], stdout, stderr, getenv)
	case "keygen":
		err = runKeygen(args[1:], stdout, stderr, getenv)
	case "verify":
		err = runVerify(args[1:], stdout, stderr, getenv)
	case "import":
		err = runImport(args[1:], stdout, stderr)
	case "serve":
		err = runServe(args[1:], stdout, stderr, getenv)
	case "keys":
		err = runKeys(args[1:], stdout, stderr, getenv)
	case "mcp":
		err = runMCP(args[1:], stdout, stderr, getenv)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "agentcards: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(errNotVerified)):
		return 1
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

// newFlags makes a FlagSet that reports its errors as usage errors.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("agentcards "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	return nil
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
