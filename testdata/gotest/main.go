// Command gotest runs the tests as `go test` does (its arguments, default
// ./...) and then says which tests did not run because a program or package
// they need is missing (Node.js and the npm packages of testdata/interop,
// Chromium, ShellCheck): a SKIP line at the end of the run, so that a green
// run that tested less than it seems says so. Under CI those tests fail
// instead (internal/prereq).
//
//	go run ./testdata/gotest [go test flags and packages]
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/agentcards/agentcards/internal/prereq"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	log, err := os.CreateTemp("", "agentcards-skips-*.log")
	if err != nil {
		fmt.Fprintln(stderr, "gotest:", err)
		return 1
	}
	log.Close()
	defer os.Remove(log.Name())
	if len(args) == 0 {
		args = []string{"./..."}
	}
	cmd := exec.Command("go", append([]string{"test"}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	// A new log each run: a test that skipped reads this variable, so go
	// test's cache runs it again rather than replaying a result without
	// its skip line.
	cmd.Env = append(os.Environ(), prereq.SkipLogEnv+"="+log.Name())
	code := 0
	if err := cmd.Run(); err != nil {
		code = 1
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else {
			fmt.Fprintln(stderr, "gotest:", err)
		}
	}
	f, err := os.Open(log.Name())
	if err != nil {
		fmt.Fprintln(stderr, "gotest:", err)
		return 1
	}
	defer f.Close()
	prereq.Summarize(f, stdout)
	return code
}
