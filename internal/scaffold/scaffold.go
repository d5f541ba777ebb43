// Package scaffold writes the files of a new agentcards project: a
// commented agents.toml with one agent, its JSON Schema for editors, the
// front page's Markdown, a .gitignore and the publishing workflow.
package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

//go:embed project
var project embed.FS

// File is one file of a new project.
type File struct {
	Path string // slash-separated, relative to the project folder
	Data []byte
}

// GitignorePath is the one file Write adds to rather than refusing when it
// exists: a repository usually has one already.
const GitignorePath = ".gitignore"

// Files are the files of a new project, in the order Write writes them.
func Files() ([]File, error) {
	schema, err := manifest.Schema()
	if err != nil {
		return nil, err
	}
	files := []File{{Path: "agents.toml"}, {Path: "agents.schema.json", Data: schema}, {Path: "site/index.md"},
		{Path: ".github/workflows/publish.yml"}, {Path: GitignorePath}}
	embedded := map[string]string{"agents.toml": "agents.toml", "site/index.md": "index.md",
		GitignorePath: "gitignore", ".github/workflows/publish.yml": "publish.yml"}
	for i, f := range files {
		if name, ok := embedded[f.Path]; ok {
			if files[i].Data, err = project.ReadFile("project/" + name); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}

// ExistsError reports files of the project that are there already; Write
// wrote nothing.
type ExistsError struct {
	Dir   string
	Paths []string
}

func (e *ExistsError) Error() string {
	where := e.Dir
	if filepath.Clean(where) == "." {
		where = "this folder"
	}
	return fmt.Sprintf("%s already has %s: init never overwrites a file; move %s away, or init another folder",
		where, strings.Join(e.Paths, ", "), map[bool]string{true: "it", false: "them"}[len(e.Paths) == 1])
}

// Result says what Write did.
type Result struct {
	Created []string // paths written, relative to the folder
	Amended []string // paths that existed and had lines added (.gitignore)
}

// Write creates dir if need be and writes the project's files into it,
// never through a symbolic link that leads out of it. It refuses, having
// written nothing, when any of them exists, except the .gitignore, to which
// it adds the lines it lacks (last, so that a failure before leaves it as it
// was). When a write fails, the files it created are removed again.
func Write(dir string) (res Result, err error) {
	files, err := Files()
	if err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return Result{}, err
	}
	defer root.Close()
	var exists []string
	for _, f := range files {
		if _, err := root.Lstat(f.Path); err == nil && f.Path != GitignorePath {
			exists = append(exists, f.Path)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Result{}, fmt.Errorf("%s: %w", filepath.Join(dir, f.Path), err)
		}
	}
	if len(exists) > 0 {
		return Result{}, &ExistsError{Dir: dir, Paths: exists}
	}
	var made []string // folders Write made, parents first
	defer func() {
		if err != nil {
			for _, p := range res.Created {
				root.Remove(p)
			}
			for _, d := range slices.Backward(made) {
				root.Remove(d) // only if empty
			}
			res.Created = nil
		}
	}()
	for _, f := range files {
		if f.Path == GitignorePath {
			existed, added, err := amendGitignore(root, f.Data)
			if err != nil {
				return res, fmt.Errorf("%s: %w", filepath.Join(dir, f.Path), err)
			}
			if added {
				res.Amended = append(res.Amended, f.Path)
			}
			if existed {
				continue
			}
		}
		made = append(made, missingFolders(root, path.Dir(f.Path))...)
		if err := root.MkdirAll(path.Dir(f.Path), 0o755); err != nil {
			return res, fmt.Errorf("%s: %w", filepath.Join(dir, f.Path), err)
		}
		if err := writeNew(root, f.Path, f.Data); err != nil {
			return res, fmt.Errorf("%s: %w", filepath.Join(dir, f.Path), err)
		}
		res.Created = append(res.Created, f.Path)
	}
	return res, nil
}

// missingFolders are the folders of the slash path dir, parents first,
// that do not exist under root yet.
func missingFolders(root *os.Root, dir string) []string {
	var missing []string
	for d := dir; d != "." && d != "/"; d = path.Dir(d) {
		if _, err := root.Lstat(d); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, d)
		}
	}
	slices.Reverse(missing)
	return missing
}

// writeNew writes data to the new file name under root; it fails if name
// exists, a link included.
func writeNew(root *os.Root, name string, data []byte) error {
	w, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// amendGitignore adds to an existing .gitignore the rules of want it lacks,
// after want's first comment line. It reports whether a .gitignore existed
// and whether it added lines.
func amendGitignore(root *os.Root, want []byte) (existed, added bool, err error) {
	have, err := root.ReadFile(GitignorePath)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	present := map[string]bool{}
	for line := range strings.Lines(string(have)) {
		present[strings.TrimSpace(line)] = true
	}
	var missing []string
	for line := range strings.Lines(string(want)) {
		if rule := strings.TrimSpace(line); rule != "" && !strings.HasPrefix(rule, "#") && !present[rule] {
			missing = append(missing, rule)
		}
	}
	if len(missing) == 0 {
		return true, false, nil
	}
	var add bytes.Buffer
	if len(have) > 0 && have[len(have)-1] != '\n' {
		add.WriteByte('\n')
	}
	first, _, _ := strings.Cut(string(want), "\n")
	fmt.Fprintf(&add, "\n%s\n%s\n", first, strings.Join(missing, "\n"))
	w, err := root.OpenFile(GitignorePath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return true, false, err
	}
	if _, err := w.Write(add.Bytes()); err != nil {
		w.Close()
		return true, false, err
	}
	return true, true, w.Close()
}
