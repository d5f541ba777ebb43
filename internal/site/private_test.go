package site

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/mcp"
	"github.com/agentcards/agentcards/internal/sign"
)

// privateOverlay gives agent-1 of a generated manifest extended cards:
// one more skill, a private documentation URL and a pro tier.
const privateOverlay = `[agents.extended]
documentationUrl = "https://docs.example.com/private/agent-1"
[[agents.extended.addSkills]]
id = "private-export"
name = "Private export"
description = "Exports everything for subscribers. Billed per export."
tags = ["bench"]
[agents.extended.tiers.pro]
description = "Generated agent number 1, pro plan with priority queues."
[[agents.extended.tiers.pro.addSkills]]
id = "priority-queue"
name = "Priority queue"
description = "Runs jobs first for the pro plan."
tags = ["bench"]
`

// withOverlay puts overlay at the end of agent i's tables.
func withOverlay(toml string, i int, overlay string) string {
	next := fmt.Sprintf("\n[[agents]]\nid = \"agent-%d\"\n", i+1)
	at := strings.Index(toml, next)
	if at < 0 {
		return toml + overlay
	}
	return toml[:at] + "\n" + overlay + toml[at:]
}

func privateProject(t *testing.T) *project {
	p := newProject(t, 3)
	p.toml = withOverlay(p.toml, 1, privateOverlay)
	return p
}

// TestPrivateOutput: extended cards, signed like the public ones, go to
// the private output only; the public cards advertise them.
func TestPrivateOutput(t *testing.T) {
	p := privateProject(t)
	out := filepath.Join(p.dir, "public")
	rep, err := p.build(out)
	if err != nil {
		t.Fatal(err)
	}
	priv := filepath.Join(p.dir, "private")
	if rep.Extended != 2 || rep.PrivateDir != priv {
		t.Fatalf("report: %d extended cards in %q", rep.Extended, rep.PrivateDir)
	}
	files := readTree(t, priv)
	want := []string{".gitignore", ownerFile,
		layout.ExtendedFile("agent-1", "", false), layout.ExtendedFile("agent-1", "", true),
		layout.ExtendedFile("agent-1", "pro", false), layout.ExtendedFile("agent-1", "pro", true)}
	if got := slices.Sorted(mapKeys(files)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Fatalf("private output holds %q, want %q", got, want)
	}
	if want := "agents/agent-1/extended-agent-card.pro.json"; layout.ExtendedFile("agent-1", "pro", false) != want {
		t.Errorf("tier file %q", layout.ExtendedFile("agent-1", "pro", false))
	}
	if st, err := os.Stat(priv); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("private output mode %v, %v", st.Mode(), err)
	}
	for _, name := range want[2:] {
		data := files[name]
		if _, err := card.Decode(data, card.Strict); err != nil {
			t.Errorf("%s: verifiers would refuse it: %v", name, err)
		}
		res, err := sign.Verify(data, p.keys, sign.VerifyAlgorithms)
		if err != nil || len(res) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range res {
			if !r.Verified {
				t.Errorf("%s: signature %s: %v", name, r.KID, r.Err)
			}
			if r.JKU != "https://agents.example.com/.well-known/jwks.json" {
				t.Errorf("%s: jku %q", name, r.JKU)
			}
		}
		if !bytes.Contains(data, []byte("private-export")) {
			t.Errorf("%s lacks the added skill", name)
		}
	}
	if pro := files[layout.ExtendedFile("agent-1", "pro", false)]; !bytes.Contains(pro, []byte("priority-queue")) || !bytes.Contains(pro, []byte("pro plan with priority queues")) {
		t.Error("the pro card lacks its tier")
	}
	if bytes.Contains(files[layout.ExtendedFile("agent-1", "", false)], []byte("priority-queue")) {
		t.Error("the extended card holds the pro tier's skill")
	}
	public := readTree(t, out)
	for name, data := range public {
		for _, s := range []string{"private-export", "Private export", "https://docs.example.com/private/agent-1", "priority-queue", "Billed per export"} {
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("public %s holds %q", name, s)
			}
		}
	}
	if !bytes.Contains(public["agents/agent-1/.well-known/agent-card.json"], []byte(`"extendedAgentCard": true`)) {
		t.Error("the public v1.0 card does not advertise the extended card")
	}
	if !bytes.Contains(public["agents/agent-1/.well-known/agent.json"], []byte(`"supportsAuthenticatedExtendedCard": true`)) {
		t.Error("agent.json does not advertise the extended card")
	}
	if bytes.Contains(public["agents/agent-0/.well-known/agent-card.json"], []byte(`"extendedAgentCard": true`)) {
		t.Error("an agent without an overlay advertises an extended card")
	}
	// The same inputs give the same bytes, built from nothing elsewhere.
	again := newProject(t, 3)
	again.toml = p.toml
	if _, err := again.build(filepath.Join(again.dir, "public")); err != nil {
		t.Fatal(err)
	}
	other := readTree(t, filepath.Join(again.dir, "private"))
	for name, data := range files {
		if name == ownerFile {
			continue // names the manifest, which is elsewhere
		}
		if !bytes.Equal(other[name], data) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestPrivateOutputIncremental: a build that reuses an agent's public
// files still writes its extended cards, and a build without overlays
// removes the private output it wrote.
func TestPrivateOutputIncremental(t *testing.T) {
	p := privateProject(t)
	out := filepath.Join(p.dir, "public")
	priv := filepath.Join(p.dir, "private")
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	first := readTree(t, priv)
	for step, change := range []func(){
		func() {}, // nothing changed: every agent's files are kept
		func() { p.toml = strings.Replace(p.toml, "Generated agent number 0 ", "Agent zero ", 1) },
		func() {}, // the standby holds the tree of two builds ago
	} {
		change()
		if _, err := p.build(out); err != nil {
			t.Fatal(err)
		}
		got := readTree(t, priv)
		if len(got) != len(first) {
			t.Fatalf("step %d: private output holds %d files, want %d", step, len(got), len(first))
		}
		for name, data := range first {
			if !bytes.Equal(got[name], data) {
				t.Errorf("step %d: %s changed", step, name)
			}
		}
	}
	p.toml = strings.Replace(p.toml, privateOverlay, "", 1)
	rep, err := p.build(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(priv); !errors.Is(err, os.ErrNotExist) || rep.Extended != 0 {
		t.Errorf("the private output outlived the last overlay: %v, %d cards", err, rep.Extended)
	}
	if left, _ := filepath.Glob(filepath.Join(p.dir, ".private.build-*")); len(left) > 0 {
		t.Errorf("left beside it: %q", left)
	}
}

// TestLeakCheck: text only the extended cards hold, found in what would be
// published, fails the build with the file and the text, and leaves both
// outputs as they were.
func TestLeakCheck(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		wantFiles        []string
		wantText         string
	}{
		{"private URL in the intro", "site/index.md", "Docs: https://docs.example.com/private/agent-1 (customers).", []string{"site/index.md", "index.html"}, "https://docs.example.com/private/agent-1"},
		{"skill id in an agent's docs", "site/agents/agent-0.md", "# Agent zero\n\nAsk agent-1 for `private-export`.", []string{"site/agents/agent-0.md", "agents/agent-0/index.html"}, "private-export"},
		{"one sentence of a description", "site/about.md", "# About\n\n*Billed per export.* Really.", []string{"site/about.md", "about/index.html"}, "Billed per export."},
		{"a tier's skill name, escaped", "site/about.md", "# About\n\n<b>Priority queue</b> &amp; more", []string{"site/about.md"}, "Priority queue"},
		{"a custom template", "templates/404.html", "{{define \"content\"}}<p>Customers: https://docs.example.com/private/agent-1</p>{{end}}", []string{"404.html"}, "https://docs.example.com/private/agent-1"},
		{"a description wrapped and marked up", "site/agents/agent-2.md", "# Agent two\n\nExports *everything*\nfor subscribers.", []string{"agents/agent-2/index.html"}, "Exports everything for subscribers."},
		{"an invisible character in an id", "site/about.md", "# About\n\nAsk for private\u2063-export.", []string{"site/about.md", "about/index.html"}, "private-export"},
		{"the URL written another way", "site/index.md", "Docs: HTTPS://docs.example.com.:443/private//agent-1", []string{"site/index.md", "index.html"}, "https://docs.example.com/private/agent-1"},
		{"an attribute with character references", "templates/404.html", "{{define \"content\"}}<img src=\"x.png\" alt=\"Priv&#97;te export\">{{end}}", []string{"404.html"}, "Private export"},
		{"a word split by tt", "templates/404.html", "{{define \"content\"}}<p>Ask for priv<tt>ate</tt>-export</p>{{end}}", []string{"404.html"}, "private-export"},
		{"a CSS escape", "templates/style.css", ".x::after { content: \"\\70 rivate-export\"; }", []string{"style.css"}, "private-export"},
		{"a JS escape", "templates/search.js", "const s = \"\\u0070rivate-export\";", []string{"search.js"}, "private-export"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := privateProject(t)
			out := filepath.Join(p.dir, "public")
			priv := filepath.Join(p.dir, "private")
			// Twice: the standby then holds a tree found clean before.
			for range 2 {
				if _, err := p.build(out); err != nil {
					t.Fatal(err)
				}
			}
			before, beforePriv := readTree(t, out), readTree(t, priv)
			p.write(tc.file, tc.text)
			_, err := p.build(out)
			var leak *PrivateLeakError
			if !errors.As(err, &leak) {
				t.Fatalf("got %v, want a PrivateLeakError", err)
			}
			for _, f := range tc.wantFiles {
				if !slices.Contains(leak.Found[f], tc.wantText) {
					t.Errorf("%s: want %q found, got %q", f, tc.wantText, leak.Found)
				}
				if !strings.Contains(err.Error(), f+": ") {
					t.Errorf("the message does not name %s:\n%v", f, err)
				}
			}
			if after := readTree(t, out); !treesEqual(before, after) {
				t.Error("the failed build changed the public output")
			}
			// Again, with the standby holding what the failed build wrote.
			if _, err := p.build(out); !errors.As(err, &leak) {
				t.Fatalf("built again: got %v, want a PrivateLeakError", err)
			}
			if after := readTree(t, priv); !treesEqual(beforePriv, after) {
				t.Error("the failed build changed the private output")
			}
		})
	}
}

// TestLeakCheckReadsWhatChanged: once the tree was found free of the
// private text, a build reads only the files it wrote; new private text
// means reading everything again.
func TestLeakCheckReadsWhatChanged(t *testing.T) {
	p := privateProject(t)
	out := filepath.Join(p.dir, "public")
	counts := []int{}
	for _, change := range []func(){
		func() {},
		func() {}, // the standby is the first tree, found clean
		func() {}, // nothing written
		func() { p.toml = strings.Replace(p.toml, "Generated agent number 2 ", "Agent two ", 1) },
		func() { p.toml = strings.Replace(p.toml, "Billed per export.", "Billed per export, monthly.", 1) },
	} {
		change()
		rep, err := p.build(out)
		if err != nil {
			t.Fatal(err)
		}
		counts = append(counts, rep.LeakScanned)
	}
	all := counts[0]
	if all < 10 || counts[1] != all || counts[2] != 0 || counts[3] == 0 || counts[3] >= all || counts[4] < all {
		t.Errorf("files read per build: %v (all: %d)", counts, all)
	}
}

// TestLeakCheckPublicText: text an overlay shares with the public site
// (another agent's card, the templates' own words, the site's URLs) is not
// private, wherever it appears.
func TestLeakCheckPublicText(t *testing.T) {
	p := newProject(t, 3)
	p.toml = withOverlay(p.toml, 1, `[agents.extended]
description = "Generated agent number 2 for the build benchmark."
documentationUrl = "https://agents.example.com/agents/agent-1/"
[[agents.extended.addSkills]]
id = "documentation"
name = "Documentation"
description = "Does thing 3 well."
tags = ["bench"]
`)
	p.write("site/index.md", "Each agent has Documentation; agent-2 is the Generated agent number 2 for the build benchmark.")
	if _, err := p.build(filepath.Join(p.dir, "public")); err != nil {
		t.Fatal(err)
	}
}

// TestLeakCheckLintSilenceIsNotPublic: a lint silence's reason is never
// published, so private text it holds is still private.
func TestLeakCheckLintSilenceIsNotPublic(t *testing.T) {
	p := privateProject(t)
	p.toml = withOverlay(p.toml, 0, "[agents.lint.silence]\nskill-no-tags = \"Exports everything for subscribers.\"\n")
	if _, err := p.build(filepath.Join(p.dir, "public")); err != nil {
		t.Fatal(err)
	}
	p.write("site/index.md", "Exports everything for subscribers.")
	_, err := p.build(filepath.Join(p.dir, "public"))
	var leak *PrivateLeakError
	if !errors.As(err, &leak) || !slices.Contains(leak.Found["index.html"], "Exports everything for subscribers.") {
		t.Fatalf("got %v, want the sentence found in index.html", err)
	}
}

// TestLeakCheckPublicWholeWords: a public URL that only begins like a
// private one is no leak, and exempts nothing: the private URL itself is
// still found.
func TestLeakCheckPublicWholeWords(t *testing.T) {
	p := privateProject(t)
	p.toml = strings.Replace(p.toml, "id = \"agent-0\"\n", "id = \"agent-0\"\ndocumentationUrl = \"https://docs.example.com/private/agent-1-overview\"\n", 1)
	p.write("site/index.md", "Read https://docs.example.com/private/agent-1-overview first.")
	out := filepath.Join(p.dir, "public")
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	p.write("site/index.md", "Read https://docs.example.com/private/agent-1 first.")
	_, err := p.build(out)
	var leak *PrivateLeakError
	if !errors.As(err, &leak) || !slices.Contains(leak.Found["index.html"], "https://docs.example.com/private/agent-1") {
		t.Fatalf("got %v, want the private URL found in index.html", err)
	}
}

func treesEqual(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(b[k], v) {
			return false
		}
	}
	return true
}

// TestPrivateDirRefused: the private output is never inside the public
// one (nor the reverse), never holds the manifest or keys, and never
// replaces a folder the build did not write; a site without extended cards
// leaves any folder of that name alone.
func TestPrivateDirRefused(t *testing.T) {
	for _, tc := range []struct {
		name, privateOutput, output, want string
		prepare                           func(dir string)
	}{
		{"inside the public output", "public/private", "public", "overlap", nil},
		{"holding the public output", "site-out", "site-out/public", "overlap", nil},
		{"the same folder", "public", "public", "overlap", nil},
		{"inside the standby tree", ".public.standby/x", "public", "which a build of", nil},
		{"holding the manifest", ".", "../elsewhere/public", "holds the manifest", nil},
		{"a folder of the user's", "private", "public", "is not one agentcards wrote", func(dir string) {
			os.MkdirAll(filepath.Join(dir, "private"), 0o755)
			os.WriteFile(filepath.Join(dir, "private", "notes.txt"), []byte("mine"), 0o644)
		}},
		{"a file", "private", "public", "is not a folder", func(dir string) {
			os.WriteFile(filepath.Join(dir, "private"), []byte("mine"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := privateProject(t)
			p.toml = strings.Replace(p.toml, "[site]\n", fmt.Sprintf("[site]\nprivateOutput = %q\n", tc.privateOutput), 1)
			if tc.prepare != nil {
				tc.prepare(p.dir)
			}
			_, err := p.build(filepath.Join(p.dir, tc.output))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(p.dir, "agents.toml")); err != nil {
				t.Error("the manifest is gone")
			}
			if data, err := os.ReadFile(filepath.Join(p.dir, "private", "notes.txt")); tc.prepare != nil && err == nil && string(data) != "mine" {
				t.Error("the user's folder changed")
			}
		})
	}
	t.Run("another manifest's private output", func(t *testing.T) {
		p := privateProject(t)
		if _, err := p.build(filepath.Join(p.dir, "public")); err != nil {
			t.Fatal(err)
		}
		before := readTree(t, filepath.Join(p.dir, "private"))
		// A second manifest in the same folder, with the default private
		// output: with overlays it is refused, without it leaves it alone.
		other := filepath.Join(p.dir, "other.toml")
		os.WriteFile(other, []byte(p.toml), 0o644)
		src, err := manifest.Open(other)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		signers := []*sign.Signer{}
		for _, k := range p.signers {
			s, _ := sign.NewSigner(k, sign.EdDSA, JWKSURL(src.Head))
			signers = append(signers, s)
		}
		_, err = Build(Options{Source: src, OutDir: filepath.Join(p.dir, "other-public"), Keys: p.keys, Signers: signers})
		if err == nil || !strings.Contains(err.Error(), "not this manifest's: give each manifest a site.privateOutput of its own") {
			t.Errorf("got %v", err)
		}
		plain := newProject(t, 2).toml
		os.WriteFile(other, []byte(plain), 0o644)
		src2, _ := manifest.Open(other)
		defer src2.Close()
		if _, err := Build(Options{Source: src2, OutDir: filepath.Join(p.dir, "other-public"), Keys: p.keys, Signers: signers}); err != nil {
			t.Fatal(err)
		}
		if after := readTree(t, filepath.Join(p.dir, "private")); !treesEqual(before, after) {
			t.Error("a build of another manifest changed the private output")
		}
	})
	t.Run("a file of the user's inside", func(t *testing.T) {
		p := privateProject(t)
		if _, err := p.build(filepath.Join(p.dir, "public")); err != nil {
			t.Fatal(err)
		}
		p.write("private/agents/agent-1/server.env", "KEY=1")
		_, err := p.build(filepath.Join(p.dir, "public"))
		if err == nil || !strings.Contains(err.Error(), "holds agents/agent-1/server.env, which a build did not write") {
			t.Errorf("got %v", err)
		}
		os.Remove(filepath.Join(p.dir, "private/agents/agent-1/server.env"))
		// Named like a tier's card, but no build wrote it.
		p.write("private/agents/agent-1/extended-agent-card.backup.json", "{}")
		_, err = p.build(filepath.Join(p.dir, "public"))
		if err == nil || !strings.Contains(err.Error(), "holds agents/agent-1/extended-agent-card.backup.json, which a build did not write") {
			t.Errorf("got %v", err)
		}
		if _, err := os.Stat(filepath.Join(p.dir, "private/agents/agent-1/extended-agent-card.backup.json")); err != nil {
			t.Error("the user's file is gone")
		}
	})
	t.Run("a project copied elsewhere is still its own", func(t *testing.T) {
		p := privateProject(t)
		if _, err := p.build(filepath.Join(p.dir, "public")); err != nil {
			t.Fatal(err)
		}
		moved := filepath.Join(t.TempDir(), "moved")
		if err := os.Rename(p.dir, moved); err != nil {
			t.Fatal(err)
		}
		p.dir = moved
		if _, err := p.build(filepath.Join(p.dir, "public")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("no overlays: a folder of the user's is left alone", func(t *testing.T) {
		p := newProject(t, 2)
		os.MkdirAll(filepath.Join(p.dir, "private"), 0o755)
		os.WriteFile(filepath.Join(p.dir, "private", "notes.txt"), []byte("mine"), 0o644)
		p.toml = strings.Replace(p.toml, "[site]\n", "[site]\noutput = \"private\"\n", 1)
		if _, err := p.build(filepath.Join(p.dir, "public")); err != nil {
			t.Fatal(err)
		}
		if data, err := os.ReadFile(filepath.Join(p.dir, "private", "notes.txt")); err != nil || string(data) != "mine" {
			t.Errorf("the user's folder changed: %v", err)
		}
	})
}

// TestCrossedBuildsDoNotDeadlock: two builds, each writing its private
// output beside the other's public output, run at once and both finish.
func TestCrossedBuildsDoNotDeadlock(t *testing.T) {
	a, b := privateProject(t), privateProject(t)
	a.toml = strings.Replace(a.toml, "[site]\n", fmt.Sprintf("[site]\nprivateOutput = %q\n", filepath.Join(b.dir, "private-a")), 1)
	b.toml = strings.Replace(b.toml, "[site]\n", fmt.Sprintf("[site]\nprivateOutput = %q\n", filepath.Join(a.dir, "private-b")), 1)
	for round := range 5 {
		done := make(chan error, 2)
		go func() { _, err := a.build(filepath.Join(a.dir, "public")); done <- err }()
		go func() { _, err := b.build(filepath.Join(b.dir, "public")); done <- err }()
		for range 2 {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("round %d: the builds wait for each other", round)
			}
		}
	}
}

// TestLeakCheckIgnoresWhereTheManifestIs: where the manifest and its
// folders are is not published text, so private text in those paths
// excuses nothing.
func TestLeakCheckIgnoresWhereTheManifestIs(t *testing.T) {
	p := privateProject(t)
	p.dir = filepath.Join(p.dir, "private-export")
	p.toml = strings.Replace(p.toml, "[site]\n", "[site]\noutput = \"private-export-site\"\n", 1)
	p.write("site/index.md", "Try our private-export skill.")
	_, err := p.build(filepath.Join(p.dir, "public"))
	var leak *PrivateLeakError
	if !errors.As(err, &leak) || !slices.Contains(leak.Found["index.html"], "private-export") {
		t.Fatalf("got %v", err)
	}
}

// TestServerInfoIsNotPublicText: an MCP snapshot's serverInfo is shown on
// no page, so its text excuses no private text; its tools' are shown.
func TestServerInfoIsNotPublicText(t *testing.T) {
	s := manifest.MCPServer{Snapshot: &mcp.Snapshot{
		ServerInfo: mcp.Implementation{Title: "Bulk export to accounting", WebsiteURL: "https://docs.example.test/customers/ledger-private"},
		Tools:      []mcp.Tool{{Name: "extract", Description: "Shown on the tool's page"}},
	}}
	var got []string
	collectStrings(reflect.ValueOf(s), func(x string) { got = append(got, x) })
	if slices.Contains(got, "Bulk export to accounting") || slices.Contains(got, "https://docs.example.test/customers/ledger-private") {
		t.Errorf("serverInfo counted as public text: %q", got)
	}
	if !slices.Contains(got, "Shown on the tool's page") {
		t.Errorf("a tool's description not counted: %q", got)
	}
}
