package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// runVersion prints the module version, the VCS revision and the Go
// version, from the build information the go command records.
func runVersion(args []string, stdout, stderr io.Writer, getenv env) error {
	fs := newFlags("version", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, versionLine())
	return nil
}

// versionLine is "agentcards VERSION (REVISION[, modified], DATE) GO".
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "agentcards (no build information)"
	}
	version := bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	vcs := ""
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		vcs = fmt.Sprintf(" (%s%s", rev, modified)
		if when != "" {
			vcs += ", " + when
		}
		vcs += ")"
	}
	return fmt.Sprintf("agentcards %s%s %s", version, vcs, bi.GoVersion)
}
