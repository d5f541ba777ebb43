package build

import "github.com/agentcards/agentcards/internal/gctune"

// memoryLimit is the soft memory limit a build runs under unless
// $GOMEMLIMIT sets one. A large site runs at it: at 100,000 agents the
// build's record of them is live through the whole build (about 50 MB
// near the end, in tables with nothing in them for the collector to
// follow); the room above it, less what the groups being built hold,
// sets how often the collector runs. A site of 10,000 agents stays under
// it at gcPercent.
const memoryLimit = 224 << 20

// gcPercent is the collector's target a build runs with unless $GOGC sets
// one (the default is 100).
const gcPercent = 400

// TuneMemory sets the collector up for a one-off build (`agentcards
// build`): a soft memory limit unless $GOMEMLIMIT sets one, and under it,
// unless $GOGC sets one, a target that collects less often. getenv reads
// the environment.
func TuneMemory(getenv func(string) string) {
	// A build's live memory is small (one group of agents at a time, and
	// the build state's record of a few hundred bytes per agent: about
	// 50 MB at 100,000 agents); the limit keeps the collector from letting
	// the heap drift far above it on large sites, and under it the
	// collector runs less often than the default: the live heap is a few
	// tens of MiB, and the limit still bounds the peak.
	gctune.Set(getenv, memoryLimit, gcPercent)
}
