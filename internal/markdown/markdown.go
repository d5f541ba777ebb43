// Package markdown renders the Markdown people write (agent descriptions,
// site/ pages) to safe HTML: GitHub Flavored Markdown, heading ids that
// keep non-ASCII titles, raw HTML left out, and links limited to http,
// https, mailto and relative URLs.
package markdown

import (
	"bytes"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// md is safe for concurrent use; raw HTML is never enabled (no WithUnsafe).
var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithASTTransformers(util.Prioritized(linkRewriter{}, 90), util.Prioritized(linkFilter{}, 100)),
	),
)

// rewriteKey holds, in a parser context, the function RenderLinks gives.
var rewriteKey = parser.NewContextKey()

// Render converts Markdown to HTML that is safe to put in a page.
func Render(src string) (template.HTML, error) { return RenderWith(NewIDs(), src) }

// RenderWith is Render with a shared set of element ids, so that several
// pieces of Markdown on one page never repeat an id, nor take one the
// page's template uses (reserve those with NewIDs).
func RenderWith(ids *IDs, src string) (template.HTML, error) {
	var b bytes.Buffer
	ctx := parser.NewContext(parser.WithIDs(ids))
	if err := md.Convert([]byte(src), &b, parser.WithContext(ctx)); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil // #nosec: goldmark without WithUnsafe escapes text and drops raw HTML
}

// RenderLinks is RenderWith, with the destination of every link and image
// first passed through rewrite (which sees it as written, and returns it
// unchanged to leave it), so that a page can turn links between Markdown
// files into links between the pages made of them.
func RenderLinks(ids *IDs, src string, rewrite func(dest string) string) (template.HTML, error) {
	var b bytes.Buffer
	ctx := parser.NewContext(parser.WithIDs(ids))
	ctx.Set(rewriteKey, rewrite)
	if err := md.Convert([]byte(src), &b, parser.WithContext(ctx)); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil // #nosec: as RenderWith; linkFilter still runs after the rewrite
}

// linkRewriter applies RenderLinks' function; without one it does nothing.
type linkRewriter struct{}

func (linkRewriter) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	rewrite, _ := pc.Get(rewriteKey).(func(string) string)
	if rewrite == nil {
		return
	}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch l := n.(type) {
			case *ast.Link:
				l.Destination = []byte(rewrite(string(l.Destination)))
			case *ast.Image:
				l.Destination = []byte(rewrite(string(l.Destination)))
			}
		}
		return ast.WalkContinue, nil
	})
}

// SafeURL reports whether a link target may be rendered: http(s), mailto,
// or a relative URL (no scheme).
func SafeURL(raw string) bool {
	s := strings.TrimSpace(raw)
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "", "http", "https", "mailto":
		// A relative URL must not smuggle a scheme past the parser.
		return u.Scheme != "" || !strings.Contains(strings.SplitN(s, "/", 2)[0], ":")
	}
	return false
}

// linkFilter blanks links and images whose destination is not SafeURL, on
// top of goldmark's own filter.
type linkFilter struct{}

func (linkFilter) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	var unsafeAutoLinks []*ast.AutoLink
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			if !SafeURL(string(l.Destination)) {
				l.Destination = []byte("#")
			}
		case *ast.Image:
			if !SafeURL(string(l.Destination)) {
				l.Destination = []byte("")
			}
		case *ast.AutoLink:
			if !SafeURL(string(l.URL(reader.Source()))) {
				unsafeAutoLinks = append(unsafeAutoLinks, l)
			}
		}
		return ast.WalkContinue, nil
	})
	// Replace after the walk: an unsafe autolink becomes its plain text.
	for _, l := range unsafeAutoLinks {
		l.Parent().ReplaceChild(l.Parent(), l, ast.NewString(l.Label(reader.Source())))
	}
}

// IDs generates heading ids that keep letters and digits of every script
// ("Über uns" -> "über-uns", "東京" -> "東京"); goldmark's default drops
// them.
type IDs struct{ used map[string]bool }

// NewIDs starts a set of ids with the reserved ones already taken.
func NewIDs(reserved ...string) *IDs {
	s := &IDs{used: map[string]bool{}}
	for _, r := range reserved {
		s.used[r] = true
	}
	return s
}

// Slug is the id a heading with this text gets (before de-duplication).
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '-':
			dash = true
		}
	}
	return b.String()
}

func (s *IDs) Generate(value []byte, kind ast.NodeKind) []byte {
	base := Slug(string(value))
	if base == "" {
		base = "section"
	}
	id := base
	for n := 1; s.used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	s.used[id] = true
	return []byte(id)
}

func (s *IDs) Put(value []byte) { s.used[string(value)] = true }
