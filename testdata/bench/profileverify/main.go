// Command profileverify writes a CPU profile of one `agentcards verify` of
// a built site folder: it makes the calls the command does (verify.Target
// with a trust.Cache and a fetch.Client, then verify.Finish) under
// runtime/pprof, and leaves out only the report the command prints, which
// it counts instead. With a fourth argument it also writes a heap profile
// at the end. The product has no profiling flag; this program is the way
// to profile a verify.
//
//	go run ./testdata/bench/profileverify SITE PROFILE [HEAPPROFILE]
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/trust"
	"github.com/agentcards/agentcards/internal/verify"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("profileverify: ")
	if len(os.Args) != 3 && len(os.Args) != 4 {
		log.Fatal("usage: profileverify SITE PROFILE [HEAPPROFILE]")
	}
	prof, err := os.Create(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(prof); err != nil {
		log.Fatal(err)
	}
	rep := &verify.Report{Cards: []verify.Card{}}
	opts := verify.Options{Fetch: &fetch.Client{Timeout: fetch.DefaultTimeout, MaxBytes: fetch.DefaultMaxBytes, Pins: &fetch.Pins{}}, Keys: trust.NewCache()}
	err = verify.Target(context.Background(), os.Args[1], opts, rep)
	if err == nil {
		verify.Finish(rep)
	}
	pprof.StopCPUProfile()
	if err != nil {
		log.Fatal(err)
	}
	if err := prof.Close(); err != nil {
		log.Fatal(err)
	}
	if len(os.Args) == 4 {
		h, err := os.Create(os.Args[3])
		if err != nil {
			log.Fatal(err)
		}
		runtime.GC()
		if err := pprof.WriteHeapProfile(h); err != nil {
			log.Fatal(err)
		}
		if err := h.Close(); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("verified %v: %d cards, %d problems, %d warnings\n", rep.Verified, len(rep.Cards), len(rep.Problems), len(rep.Warnings))
}
