package site

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
	"github.com/agentcards/agentcards/internal/sign"
	"github.com/agentcards/agentcards/templates"
)

// generatedManifest returns agents.toml text with n agents of 5 skills
// each; even agents use an API key (so their cards carry SDK-projection
// signatures too), odd ones OAuth 2.0 scopes.
func generatedManifest(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[site]\nbaseUrl = \"https://agents.example.com\"\ntitle = \"Bench\"\ndefaultAgent = \"agent-0\"\n\n[provider]\norganization = \"Bench Co.\"\nurl = \"https://bench.example.com\"\n")
	for i := range n {
		fmt.Fprintf(&b, "\n[[agents]]\nid = \"agent-%d\"\nname = \"Agent %d — Überprüfung\"\ndescription = \"Generated agent number %d for the build benchmark.\"\nversion = \"1.%d.0\"\n", i, i, i, i%100)
		fmt.Fprintf(&b, "[[agents.supportedInterfaces]]\nurl = \"https://a%d.example.com/a2a\"\nprotocolBinding = \"JSONRPC\"\nprotocolVersion = \"1.0\"\n", i)
		fmt.Fprintf(&b, "[[agents.supportedInterfaces]]\nurl = \"https://a%d.example.com/rest\"\nprotocolBinding = \"HTTP+JSON\"\nprotocolVersion = \"1.0\"\n", i)
		b.WriteString("[agents.capabilities]\nstreaming = true\n")
		if i%2 == 0 {
			b.WriteString("[agents.securitySchemes.key]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"X-Key\"\n[[agents.securityRequirements]]\nkey = []\n")
		} else {
			b.WriteString("[agents.securitySchemes.oauth]\ntype = \"oauth2\"\n[agents.securitySchemes.oauth.flows.clientCredentials]\ntokenUrl = \"https://auth.example.com/token\"\nscopes = { read = \"Read\", write = \"Write\" }\n[[agents.securityRequirements]]\noauth = [\"read\"]\n")
		}
		for s := range 5 {
			fmt.Fprintf(&b, "[[agents.skills]]\nid = \"skill-%d\"\nname = \"Skill %d\"\ndescription = \"Does thing %d well.\"\ntags = [\"tag-%d\", \"bench\"]\nexamples = [\"Do thing %d for me\"]\n", s, s, s, s, s)
		}
	}
	return b.String()
}

// BenchmarkBuild parses a generated manifest and builds its whole signed
// site (two cards per agent, Ed25519), reporting ns/agent and the peak live
// heap seen while it ran. The extended cases give one agent an extended
// card, so that every build also scans the whole public tree for its
// private text (the leak check).
func BenchmarkBuild(b *testing.B) {
	benchmarkAsBuilt(b)
	for _, tc := range []struct {
		n        int
		extended bool
	}{{1000, false}, {10000, false}, {10000, true}} {
		n := tc.n
		name := fmt.Sprintf("agents=%d", n)
		if tc.extended {
			name += ",extended=1"
		}
		b.Run(name, func(b *testing.B) {
			toml := generatedManifest(n)
			if tc.extended {
				toml = withOverlay(toml, 1, privateOverlay)
			}
			src := []byte(toml)
			dir := b.TempDir()
			path := filepath.Join(dir, "agents.toml")
			if err := os.WriteFile(path, src, 0o644); err != nil {
				b.Fatal(err)
			}
			keysAbs, _ := filepath.Abs(testKeysDir + "/public")
			ks, err := sign.LoadKeySet(keysAbs)
			if err != nil {
				b.Fatal(err)
			}
			var peak atomic.Uint64
			stop := samplePeakHeap(&peak)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				m, err := manifest.Load(path)
				if err != nil {
					b.Fatal(err)
				}
				signers := testSigners(b, m, ks, "ed25519")
				if _, err := Build(Options{Manifest: m, OutDir: filepath.Join(dir, "public"), Keys: ks, Signers: signers}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			stop()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/agent")
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
		})
	}
}

// BenchmarkRebuildOneAgent times the incremental build after a one-word
// change to one agent's description, over the output of the build before
// (both trees current), as `agentcards build` runs it: the manifest opened
// and read agent by agent, every kept agent checked, its group's listings
// redone, sha256sums.txt and the state written. Each run changes the
// description again, so that no tree already holds it.
func BenchmarkRebuildOneAgent(b *testing.B) {
	benchmarkAsBuilt(b)
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "agents.toml")
			toml := generatedManifest(n)
			old := fmt.Sprintf("Generated agent number %d for", n/2)
			if !strings.Contains(toml, old) {
				b.Fatal("no agent to change")
			}
			keysAbs, _ := filepath.Abs(testKeysDir + "/public")
			ks, err := sign.LoadKeySet(keysAbs)
			if err != nil {
				b.Fatal(err)
			}
			build := func(text string) {
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
				src, err := manifest.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				defer src.Close()
				signers := testSigners(b, src.Head, ks, "ed25519")
				rep, err := Build(Options{Source: src, OutDir: filepath.Join(dir, "public"), Keys: ks, Signers: signers})
				if err != nil {
					b.Fatal(err)
				}
				if rep.Agents != n {
					b.Fatalf("%d agents built", rep.Agents)
				}
			}
			build(toml)
			build(toml)
			b.ResetTimer()
			for i := range b.N {
				build(strings.Replace(toml, old, fmt.Sprintf("Changed%d agent number %d for", i, n/2), 1))
			}
		})
	}
}

// samplePeakHeap records the largest live heap seen until stop is called.
func samplePeakHeap(peak *atomic.Uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// BenchmarkChecksums times layout.SumsFile over a tree of agents whose
// files the build recorded as written: with checked=false the walk, a stat
// per file and the lookups, no file read; with checked=true (as after a
// build's agents were checked or written) only the walk of the tree
// outside the agents' folders.
func BenchmarkChecksums(b *testing.B) {
	benchmarkAsBuilt(b)
	for _, n := range []int{1000, 10000} {
		for _, checked := range []bool{false, true} {
			b.Run(fmt.Sprintf("agents=%d,checked=%v", n, checked), func(b *testing.B) {
				bl := checksumsTree(b, n, checked)
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if err := bl.checksums(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/agent")
			})
		}
	}
}

// checksumsTree writes a tree of n agents and records their files.
func checksumsTree(b *testing.B, n int, checked bool) *tree {
	scanner, err := secret.NewScanner(nil)
	if err != nil {
		b.Fatal(err)
	}
	bl := &tree{root: b.TempDir(), fresh: true, st: newTreeState(), secrets: scanner}
	for i := range n {
		id := fmt.Sprintf("agent-%d", i)
		if err := bl.mkdir("agents/" + id + "/" + layout.WellKnown); err != nil {
			b.Fatal(err)
		}
		rec := agentRecord{checked: checked}
		for _, name := range agentFileNames {
			w, err := bl.write(agentFile(id, name), []byte(strings.Repeat(id, 100)))
			if err != nil {
				b.Fatal(err)
			}
			rec.Stats, rec.Sums = append(rec.Stats, w.Stat), append(rec.Sums, w.Sum)
		}
		bl.st.Agents.set(id, &rec)
	}
	return bl
}

// BenchmarkAgent times the work of one agent of BenchmarkBuild's
// manifest apart from writing it: its two signed cards ("cards"), and its
// page ("page").
func BenchmarkAgent(b *testing.B) {
	benchmarkAsBuilt(b)
	dir := b.TempDir()
	path := filepath.Join(dir, "agents.toml")
	if err := os.WriteFile(path, []byte(generatedManifest(2)), 0o644); err != nil {
		b.Fatal(err)
	}
	m, err := manifest.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	keysAbs, _ := filepath.Abs(testKeysDir + "/public")
	ks, err := sign.LoadKeySet(keysAbs)
	if err != nil {
		b.Fatal(err)
	}
	signers := testSigners(b, m, ks, "ed25519")
	tpl, err := templates.Load("")
	if err != nil {
		b.Fatal(err)
	}
	pg := newPages(m, plan{}, tpl, &siteDir{}, signers)
	for i := range m.Agents {
		a := &m.Agents[i]
		auth := "key"
		if len(a.SecuritySchemes["oauth"].Type) > 0 {
			auth = "oauth"
		}
		b.Run("cards,"+auth, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := signedCards(m, signers, a); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("page,"+auth, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pg.agentPage(a, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRender times the rendering of an agent's page alone, its data
// made once: by its compiled program ("compiled", what a build does) and
// by html/template ("html-template").
func BenchmarkRender(b *testing.B) {
	benchmarkAsBuilt(b)
	dir := b.TempDir()
	path := filepath.Join(dir, "agents.toml")
	if err := os.WriteFile(path, []byte(generatedManifest(2)), 0o644); err != nil {
		b.Fatal(err)
	}
	m := loadWithTestKeys(b, path)
	ks, err := sign.LoadKeySet(m.KeysDir())
	if err != nil {
		b.Fatal(err)
	}
	tpl, err := templates.Load("")
	if err != nil {
		b.Fatal(err)
	}
	pg := newPages(m, plan{}, tpl, &siteDir{}, testSigners(b, m, ks, "ed25519"))
	data, err := pg.agentData(&m.Agents[1], true)
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []struct {
		name string
		run  func(*bytes.Buffer) error
	}{
		{"compiled", func(buf *bytes.Buffer) error { return tpl.Execute(buf, "agent.html", data) }},
		{"html-template", func(buf *bytes.Buffer) error { return tpl.Page("agent.html").ExecuteTemplate(buf, "layout", data) }},
	} {
		b.Run(path.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := path.run(&buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}
