package scaffold

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/manifest"
)

// TestProjectLoads: the agents.toml init writes is a manifest the build
// takes as it is, with no problem, and names the schema init writes beside
// it.
func TestProjectLoads(t *testing.T) {
	dir := t.TempDir()
	res, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"agents.toml", "agents.schema.json", "site/index.md", ".github/workflows/publish.yml", ".gitignore"}
	if strings.Join(res.Created, " ") != strings.Join(want, " ") || len(res.Amended) != 0 {
		t.Fatalf("created %v, amended %v; want %v", res.Created, res.Amended, want)
	}
	m, err := manifest.Load(filepath.Join(dir, "agents.toml"))
	if err != nil {
		t.Fatalf("the new agents.toml does not load: %v", err)
	}
	if len(m.Agents) != 1 || m.Agents[0].ID != "echo" {
		t.Fatalf("agents: %+v", m.Agents)
	}
	toml, _ := os.ReadFile(filepath.Join(dir, "agents.toml"))
	first, _, _ := strings.Cut(string(toml), "\n")
	schema := strings.TrimPrefix(first, "#:schema ./")
	if schema == first {
		t.Fatalf("agents.toml starts with %q, not a #:schema line", first)
	}
	got, _ := os.ReadFile(filepath.Join(dir, schema))
	if wantSchema, _ := manifest.Schema(); !bytes.Equal(got, wantSchema) {
		t.Errorf("%s is not `agentcards schema`", schema)
	}
}

// TestWorkflowIsTheDocumented: the workflow init writes is the one
// site/docs/publishing.md documents (which the action tests run through
// actionlint), below its comment.
func TestWorkflowIsTheDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "site", "docs", "publishing.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "## Publishing from your own repository")
	_, block, ok2 := strings.Cut(after, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("publishing.md has no workflow under \"Publishing from your own repository\"")
	}
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path != ".github/workflows/publish.yml" {
			continue
		}
		var body strings.Builder
		for line := range strings.Lines(string(f.Data)) {
			if !strings.HasPrefix(line, "#") {
				body.WriteString(line)
			}
		}
		if body.String() != block {
			t.Errorf("init's workflow differs from publishing.md's:\n%s\n---\n%s", body.String(), block)
		}
		return
	}
	t.Fatal("no workflow among the files")
}

// TestWriteNeverOverwrites: with any of the files there, Write refuses,
// names them, and writes nothing; a link counts as there.
func TestWriteNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "site"), 0o755)
	os.WriteFile(filepath.Join(dir, "site", "index.md"), []byte("mine"), 0o644)
	os.Symlink("nowhere", filepath.Join(dir, "agents.toml"))
	_, err := Write(dir)
	var exists *ExistsError
	if !errors.As(err, &exists) || strings.Join(exists.Paths, " ") != "agents.toml site/index.md" {
		t.Fatalf("Write: %v; want an ExistsError naming agents.toml and site/index.md", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("Write left %d entries, want the 2 that were there", len(entries))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "site", "index.md")); string(b) != "mine" {
		t.Errorf("site/index.md changed: %q", b)
	}
}

// TestWriteStaysInside: a folder of the project that is a link out of it
// is refused before anything is written, there or here.
func TestWriteStaysInside(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, ".github")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if _, err := Write(dir); err == nil {
		t.Fatal("Write through a link out of the folder succeeded")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("Write wrote %d entries outside the folder", len(entries))
	}
	for _, p := range []string{"agents.toml", "agents.schema.json", "site/index.md", ".gitignore"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s left behind after a failed Write", p)
		}
	}
}

// TestGitignoreAmended: an existing .gitignore keeps its lines and gets
// only the rules it lacks; a second look adds nothing.
func TestGitignoreAmended(t *testing.T) {
	dir := t.TempDir()
	mine := "node_modules/\n/public/\n*.pem"
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(mine), 0o644)
	res, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Amended, " ") != ".gitignore" || strings.Contains(strings.Join(res.Created, " "), ".gitignore") {
		t.Fatalf("created %v, amended %v", res.Created, res.Amended)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if !strings.HasPrefix(string(got), mine+"\n") {
		t.Fatalf(".gitignore lost its own lines:\n%s", got)
	}
	added := string(got[len(mine):])
	for _, rule := range []string{"/private/", ".agentcards/", "/.public.*"} {
		if !strings.Contains(added, "\n"+rule+"\n") {
			t.Errorf(".gitignore lacks %s:\n%s", rule, got)
		}
	}
	if strings.Count(string(got), "/public/") != 1 || strings.Count(string(got), "*.pem") != 1 {
		t.Errorf("a rule it had was added again:\n%s", got)
	}
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	files, _ := Files()
	if existed, again, err := amendGitignore(root, files[len(files)-1].Data); !existed || again || err != nil {
		t.Errorf("second amend: existed %v, added %v, %v", existed, again, err)
	}
}

// TestFailedWriteLeavesNothing: a write that fails at the last file (a
// .gitignore that is a folder) names it and leaves none of the files or
// folders it made.
func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".gitignore"), 0o755)
	_, err := Write(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ".gitignore")) {
		t.Fatalf("Write: %v; want an error naming the .gitignore", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left behind: %v", names)
	}
}
