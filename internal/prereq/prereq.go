// Package prereq finds the programs and packages some tests need besides
// Go: Node.js and the npm packages of testdata/interop (the official A2A JS
// SDK, the MCP reference server, axe-core), Chromium, ShellCheck.
//
// When one is missing, the test fails under CI (CI set, and not false or 0),
// where .ci/run installs everything; elsewhere it is skipped, and the skip is
// recorded for the summary that `go run ./testdata/gotest` prints at the end
// of the run, so that a green run that tested less says so.
package prereq

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// SkipLogEnv names the file each skip for a missing prerequisite is added
// to, one line each: package folder, test name and what was missing,
// separated by tabs. testdata/gotest sets it.
const SkipLogEnv = "AGENTCARDS_SKIPLOG"

// InCI reports whether the tests run under CI, where every prerequisite
// must be there: CI set, and not false or 0 in any case, the rule `build`
// uses to refuse the development key.
func InCI() bool {
	ci := strings.ToLower(os.Getenv("CI"))
	return ci != "" && ci != "false" && ci != "0"
}

// Missing fails t under CI and skips it elsewhere, recording the skip;
// what says what is missing, how how to install it.
func Missing(t testing.TB, what, how string) {
	t.Helper()
	if msg, ok := excuse(t, what, how); ok {
		t.Skipf("not tested: %s", msg)
	}
}

// Partly is Missing for a test that goes on without what is missing,
// testing less: it fails t under CI, and elsewhere records the gap and goes
// on.
func Partly(t testing.TB, what, how string) {
	t.Helper()
	if msg, ok := excuse(t, what, how); ok {
		t.Log("tested in part: " + msg)
	}
}

// excuse fails t under CI; elsewhere it records the gap in the skip log
// and reports true with the message to show.
func excuse(t testing.TB, what, how string) (string, bool) {
	t.Helper()
	msg := fmt.Sprintf("%s (%s)", what, how)
	if InCI() {
		t.Fatalf("%s, and CI is set: .ci/run installs it", msg)
		return "", false
	}
	record(t.Name(), msg)
	return msg, true
}

// record adds one line to the skip log, when there is one.
func record(test, msg string) {
	log := os.Getenv(SkipLogEnv)
	if log == "" {
		return
	}
	dir, _ := os.Getwd()
	if root, err := Root(); err == nil {
		if rel, err := filepath.Rel(root, dir); err == nil {
			dir = filepath.ToSlash(rel)
		}
	}
	line := strings.NewReplacer("\t", " ", "\n", " ").Replace(dir) + "\t" +
		strings.NewReplacer("\t", " ", "\n", " ").Replace(test) + "\t" +
		strings.NewReplacer("\t", " ", "\n", " ").Replace(msg) + "\n"
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	f.WriteString(line) // one write: lines of packages tested at once stay whole
	f.Close()
}

// Root is the module's root folder: the nearest parent of the working
// folder (a test's package folder) that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working folder")
		}
		dir = parent
	}
}

// InteropDir is testdata/interop, where `npm ci --prefix testdata/interop`
// installs the npm packages the interop tests run.
func InteropDir(t testing.TB) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "testdata", "interop")
}

// Node returns the path of node, and checks that each of the npm packages
// named (as "@a2a-js/sdk") is installed in testdata/interop.
func Node(t testing.TB, packages ...string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		Missing(t, "no node on PATH", "install Node.js 20 or later, then `npm ci --prefix testdata/interop`")
	}
	NPM(t, packages...)
	return node
}

// NPM checks that each npm package named is installed in testdata/interop.
func NPM(t testing.TB, packages ...string) {
	t.Helper()
	dir := InteropDir(t)
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(p), "package.json")); err != nil {
			Missing(t, "npm package "+p+" is not installed", "`npm ci --prefix testdata/interop`")
		}
	}
}

// Chromium returns the path of a headless-capable Chromium.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missing(t, "no chromium on PATH", "Debian: apt-get install chromium")
	return ""
}

// Summarize prints, from a skip log read from r (see SkipLogEnv), one SKIP line with the number
// of tests that did not run in full, then one line per missing thing with
// the tests it cost. It prints nothing when nothing was missing.
func Summarize(r io.Reader, w io.Writer) {
	byMissing := map[string][]string{}
	tests := map[string]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), "\t", 3)
		if len(fields) != 3 {
			continue
		}
		test := fields[0] + "." + fields[1]
		if !slices.Contains(byMissing[fields[2]], test) {
			byMissing[fields[2]] = append(byMissing[fields[2]], test)
		}
		tests[test] = true
	}
	if len(tests) == 0 {
		return
	}
	missing := make([]string, 0, len(byMissing))
	for m := range byMissing {
		missing = append(missing, m)
	}
	slices.Sort(missing)
	fmt.Fprintf(w, "SKIP: %d test(s) did not run in full, so this run tested less than it seems; missing:\n", len(tests))
	for _, m := range missing {
		names := byMissing[m]
		slices.Sort(names)
		fmt.Fprintf(w, "  %s: %s\n", m, strings.Join(names, ", "))
	}
}
