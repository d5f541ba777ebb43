package site

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/regular"
)

// PagesDir is the folder beside agents.toml holding hand-written Markdown:
// index.md (the front page's intro), agents/<id>.md (long-form docs per
// agent) and any other *.md (an extra page at /<name>/).
const PagesDir = "site"

// siteDir is what the site/ folder beside the manifest holds.
type siteDir struct {
	dir   string        // the folder
	intro template.HTML // index.md, the front page's intro
	// pages are the other *.md of the folder and each <folder>/index.md,
	// which the navigation lists; nested the folders' other pages.
	pages, nested []extraPage
	docs          map[string]string
	// docKeys are the keys of docs, the agents' long-form docs
	// (agents/<id>.md), by agent id.
	docKeys map[string]key
	// sources are the Markdown files, by path from the manifest's folder,
	// for the leak check.
	sources map[string][]byte
	key     key // of everything in it that every page depends on
}

// extraPage is a site/*.md page.
type extraPage struct {
	Slug, Title string
	Body        template.HTML
}

// readSiteDir reads the site/ folder of the manifest's folder: the intro,
// the extra pages and the agents' docs. A folder of site/ other than
// agents/ holds more pages, one level deep: site/<folder>/<name>.md is the
// page /<folder>/<name>/ and site/<folder>/index.md the page /<folder>/,
// which the navigation lists (the folder's other pages it does not). Links
// between the Markdown files (guide.md#setup) become links between their
// pages, so the same files read well on a forge.
func readSiteDir(manifestDir string) (*siteDir, error) {
	d := &siteDir{dir: filepath.Join(manifestDir, PagesDir), docs: map[string]string{}, docKeys: map[string]key{}, sources: map[string][]byte{}}
	if err := d.readPages(); err != nil {
		return nil, err
	}
	if err := d.readDocs(); err != nil {
		return nil, err
	}
	return d, nil
}

// readPages reads the intro and the extra pages, and works out the key of
// everything in them.
func (d *siteDir) readPages() error {
	var shared [][]byte
	entries, err := regular.ReadDir(d.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".md") {
			continue
		}
		src, err := regular.ReadFile(filepath.Join(d.dir, name))
		if err != nil {
			return err
		}
		shared = append(shared, []byte(name), src)
		d.sources[PagesDir+"/"+name] = src
		slug := strings.TrimSuffix(name, ".md")
		html, err := renderPage(string(src), name)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(d.dir, name), err)
		}
		if slug == "index" {
			d.intro = html
			continue
		}
		if !validSlug(slug) || slices.Contains(reservedTop, slug) {
			return fmt.Errorf("%s: page names must be lower-case slugs other than %s", filepath.Join(d.dir, name), strings.Join(reservedTop, ", "))
		}
		d.pages = append(d.pages, extraPage{Slug: slug, Title: pageTitle(string(src), slug), Body: html})
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "agents" {
			continue
		}
		if err := d.readFolder(e.Name(), &shared); err != nil {
			return err
		}
	}
	d.key = hashParts(shared...)
	return nil
}

// readFolder reads the pages of site/<folder>/, adding what every page
// depends on to shared.
func (d *siteDir) readFolder(folder string, shared *[][]byte) error {
	files, err := regular.ReadDir(filepath.Join(d.dir, folder))
	if err != nil {
		return err
	}
	for _, f := range files {
		name := f.Name()
		if f.IsDir() || !strings.HasSuffix(name, ".md") {
			continue
		}
		rel := folder + "/" + name
		path := filepath.Join(d.dir, folder, name)
		if !validSlug(folder) || slices.Contains(reservedTop, folder) || slices.Contains(TopLevel, folder) {
			return fmt.Errorf("%s: page folders must be lower-case slugs other than %s", path, strings.Join(append(slices.Clone(reservedTop), TopLevel...), ", "))
		}
		slug := folder + "/" + strings.TrimSuffix(name, ".md")
		if name == "index.md" {
			slug = folder
			if slices.ContainsFunc(d.pages, func(p extraPage) bool { return p.Slug == folder }) {
				return fmt.Errorf("%s: %s makes the same page", path, filepath.Join(d.dir, folder+".md"))
			}
		} else if !validSlug(strings.TrimSuffix(name, ".md")) {
			return fmt.Errorf("%s: page names must be lower-case slugs", path)
		}
		src, err := regular.ReadFile(path)
		if err != nil {
			return err
		}
		*shared = append(*shared, []byte(rel), src)
		d.sources[PagesDir+"/"+rel] = src
		html, err := renderPage(string(src), rel)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		page := extraPage{Slug: slug, Title: pageTitle(string(src), slug), Body: html}
		if slug == folder {
			// A folder's index is in the navigation; its other pages are
			// reached from it.
			d.pages = append(d.pages, page)
			continue
		}
		d.nested = append(d.nested, page)
	}
	return nil
}

// readDocs reads the agents' docs, agents/<id>.md.
func (d *siteDir) readDocs() error {
	agentsDir := filepath.Join(d.dir, "agents")
	entries, err := regular.ReadDir(agentsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".md")
		if e.IsDir() || !ok {
			continue
		}
		src, err := regular.ReadFile(filepath.Join(agentsDir, e.Name()))
		if err != nil {
			return err
		}
		d.docs[id] = string(src)
		d.docKeys[id] = hashParts(src)
		d.sources[PagesDir+"/agents/"+e.Name()] = src
	}
	return nil
}

// checkDocs refuses agents/<id>.md files for agents that do not exist.
func (d *siteDir) checkDocs(ids []string) error {
	known := make(map[string]bool, len(ids))
	for _, id := range ids {
		known[id] = true
	}
	for _, id := range slices.Sorted(maps.Keys(d.docs)) {
		if !known[id] {
			return fmt.Errorf("%s: no agent has id %q (rename the file to <id>.md)", filepath.Join(d.dir, "agents", id+".md"), id)
		}
	}
	return nil
}

// templateIDs are the element ids the built-in templates use; Markdown
// headings never take them (a heading "Agents" must not break the search).
var templateIDs = []string{"main", "q", "count", "agents", "no-match", "docs-h", "ifaces-h", "call-h", "caps-h", "sec-h", "skills-h", "sig-h", "mcp-h", "card-signature"}

// reservedTop are top-level names the build writes itself.
var reservedTop = []string{"agents", "index", "404", "search", "style", "sitemap", "robots", "mcp", layout.KeysFolder, layout.CatalogPageFolder}

func validSlug(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// pageTitle is the page's first "# " heading, else its name.
func pageTitle(src, slug string) string {
	for _, line := range strings.Split(src, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return slug
}
