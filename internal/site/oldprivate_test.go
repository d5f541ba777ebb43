package site

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/layout"
)

// withPrivateOutput sets site.privateOutput of a project's manifest.
func withPrivateOutput(p *project, dir string) {
	p.toml = regexp.MustCompile(`(?m)^privateOutput = .*\n`).ReplaceAllString(p.toml, "")
	p.toml = strings.Replace(p.toml, "[site]\n", fmt.Sprintf("[site]\nprivateOutput = %q\n", dir), 1)
}

// movedProject is a project built once with its private output in
// private/, then given private2/; out is its public output.
func movedProject(t *testing.T) (p *project, out string) {
	t.Helper()
	p = privateProject(t)
	real, err := realPath(p.dir)
	if err != nil {
		t.Fatal(err)
	}
	p.dir = real
	out = filepath.Join(p.dir, "public")
	withPrivateOutput(p, "private")
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	withPrivateOutput(p, "private2")
	return p, out
}

// forgeRecord makes the state file of out name dir, with its identity
// and its owner file's, as the private output the last build wrote.
func forgeRecord(t *testing.T, out, dir string) {
	t.Helper()
	st := loadState(statePath(out))
	if st.Live == nil {
		t.Fatal("no state")
	}
	dev, ino, _ := dirID(dir)
	oino, octime, _ := ownerID(dir)
	st.Private = &privateRecord{Path: dir, Dev: dev, Ino: ino, OwnerIno: oino, OwnerCtime: octime}
	if err := st.save(statePath(out)); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// TestOldPrivateRemoved: a build whose private output moved removes the
// one the build before wrote, and says so, once.
func TestOldPrivateRemoved(t *testing.T) {
	p, out := movedProject(t)
	rep, err := p.build(out)
	if err != nil {
		t.Fatal(err)
	}
	if old := filepath.Join(p.dir, "private"); rep.RemovedPrivate != old || exists(old) {
		t.Fatalf("removed %q; %s still there: %v", rep.RemovedPrivate, old, exists(old))
	}
	if len(rep.Warnings) > 0 {
		t.Errorf("warnings: %q", rep.Warnings)
	}
	if !exists(filepath.Join(p.dir, "private2", layout.ExtendedFile("agent-1", "pro", false))) {
		t.Error("the new private output has no cards")
	}
	rep, err = p.build(out)
	if err != nil || rep.RemovedPrivate != "" || len(rep.Warnings) > 0 {
		t.Errorf("built again: %v, removed %q, warnings %q", err, rep.RemovedPrivate, rep.Warnings)
	}
}

// TestOldPrivateRefusedPaths: a state file naming a folder the build
// must never remove (forged, or the project changed since) removes
// nothing, whatever the folder holds.
func TestOldPrivateRefusedPaths(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  func(dir string) string
		want string
		next string // the new private output, default private3
	}{
		{"the root", func(string) string { return "/" }, "holds the new private output", ""},
		{"the manifest's folder", func(dir string) string { return dir }, "holds the new private output", ""},
		{"an ancestor of the manifest's folder", func(dir string) string { return filepath.Dir(dir) }, "holds the new private output", ""},
		{"the public output", func(dir string) string { return filepath.Join(dir, "public") }, "overlap", ""},
		{"inside the public output", func(dir string) string { return filepath.Join(dir, "public", "agents") }, "overlap", ""},
		{"the standby tree", func(dir string) string { return filepath.Join(dir, ".public.standby") }, "which a build of", ""},
		{"inside the new private output", func(dir string) string { return filepath.Join(dir, "private2", "agents") }, "is inside the new private output", "private2"},
		{"a relative path", func(string) string { return "../../home" }, "is not a clean absolute path", ""},
		{"an unclean path", func(dir string) string { return dir + "/x/../private" }, "is not a clean absolute path", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, out := movedProject(t)
			if _, err := p.build(out); err != nil {
				t.Fatal(err)
			}
			old := tc.old(p.dir)
			forgeRecord(t, out, old)
			before := readTree(t, p.dir)
			if tc.next == "" {
				tc.next = "private3"
			}
			withPrivateOutput(p, tc.next)
			rep, err := p.build(out)
			if err != nil {
				t.Fatal(err)
			}
			if rep.RemovedPrivate != "" || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "was left in place: it ") || !strings.Contains(rep.Warnings[0], tc.want) {
				t.Fatalf("removed %q, warnings %q; want %q", rep.RemovedPrivate, rep.Warnings, tc.want)
			}
			after := readTree(t, p.dir)
			for name := range before {
				if _, ok := after[name]; !ok && !strings.HasPrefix(name, "public/") && !strings.HasPrefix(name, ".public.") {
					t.Errorf("%s is gone", name)
				}
			}
		})
	}
}

// TestOldPrivateHoldsTheManifest: the previous private output moved to
// where it holds the manifest (a folder above it) is never removed.
func TestOldPrivateHoldsTheManifest(t *testing.T) {
	p := privateProject(t)
	p.dir, _ = realPath(p.dir)
	top := p.dir
	p.dir = filepath.Join(top, "project")
	out := filepath.Join(t.TempDir(), "public")
	withPrivateOutput(p, "private")
	if _, err := p.build(out); err != nil {
		t.Fatal(err)
	}
	forgeRecord(t, out, top)
	withPrivateOutput(p, filepath.Join(t.TempDir(), "elsewhere"))
	rep, err := p.build(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "holds the manifest") || !exists(filepath.Join(p.dir, "agents.toml")) {
		t.Fatalf("warnings %q", rep.Warnings)
	}
}

// TestOldPrivateWithoutProof: a folder whose identity the state file
// records (forged) but that carries no proof of a build of this manifest
// is left as it is; one that does, with files of the user's, loses only
// the cards its owner file lists, never a link's target.
func TestOldPrivateWithoutProof(t *testing.T) {
	t.Run("no .gitignore of ours", func(t *testing.T) {
		p, out := movedProject(t)
		p.write("victim/.agentcards-owner", ownerLine(filepath.Join(p.dir, "victim"), filepath.Join(p.dir, "agents.toml"))+"\nagents/a/extended-agent-card.json\n")
		p.write("victim/agents/a/extended-agent-card.json", "{}")
		forgeRecord(t, out, filepath.Join(p.dir, "victim"))
		rep, err := p.build(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "carries no .gitignore of ours") || !exists(filepath.Join(p.dir, "victim/agents/a/extended-agent-card.json")) {
			t.Fatalf("warnings %q", rep.Warnings)
		}
	})
	t.Run("another manifest's", func(t *testing.T) {
		p, out := movedProject(t)
		p.write("victim/.gitignore", string(privateIgnoreText))
		p.write("victim/.agentcards-owner", "extended cards built from ../other.toml\nagents/a/extended-agent-card.json\n")
		p.write("victim/agents/a/extended-agent-card.json", "{}")
		forgeRecord(t, out, filepath.Join(p.dir, "victim"))
		rep, err := p.build(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "not this manifest's") || !exists(filepath.Join(p.dir, "victim/agents/a/extended-agent-card.json")) {
			t.Fatalf("warnings %q", rep.Warnings)
		}
	})
	t.Run("listed files that are not cards, and files of the user's", func(t *testing.T) {
		p, out := movedProject(t)
		victim := filepath.Join(p.dir, "victim")
		p.write("victim/.gitignore", string(privateIgnoreText))
		p.write("victim/.agentcards-owner", ownerLine(victim, filepath.Join(p.dir, "agents.toml"))+"\nagents/a/extended-agent-card.json\nagents/a/thesis.txt\n../../escape.json\n")
		p.write("victim/agents/a/extended-agent-card.json", "{}")
		p.write("victim/agents/a/extended-agent.json", "{}") // not listed
		p.write("victim/agents/a/thesis.txt", "mine")
		p.write("escape.json", "mine")
		forgeRecord(t, out, victim)
		rep, err := p.build(out)
		if err != nil {
			t.Fatal(err)
		}
		if rep.RemovedPrivate != "" || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "holds files no build wrote (agents/a/extended-agent.json, agents/a/thesis.txt)") {
			t.Fatalf("removed %q, warnings %q", rep.RemovedPrivate, rep.Warnings)
		}
		if exists(filepath.Join(victim, "agents/a/extended-agent-card.json")) || exists(filepath.Join(victim, ownerFile)) {
			t.Error("the listed card or the owner file was kept")
		}
		for _, f := range []string{"victim/.gitignore", "victim/agents/a/extended-agent.json", "victim/agents/a/thesis.txt", "escape.json"} {
			if !exists(filepath.Join(p.dir, f)) {
				t.Errorf("%s is gone", f)
			}
		}
	})
	t.Run("a link inside is never followed", func(t *testing.T) {
		p, out := movedProject(t)
		elsewhere := t.TempDir()
		agent := filepath.Join(p.dir, "private", "agents", "agent-1")
		if err := os.Rename(agent, filepath.Join(elsewhere, "agent-1")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(elsewhere, "agent-1"), agent); err != nil {
			t.Fatal(err)
		}
		rep, err := p.build(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "holds files no build wrote (agents/agent-1)") {
			t.Fatalf("warnings %q", rep.Warnings)
		}
		if !exists(filepath.Join(elsewhere, "agent-1", layout.ExtendedCardFile)) || !exists(agent) {
			t.Error("the link was followed")
		}
	})
}

// TestOldPrivateKeptOnFailure: a failed build keeps the record, so the
// next good one removes the folder.
func TestOldPrivateKeptOnFailure(t *testing.T) {
	p, out := movedProject(t)
	good := p.toml
	p.write("site/index.md", "See https://docs.example.com/private/agent-1 for more.")
	if _, err := p.build(out); err == nil {
		t.Fatal("the leak was not found")
	}
	if !exists(filepath.Join(p.dir, "private", ownerFile)) || exists(filepath.Join(p.dir, "private2")) {
		t.Fatal("a failed build changed the private outputs")
	}
	os.Remove(filepath.Join(p.dir, "site/index.md"))
	p.toml = good
	rep, err := p.build(out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.RemovedPrivate != filepath.Join(p.dir, "private") || exists(filepath.Join(p.dir, "private")) {
		t.Fatalf("removed %q", rep.RemovedPrivate)
	}
}

// TestOldPrivateRestoredOwner: the folder the last build wrote, whose
// owner file was replaced by a copy (a folder restored from a backup that
// got its old inode back looks like this), is left in place.
func TestOldPrivateRestoredOwner(t *testing.T) {
	p, out := movedProject(t)
	old := filepath.Join(p.dir, "private")
	owner := filepath.Join(old, ownerFile)
	data, err := os.ReadFile(owner)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(owner); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(owner, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := p.build(out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.RemovedPrivate != "" || !exists(filepath.Join(old, layout.ExtendedFile("agent-1", "pro", false))) {
		t.Errorf("removed %q: the restored folder's cards are gone", rep.RemovedPrivate)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "restored or copied since") {
		t.Errorf("warnings %q", rep.Warnings)
	}
}
