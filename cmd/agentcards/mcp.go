package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentcards/agentcards/internal/atomicfile"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/mcp"
	"github.com/agentcards/agentcards/internal/terminal"
)

// mcpFetchOptions are the flags of mcp fetch.
type mcpFetchOptions struct {
	out, cacert        *string
	headers, headerEnv *multiFlag
	timeout            *time.Duration
	maxBytes           *int64
}

// mcpFetchFlags defines mcp fetch's flags on fs.
func mcpFetchFlags(fs *flag.FlagSet) mcpFetchOptions {
	var o mcpFetchOptions
	o.out = fs.String("o", "", "write the snapshot to this `file` (default: standard output)")
	o.headers, o.headerEnv = new(multiFlag), new(multiFlag)
	fs.Var(o.headers, "H", "send this header with every request (`'Name: value'`; repeatable)")
	fs.Var(o.headerEnv, "header-env", "send header Name with the value of environment variable VAR (`Name=VAR`; repeatable), which keeps the value out of shell history")
	o.timeout = fs.Duration("timeout", fetch.DefaultTimeout, "timeout for each HTTP request")
	o.maxBytes = fs.Int64("max-bytes", fetch.DefaultMaxBytes, "largest response read, in bytes")
	o.cacert = fs.String("cacert", "", "trust only the CA certificates in this PEM `file` for https (default: the system's)")
	return o
}

func runMCP(args []string, stdout, stderr io.Writer, getenv env) error {
	if len(args) == 0 || args[0] != "fetch" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
			fs := newFlags("mcp fetch", stdout)
			mcpFetchFlags(fs)
			fs.Usage()
			return nil
		}
		fs := newFlags("mcp fetch", stderr)
		mcpFetchFlags(fs)
		fs.Usage()
		if len(args) > 0 {
			hint := ""
			if manifest.EditDistance(strings.ToLower(args[0]), "fetch") <= 2 {
				hint = ` (did you mean "fetch"?)`
			}
			return fmt.Errorf("unknown command %q%s; it takes fetch: %w", args[0], hint, errUsage)
		}
		return errUsage
	}
	fs := newFlags("mcp fetch", stderr)
	f := mcpFetchFlags(fs)
	out, timeout, maxBytes, cacert := f.out, f.timeout, f.maxBytes, f.cacert
	headers, headerEnv := f.headers, f.headerEnv
	if err := fs.Parse(flagsFirst(fs, args[1:])); err != nil {
		return usageOrHelp(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	endpoint := fs.Arg(0)
	h, err := requestHeaders(*headers, *headerEnv, getenv)
	if err != nil {
		return fmt.Errorf("%v: %w", err, errUsage)
	}
	opts := mcp.FetchOptions{Header: h, Limits: fetch.Client{Timeout: *timeout, MaxBytes: *maxBytes}}
	if *cacert != "" {
		pool, err := fetch.LoadRootCAs(*cacert)
		if err != nil {
			return fmt.Errorf("%v: %w", err, errUsage)
		}
		opts.Limits.RootCAs = pool
	}
	s, err := mcp.Fetch(context.Background(), endpoint, opts)
	if err != nil {
		if strings.Contains(err.Error(), "Not Found") {
			return fmt.Errorf("%w\n(is the URL the server's Streamable HTTP endpoint? it is often the path /mcp)", err)
		}
		return err
	}
	data, err := s.Marshal()
	if err != nil {
		return err
	}
	if *out == "" {
		_, err := stdout.Write(data)
		return err
	}
	if err := writeFileAtomic(*out, data); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s: %s %s, %s, %s, %s (MCP %s)\n", terminal.Escape(*out),
		terminal.Escape(s.ServerInfo.Name), terminal.Escape(s.ServerInfo.Version),
		plural(len(s.Tools), "tool"), plural(len(s.Resources), "resource"), plural(len(s.Prompts), "prompt"),
		terminal.Escape(s.ProtocolVersion))
	fmt.Fprintf(stderr, "\nTo publish it, add to agents.toml (edit the name and description; tools is read relative to agents.toml's folder):\n\n%s", suggestTable(*out, endpoint, s, h))
	return nil
}

// requestHeaders gathers -H and -header-env into one header.
func requestHeaders(flags, fromEnv []string, getenv env) (http.Header, error) {
	h := http.Header{}
	for i, f := range flags {
		name, value, ok := strings.Cut(f, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || !manifest.IsHTTPToken(name) {
			// Not repeated: a mistyped header may be all credential.
			return nil, fmt.Errorf("-H number %d is not a header: write it as 'Name: value'", i+1)
		}
		if !validHeaderValue(value) {
			return nil, fmt.Errorf("-H %s: the value holds a line break or another control character (not repeated here), which could smuggle in more headers", name)
		}
		h.Add(name, value)
	}
	for _, f := range fromEnv {
		name, variable, ok := strings.Cut(f, "=")
		if !ok || !manifest.IsHTTPToken(name) || variable == "" {
			return nil, fmt.Errorf("-header-env %q: write it as Name=VARIABLE", terminal.Escape(f))
		}
		value := getenv(variable)
		if value == "" {
			return nil, fmt.Errorf("-header-env %s: environment variable %s is empty or unset", terminal.Escape(name), terminal.Escape(variable))
		}
		if !validHeaderValue(value) {
			return nil, fmt.Errorf("-header-env %s: environment variable %s holds a line break or another control character (not repeated here), which could smuggle in more headers", name, terminal.Escape(variable))
		}
		h.Add(name, value)
	}
	return h, nil
}

// validHeaderValue reports whether s may be an HTTP field value: no
// control characters but tab (RFC 9110 section 5.5).
func validHeaderValue(s string) bool {
	for _, r := range s {
		if r < ' ' && r != '\t' || r == 0x7f {
			return false
		}
	}
	return true
}

// writeFileAtomic replaces path with data, never leaving it half-written,
// making its folder if need be.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o644)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// suggestTable is an [[mcpServers]] table for a snapshot just written.
func suggestTable(out, endpoint string, s *mcp.Snapshot, headers http.Header) string {
	id := strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
	id = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, id)
	id = strings.Trim(id, "-")
	if id == "" {
		id = "server"
	}
	name := "com.example/" + id
	if u, err := url.Parse(endpoint); err == nil && u.Hostname() != "" && !fetch.IsLoopback(u.Hostname()) {
		labels := strings.Split(strings.ToLower(u.Hostname()), ".")
		slices.Reverse(labels)
		name = strings.Join(labels, ".") + "/" + id
	}
	title := s.ServerInfo.Title
	if title == "" {
		title = s.ServerInfo.Name
	}
	version := s.ServerInfo.Version
	if version == "" {
		version = "1.0.0"
	}
	remote := mcp.Redact(endpoint)
	var b strings.Builder
	fmt.Fprintf(&b, "[[mcpServers]]\nid = %s\nname = %s\ntitle = %s\ndescription = %s\nversion = %s\ntools = %s\n\n[[mcpServers.remotes]]\ntype = \"streamable-http\"\nurl = %s\n",
		manifest.Quote(id), manifest.Quote(name), manifest.Quote(title), manifest.Quote("What "+title+" does, in at most 100 characters"),
		manifest.Quote(version), manifest.Quote(filepath.ToSlash(out)), manifest.Quote(remote))
	if s.ProtocolVersion != "" {
		fmt.Fprintf(&b, "supportedProtocolVersions = [%s]\n", manifest.Quote(s.ProtocolVersion))
	}
	// The headers the fetch needed, by name only: clients send their own.
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		fmt.Fprintf(&b, "\n[[mcpServers.remotes.headers]]\nname = %s\nisRequired = true\nisSecret = true\n", manifest.Quote(name))
	}
	return b.String()
}
