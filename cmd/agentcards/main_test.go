package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentcards/agentcards/internal/mcp/mcptest"
)

var update = flag.Bool("update", false, "rewrite testscript golden sections")

// TestMain lets the scripts run the agentcards command in-process
// (as "exec agentcards ...").
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"agentcards": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) },
	})
}

// TestScripts runs the end-to-end scenarios in testdata/script.
//
// Besides testscript's own environment, scripts see:
//
//	KEYS     the repository's testdata/keys, made absolute (published TEST
//	         keys; their public JWKs are in $KEYS/public)
//	EXAMPLE  the repository's example agents.toml, made absolute
//
// and extra commands: status, capture, serve, jsonedit, protected and
// mcpserver (see cmdStatus, cmdCapture, cmdServe, cmdJSONEdit,
// cmdProtected, cmdMCPServer).
func TestScripts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join(root, "testdata", "script"),
		UpdateScripts: *update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("KEYS", filepath.Join(root, "testdata", "keys"))
			e.Setenv("EXAMPLE", filepath.Join(root, "agents.toml"))
			// The lint cache (site/docs/lint.md) of a build outside CI
			// goes to the user's cache directory: this scenario's own.
			e.Setenv("XDG_CACHE_HOME", filepath.Join(e.WorkDir, ".cache"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":         cmdStatus,
			"capture":        cmdCapture,
			"serve":          cmdServe,
			"jsonedit":       cmdJSONEdit,
			"protected":      cmdProtected,
			"mcpserver":      cmdMCPServer,
			"remotesnapshot": cmdRemoteSnapshot,
		},
	})
}

// cmdMCPServer implements
//
//	mcpserver [-token] [-stateless] VAR
//
// It starts an MCP server built with the official Go SDK on loopback
// (package mcptest: five tools over three pages, a resource, a prompt) and
// sets VAR to its URL. With -token, requests need "Authorization: Bearer
// $MCP_TOKEN", which it sets too.
func cmdMCPServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! mcpserver")
	}
	var o mcptest.Options
	for len(args) > 1 {
		switch args[0] {
		case "-token":
			o.RequireToken = true
			ts.Setenv("MCP_TOKEN", mcptest.Token)
		case "-stateless":
			o.Stateless = true
		default:
			ts.Fatalf("usage: mcpserver [-token] [-stateless] VAR")
		}
		args = args[1:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: mcpserver [-token] [-stateless] VAR")
	}
	srv := mcptest.New(o)
	ts.Defer(srv.Close)
	ts.Setenv(args[0], srv.URL)
}

// cmdStatus implements
//
//	status N program [args...]
//
// It runs program like exec does (stdout and stderr then refer to its
// output) and fails unless it exits with status N. "! exec" only tells
// failure from success; the CLI's contract is 1 for a failed command and 2
// for a usage error. A Go panic also exits with status 2, so status fails
// whenever stderr shows one.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! status")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%v", err)
		}
		got = ee.ExitCode()
	}
	if stderr := ts.ReadFile("stderr"); strings.Contains(stderr, "panic: ") && strings.Contains(stderr, "goroutine ") {
		ts.Fatalf("%s panicked", args[1])
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdCapture implements
//
//	capture [-quote] VAR regexp [file]
//
// It matches regexp against file (default stdout; "stdout" and "stderr"
// name the last command's output) and sets VAR to the first submatch, or
// to the whole match when the regexp has no group. With -quote, VAR is set
// to the regexp.QuoteMeta of that text, so it can be used as a literal
// pattern in grep, stdout and stderr. Scripts use it for values that only
// exist at run time: a generated kid, a development key's PEM line.
func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! capture")
	}
	quote := false
	if len(args) > 0 && args[0] == "-quote" {
		quote = true
		args = args[1:]
	}
	if len(args) != 2 && len(args) != 3 {
		ts.Fatalf("usage: capture [-quote] VAR regexp [file]")
	}
	name := "stdout"
	if len(args) == 3 {
		name = args[2]
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	m := re.FindStringSubmatch(ts.ReadFile(name))
	if m == nil {
		ts.Fatalf("capture: no match for %#q in %s", args[1], name)
	}
	v := m[0]
	if len(m) > 1 {
		v = m[1]
	}
	if quote {
		v = regexp.QuoteMeta(v)
	}
	ts.Setenv(args[0], v)
	ts.Logf("%s=%s", args[0], v)
}

// cmdServe implements
//
//	serve [-tls] VAR DIR
//
// It starts an HTTP server on 127.0.0.1 serving the files under DIR (which
// may be created later) and sets VAR to its URL; with -tls it serves https
// with a test certificate written to $WORK/VAR.pem (for verify -cacert).
// Special paths help the negative tests:
//
//	/__big                2 MiB body
//	/__slow/PATH          PATH after a 3 s delay
//	/__redirect?to=URL    302 to URL
//
// The server stops when the script ends.
func cmdServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! serve")
	}
	useTLS := len(args) > 0 && args[0] == "-tls"
	if useTLS {
		args = args[1:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: serve [-tls] VAR DIR")
	}
	dir := ts.MkAbs(args[1])
	files := http.FileServer(http.Dir(dir))
	mux := http.NewServeMux()
	mux.HandleFunc("/__big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"` + strings.Repeat("x", 2<<20) + `"}`))
	})
	mux.HandleFunc("/__slow/", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
			return
		}
		http.StripPrefix("/__slow", files).ServeHTTP(w, r)
	})
	mux.HandleFunc("/__redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.Handle("/", files)
	srv := httptest.NewUnstartedServer(mux)
	if useTLS {
		srv.StartTLS()
		cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
		ts.Check(os.WriteFile(ts.MkAbs(args[0]+".pem"), cert, 0o644))
	} else {
		srv.Start()
	}
	ts.Defer(srv.Close)
	ts.Setenv(args[0], srv.URL)
}

// cmdJSONEdit implements
//
//	jsonedit FILE PATH JSON    set the member or element at PATH to JSON
//	jsonedit -delete FILE PATH remove it
//
// PATH is dot-separated member names and array indexes
// (supportedInterfaces.0.url). The file is rewritten indented, members
// sorted. Attack scenarios use it to alter signed cards.
func cmdJSONEdit(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! jsonedit")
	}
	del := len(args) > 0 && args[0] == "-delete"
	if del {
		args = args[1:]
	}
	if del && len(args) != 2 || !del && len(args) != 3 {
		ts.Fatalf("usage: jsonedit FILE PATH JSON | jsonedit -delete FILE PATH")
	}
	file := ts.MkAbs(args[0])
	doc := decodeJSON(ts, []byte(ts.ReadFile(args[0])))
	var val any
	if !del {
		val = decodeJSON(ts, []byte(args[2]))
	}
	doc = editJSON(ts, doc, strings.Split(args[1], "."), val, del)
	b, err := json.MarshalIndent(doc, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(file, append(b, '\n'), 0o644))
}

func decodeJSON(ts *testscript.TestScript, b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	ts.Check(dec.Decode(&v))
	return v
}

// editJSON sets (or with del removes) the value at path under v and
// returns v.
func editJSON(ts *testscript.TestScript, v any, path []string, val any, del bool) any {
	if len(path) == 0 {
		return val
	}
	switch x := v.(type) {
	case map[string]any:
		if len(path) == 1 && del {
			if _, ok := x[path[0]]; !ok {
				ts.Fatalf("jsonedit: no member %q", path[0])
			}
			delete(x, path[0])
			return x
		}
		x[path[0]] = editJSON(ts, x[path[0]], path[1:], val, del)
		return x
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i > len(x) || i == len(x) && (del || len(path) > 1) {
			ts.Fatalf("jsonedit: bad index %q", path[0])
		}
		if len(path) == 1 && del {
			return append(x[:i], x[i+1:]...)
		}
		if i == len(x) {
			return append(x, val)
		}
		x[i] = editJSON(ts, x[i], path[1:], val, del)
		return x
	case nil:
		if len(path) == 1 && !del {
			return map[string]any{path[0]: val}
		}
	}
	ts.Fatalf("jsonedit: cannot follow %q", strings.Join(path, "."))
	return nil
}

// cmdProtected implements
//
//	protected FILE N MEMBER JSON
//
// It sets MEMBER of the protected header of signature N (0-based) of the
// card in FILE to JSON (or removes it when JSON is "-"), re-encoding the
// header; the signature itself is left as it was.
func cmdProtected(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: protected FILE N MEMBER JSON")
	}
	doc := decodeJSON(ts, []byte(ts.ReadFile(args[0]))).(map[string]any)
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	sig := doc["signatures"].([]any)[n].(map[string]any)
	raw, err := base64.RawURLEncoding.DecodeString(sig["protected"].(string))
	ts.Check(err)
	h := decodeJSON(ts, raw).(map[string]any)
	if args[3] == "-" {
		delete(h, args[2])
	} else {
		h[args[2]] = decodeJSON(ts, []byte(args[3]))
	}
	hb, err := json.Marshal(h)
	ts.Check(err)
	sig["protected"] = base64.RawURLEncoding.EncodeToString(hb)
	b, err := json.MarshalIndent(doc, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), append(b, '\n'), 0o644))
}

// TestHelpEverywhere holds every command and subcommand to -h: help on
// standard output, exit status 0, nothing on standard error, wherever the
// -h is on the line; "help -h" and "help CMD -h" too.
func TestHelpEverywhere(t *testing.T) {
	lines := [][]string{{"help", "-h"}, {"-h"}, {"help", "--help"}}
	for _, c := range commands {
		lines = append(lines, []string{c, "-h"}, []string{"help", c}, []string{"help", c, "-h"}, []string{"help", "-h", c})
	}
	lines = append(lines,
		[]string{"keys", "list", "-h"}, []string{"keys", "next", "-help"}, []string{"keys", "retire", "somekid", "-h"},
		[]string{"mcp", "fetch", "-h"}, []string{"mcp", "fetch", "https://mcp.example.test/mcp", "-h"},
		[]string{"verify", "public", "-h"}, []string{"lint", "card.json", "--help"}, []string{"import", "card.json", "-h"},
		[]string{"build", "-manifest", "x.toml", "-h"}, []string{"init", "somewhere", "-h"},
	)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, args := range lines {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr, func(string) string { return "" })
		if code != 0 || stderr.Len() != 0 || !strings.Contains(stdout.String(), "Usage:") {
			t.Errorf("agentcards %s: exit %d, stderr %q, stdout %.80q; want exit 0, help on stdout only", strings.Join(args, " "), code, stderr.String(), stdout.String())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("help wrote %d entries in the working folder", len(entries))
	}
}

// TestFlagWithoutValue holds a flag that takes a value, given last with
// none, to a usage error: moving the flags first must not hand it the
// "--" that ends them ("build -out" built into a folder named "--").
func TestFlagWithoutValue(t *testing.T) {
	for _, args := range [][]string{
		{"build", "-out"}, {"build", "-v", "-out"}, {"mcp", "fetch", "https://mcp.example.test/mcp", "-o"},
		{"verify", "public", "-jwks"}, {"lint", "card.json", "-manifest"}, {"init", "-x"},
		{"keys", "next", "-out"}, {"keys", "retire", "somekid", "-keys"},
	} {
		dir := t.TempDir()
		t.Chdir(dir)
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr, func(string) string { return "" })
		if code != 2 {
			t.Errorf("agentcards %s: exit %d, stderr %q; want exit 2 (usage)", strings.Join(args, " "), code, stderr.String())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("agentcards %s wrote %d entries in the working folder", strings.Join(args, " "), len(entries))
		}
	}
}
