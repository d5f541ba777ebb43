// Package gctune sets the garbage collector up for a one-off command
// (a build, a verify): a soft memory limit and a collection target, each
// unless the environment sets its own.
package gctune

import "runtime/debug"

// Set sets the soft memory limit to limit bytes unless $GOMEMLIMIT sets
// one, and then, unless $GOGC sets one, the collector's target to
// percent; when $GOMEMLIMIT is set it changes nothing. getenv reads the
// environment.
func Set(getenv func(string) string, limit int64, percent int) {
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(limit)
	if getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
}
