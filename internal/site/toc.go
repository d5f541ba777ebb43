package site

import (
	"html/template"
	"regexp"
	"strconv"
	"strings"
)

// A long page opens with a table of contents: a Markdown page with at
// least tocMinHeadings second-level headings, an agent's page with at
// least tocMinSkills skills.
const (
	tocMinHeadings = 3
	tocMinSkills   = 4
)

// tocEntry is one line of a table of contents: a link to the element id.
type tocEntry struct {
	ID   string
	Text template.HTML
}

var (
	// h2Pattern is a second-level heading with an id, as the Markdown
	// renderer writes it (raw HTML never reaches a page).
	h2Pattern  = regexp.MustCompile(`<h2 id="([^"]+)">(.*?)</h2>`)
	tagPattern = regexp.MustCompile(`<[^>]*>`)
)

// headings are the second-level headings of rendered Markdown, their text
// with its markup (code, emphasis, links) removed and escaped as it was.
func headings(html template.HTML) []tocEntry {
	var out []tocEntry
	for _, m := range h2Pattern.FindAllStringSubmatch(string(html), -1) {
		out = append(out, tocEntry{ID: m[1], Text: template.HTML(strings.TrimSpace(tagPattern.ReplaceAllString(m[2], "")))})
	}
	return out
}

// pageTOC is the table of contents of a Markdown page's body, and the
// body cut after its first heading, where the contents go; nil when the
// page has fewer than tocMinHeadings second-level headings.
func pageTOC(body template.HTML) (toc []tocEntry, lead, rest template.HTML) {
	toc = headings(body)
	if len(toc) < tocMinHeadings {
		return nil, "", ""
	}
	s := string(body)
	i := strings.Index(s, "</h1>")
	if i < 0 {
		return toc, "", body
	}
	i += len("</h1>")
	return toc, template.HTML(s[:i]), template.HTML(s[i:])
}

// agentTOC is the table of contents of an agent's page: the headings of
// its description and docs, then the template's sections.
func agentTOC(p *agentPage) []tocEntry {
	toc := append(headings(p.Description), headings(p.Docs)...)
	if p.Docs != "" && !p.DocsHeading {
		toc = append([]tocEntry{{ID: "docs-h", Text: "Documentation"}}, toc...)
	}
	toc = append(toc, tocEntry{ID: "ifaces-h", Text: "Interfaces"})
	if p.Call != nil {
		toc = append(toc, tocEntry{ID: "call-h", Text: "How to call it"})
	}
	return append(toc,
		tocEntry{ID: "caps-h", Text: "Capabilities"},
		tocEntry{ID: "sec-h", Text: "Security"},
		tocEntry{ID: "skills-h", Text: template.HTML("Skills (" + strconv.Itoa(len(p.Skills)) + ")")},
		tocEntry{ID: "sig-h", Text: "Cards and signatures"},
	)
}
