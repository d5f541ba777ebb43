// Command profile writes a CPU profile of one `agentcards build`: it makes
// the same calls the command does (build.TuneMemory, manifest.Open,
// keyring.Read, build.Run, with no key given and the development key
// allowed, as outside CI) under runtime/pprof, from opening the manifest
// to the last file written, and leaves out only the summary the command
// prints. The product has no profiling flag; this program is for the
// benchmark (testdata/bench/run.sh), which shows the profile's top
// entries by cumulative time with `go tool pprof -top -cum`.
//
//	go run ./testdata/bench/profile MANIFEST OUTDIR PROFILE
package main

import (
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/agentcards/agentcards/internal/build"
	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/sign"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("profile: ")
	if len(os.Args) != 4 {
		log.Fatal("usage: profile MANIFEST OUTDIR PROFILE")
	}
	out, err := filepath.Abs(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	prof, err := os.Create(os.Args[3])
	if err != nil {
		log.Fatal(err)
	}
	build.TuneMemory(os.Getenv)
	if err := pprof.StartCPUProfile(prof); err != nil {
		log.Fatal(err)
	}
	err = run(os.Args[1], out)
	pprof.StopCPUProfile()
	if err != nil {
		log.Fatal(err)
	}
	if err := prof.Close(); err != nil {
		log.Fatal(err)
	}
}

// run builds the manifest at path into out, as `agentcards build -out`
// does.
func run(path, out string) error {
	src, err := manifest.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	if problems, _ := src.Problems(); len(problems) > 0 {
		return src.Check()
	}
	keys, err := keyring.Read(nil, os.Getenv(sign.EnvSigningKey))
	if err != nil {
		return err
	}
	_, err = build.Run(build.Options{Source: src, Keys: keys, Secret: os.Getenv(sign.EnvSigningKey), AllowDev: true, OutDir: out})
	return err
}
