package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

// commandHelp is what `agentcards help CMD` and `agentcards CMD -h` print
// for one command, in one shape: synopsis, what it does, flags, examples.
type commandHelp struct {
	synopsis []string // usage lines, after "agentcards "
	about    string
	examples []string
}

// commands are the commands in the order `agentcards help` lists them.
var commands = []string{"init", "build", "serve", "verify", "lint", "keygen", "keys", "import", "mcp", "remote", "schema", "version", "help"}

var helps = map[string]commandHelp{
	"init": {
		synopsis: []string{"init [DIR]"},
		about: "Starts a project in DIR (default: this folder, made if missing): a commented agents.toml\n" +
			"with one agent, agents.schema.json for editors, site/index.md, a .gitignore for the\n" +
			"build's output and private keys, and .github/workflows/publish.yml for GitHub Pages.\n" +
			"It never overwrites a file (an existing .gitignore gets the lines it lacks).",
		examples: []string{
			"agentcards init my-agents && cd my-agents && agentcards build && agentcards serve",
			"agentcards init",
		},
	},
	"build": {
		synopsis: []string{"build [-manifest agents.toml] [-out DIR] [-key FILE]... [-v]"},
		about: "Builds and signs the site from agents.toml into public/ (site.output), and the agents'\n" +
			"extended cards into private/ (site.privateOutput). With no key configured it signs with\n" +
			"a development key kept in .agentcards/, and says so; under CI=true it refuses to.",
		examples: []string{
			"agentcards build",
			"AGENTCARDS_SIGNING_KEY=\"$(cat key.pem)\" agentcards build",
			"agentcards build -manifest site/agents.toml -out /tmp/site -key key.pem",
		},
	},
	"serve": {
		synopsis: []string{"serve [-manifest agents.toml] [-addr 127.0.0.1:8090] [-key FILE]... [-v]"},
		about: "Builds the site into a temporary folder and serves it on loopback, rebuilding when the\n" +
			"manifest, site/, templates/ or keys/ change. Ctrl-C (or SIGTERM) stops it.",
		examples: []string{
			"agentcards serve",
			"agentcards serve -addr 127.0.0.1:9000",
		},
	},
	"verify": {
		synopsis: []string{
			"verify [-jwks URL|FILE|SITE] [-all] [-strict] [-json] [-v] [-catalog] [-allow-private] [-max-entries N] TARGET...",
			"verify -extended [-H 'Name: value']... [-header-env Name=VAR]... URL...",
		},
		about: "Checks that cards are signed by keys you trust. TARGET is a card file, a built site folder,\n" +
			"a URL (an origin means its /.well-known/agent-card.json), or an AI Catalog.\n" +
			"Exit status: 0 verified, 1 not verified, 2 usage or fetch error.",
		examples: []string{
			"agentcards verify public",
			"agentcards verify https://agents.example.com",
			"agentcards verify -jwks public private/agents/ledger/extended-agent-card.json",
		},
	},
	"lint": {
		synopsis: []string{
			"lint [-manifest agents.toml] [-json] [-strict] [TARGET...]",
			"lint -rules [-json]",
		},
		about: "Checks cards for what a signature cannot vouch for: text aimed at the models that read\n" +
			"them, hidden or look-alike characters, private or plain-http endpoints, credentials, no\n" +
			"security requirement (safety), and what makes an agent hard to choose (quality).\n" +
			"TARGET is a manifest (default agents.toml), a built site folder, a card file or a URL.\n" +
			"A rule is silenced for one agent, with the reason, in [agents.lint.silence].\n" +
			"Exit status: 0 no errors (with -strict: no warnings either), 1 problems found,\n" +
			"2 usage error or a target that could not be read (the others are still linted).",
		examples: []string{
			"agentcards lint",
			"agentcards lint -strict public",
			"agentcards lint -json https://agent.example.com",
			"agentcards lint -rules",
		},
	},
	"keygen": {
		synopsis: []string{"keygen [-alg Ed25519|ES256|RS256|PS256] [-out FILE] [-keys DIR] [-from FILE] [-manifest agents.toml]"},
		about: "Makes a signing key: the private half goes to .agentcards/signing-key-<kid12>.pem\n" +
			"(<kid12>: the first 12 characters of its kid; git-ignored), the public half to keys/<kid>.json.",
		examples: []string{
			"agentcards keygen",
			"gh secret set AGENTCARDS_SIGNING_KEY --env signing < .agentcards/signing-key-<kid12>.pem",
			"agentcards keygen -from existing-key.pem",
		},
	},
	"keys": {
		synopsis: []string{
			"keys list",
			"keys next [-alg A] [-out FILE]",
			"keys promote KID",
			"keys retire KID",
			"keys drop [-force] KID",
		},
		about: "Rotates signing keys, with their states in keys/rotation.toml. A KID may be given by a\n" +
			"unique prefix, and may start with '-'.\n" +
			"  list     every key in the keys folder, its alg and state\n" +
			"  next     make the next key: published in the JWKS, not signing yet\n" +
			"  promote  the next key starts signing (old and new sign during the overlap)\n" +
			"  retire   an active key stops signing; it stays in the JWKS\n" +
			"  drop     remove a retired key from the keys folder (after a week)",
		examples: []string{
			"agentcards keys list",
			"agentcards keys next",
			"agentcards keys promote 3Xn1",
		},
	},
	"import": {
		synopsis: []string{"import [-id ID] [-append agents.toml] [-catalog] [-allow-private] [-max-entries N] SOURCE"},
		about: "Turns existing agent cards (v1.0, v0.3, v0.2, registry shapes; a file or a URL) into\n" +
			"[[agents]] tables, printed or appended to a manifest.",
		examples: []string{
			"agentcards import https://agent.example.com/.well-known/agent-card.json",
			"agentcards import -append agents.toml card.json",
			"agentcards import -catalog https://directory.example.net",
		},
	},
	"mcp": {
		synopsis: []string{"mcp fetch [-o FILE] [-H 'Name: value']... [-header-env Name=VAR]... URL"},
		about: "Reads an MCP server's tools, resources and prompts (Streamable HTTP, official Go SDK)\n" +
			"into a snapshot file for [[mcpServers]].",
		examples: []string{
			"agentcards mcp fetch -o mcp/weather.json https://mcp.example.com/mcp",
			"MCP_TOKEN=... agentcards mcp fetch -header-env Authorization=MCP_TOKEN -o mcp/weather.json https://mcp.example.com/mcp",
		},
	},
	"remote": {
		synopsis: []string{
			"remote fetch [-o remote/<id>.json] [-id ID] [-jwks FILE|URL] [-allow-unsigned] URL",
			"remote refresh [-manifest agents.toml] [-dir remote] [-allow-private] [ID...]",
		},
		about: "Snapshots other people's A2A agent cards for [[remoteAgents]], which publishes them under\n" +
			"your gateway, signed by you. fetch takes a card (an origin means its\n" +
			"/.well-known/agent-card.json), verifies it with its origin's JWKS (or -jwks), and writes\n" +
			"the card, the JWKS and the result. refresh fetches every snapshot again and prints what\n" +
			"changed (skills, interfaces, security, keys), rewriting only the snapshots that changed.\n" +
			"Exit status of refresh: 0 nothing changed, 1 a card changed or could not be fetched, 2 usage.\n" +
			"\"agentcards remote fetch -h\" and \"agentcards remote refresh -h\" list their flags.",
		examples: []string{
			"agentcards remote fetch https://travel.partner.example",
			"agentcards remote fetch -id partner-travel -jwks partner-jwks.json https://travel.partner.example/.well-known/agent-card.json",
			"agentcards remote refresh",
			"agentcards remote refresh partner-travel",
		},
	},
	"schema": {
		synopsis: []string{"schema"},
		about: "Prints the JSON Schema of agents.toml, made from the types the manifest is read into.\n" +
			"Editors that read Taplo's directive complete keys and explain them when agents.toml\n" +
			"starts with a line naming it (VS Code: the Even Better TOML extension).",
		examples: []string{
			"agentcards schema > agents.schema.json   # then: #:schema ./agents.schema.json",
			"#:schema " + manifest.SchemaID,
		},
	},
	"version": {
		synopsis: []string{"version", "-version"},
		about:    "Prints the module version, the VCS revision and the Go version it was built with.",
		examples: []string{"agentcards version"},
	},
	"help": {
		synopsis: []string{"help [COMMAND]"},
		about:    "Lists the commands, or describes one.",
		examples: []string{"agentcards help", "agentcards help verify"},
	},
}

// printHelp writes a command's help; fs, when not nil, gives its flags.
func printHelp(w io.Writer, name string, fs *flag.FlagSet) {
	h := helps[name]
	fmt.Fprintln(w, "Usage:")
	for _, s := range h.synopsis {
		fmt.Fprintf(w, "  agentcards %s\n", s)
	}
	fmt.Fprintf(w, "\n%s\n", h.about)
	if fs != nil {
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nFlags:")
			out := fs.Output()
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(out)
		}
	}
	fmt.Fprintln(w, "\nExamples:")
	for _, e := range h.examples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// usage is what `agentcards` and `agentcards help` print.
func usage() string {
	var b strings.Builder
	b.WriteString("agentcards publishes signed A2A Agent Cards as a static site.\n\nUsage:\n")
	for _, c := range commands {
		for _, s := range helps[c].synopsis {
			if !strings.HasPrefix(s, "-") {
				fmt.Fprintf(&b, "  agentcards %s\n", s)
			}
		}
	}
	b.WriteString("\nRun \"agentcards help COMMAND\" (or \"agentcards COMMAND -h\") for a command's flags and examples.\nREADME.md has the rest.\n")
	return b.String()
}

// runHelp is `agentcards help [COMMAND]`: the list, or a command's help
// with its flags (from the command's own flag set, asked for -h).
func runHelp(args []string, stdout, stderr io.Writer, getenv env) error {
	args = withoutHelpFlags(args) // "help -h", "help build -h": help all the same
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, usage())
		return nil
	case len(args) > 1:
		return fmt.Errorf("help takes one command: %w", errUsage)
	}
	name := args[0]
	run, ok := runners()[name]
	if !ok || name == "help" || name == "version" {
		if _, known := helps[name]; known {
			printHelp(stdout, name, nil)
			return nil
		}
		return fmt.Errorf("unknown command %q%s: %w", name, didYouMean(name), errUsage)
	}
	// The command prints its help, flags included, where it was asked to.
	err := run([]string{"-h"}, stdout, stdout, getenv)
	if err == nil || err == flag.ErrHelp {
		return nil
	}
	return err
}

// withoutHelpFlags is args without -h, -help and --help.
func withoutHelpFlags(args []string) []string {
	var kept []string
	for _, a := range args {
		if a != "-h" && a != "-help" && a != "--help" {
			kept = append(kept, a)
		}
	}
	return kept
}

// didYouMean is " (did you mean X?)" for the command closest to name, or
// "".
func didYouMean(name string) string {
	best, bestDist := "", 3
	for _, c := range commands {
		if d := manifest.EditDistance(strings.ToLower(name), c); d < bestDist && d <= len(c)/2 {
			best, bestDist = c, d
		}
		if strings.HasPrefix(c, strings.ToLower(name)) && len(name) >= 2 && best == "" {
			best = c
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
