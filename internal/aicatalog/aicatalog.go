// Package aicatalog reads AI Catalogs (Agent-Card/ai-catalog, with ADR
// 0014's entry type and ADR 0015's urn:air identifiers) as a verifier
// must: strictly, checked against the JSON Schema of the Agentic Resource
// Discovery spec and the spec's rules that the schema does not hold.
package aicatalog

import (
	"bytes"
	_ "embed"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/agentcards/agentcards/internal/card"
)

// Media types of catalog entries.
const (
	MediaType      = "application/ai-catalog+json"      // a nested catalog
	AgentCardType  = "application/a2a-agent-card+json"  // an A2A Agent Card
	ServerCardType = "application/mcp-server-card+json" // an MCP Server Card
)

// MaxDepth is how deep catalogs may nest (ADR 0001 recommends 4 levels,
// the root being the first).
const MaxDepth = 4

// schemaJSON is spec/schemas/ai-catalog.schema.json of
// ards-project/ard-spec at commit 4a8a6b8fdd3ac4a50dcb63213573159c1eed7856.
//
//go:embed ai-catalog.schema.json
var schemaJSON []byte

const schemaURL = "https://raw.githubusercontent.com/ards-project/ard-spec/main/spec/schemas/ai-catalog.schema.json"

var schema = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		panic("aicatalog: the embedded schema: " + err.Error())
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		panic("aicatalog: the embedded schema: " + err.Error())
	}
	return c.MustCompile(schemaURL)
})

// Catalog is what a catalog says, as far as finding its entries goes.
type Catalog struct {
	SpecVersion string
	// HostName, HostIdentifier and HostDocumentationURL are the host's
	// displayName, identifier and documentationUrl, when given.
	HostName, HostIdentifier, HostDocumentationURL string
	Entries                                        []Entry
}

// Entry is one catalog entry.
type Entry struct {
	Identifier, DisplayName string
	// Type is the entry's media type; TypeLower the same without
	// parameters or blanks, in lower case (MediaTypeOf), as clients match it.
	Type, TypeLower string
	URL             string
	// Inline is set when the entry carries its document in data; HasURL
	// when it has a url member (the spec asks for exactly one of them).
	Inline, HasURL bool
	Description    string
	Version        string
	Tags           []string
}

// Problem is one way a catalog departs from the spec: Path is a JSON
// pointer into the catalog ("" for the whole).
type Problem struct {
	Path, Msg string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return p.Path + ": " + p.Msg
}

// limits is how catalogs are read: as strictly as cards (no member name
// twice, or twice in different case, which clients would resolve
// differently), but the numbers extension data may hold are taken as
// they are.
var limits = card.Limits{Depth: card.MaxDepth, InexactNumbers: true}

// Parse reads a catalog. err is set when data is not a catalog at all (not
// one JSON object, duplicate member names, no entries array); problems
// lists where it departs from the spec.
func Parse(data []byte) (c *Catalog, problems []Problem, err error) {
	doc, err := card.Decode(data, limits)
	if err != nil {
		return nil, nil, err
	}
	raw, ok := doc["entries"].([]any)
	if !ok {
		return nil, nil, fmt.Errorf(`not an AI Catalog: no "entries" array`)
	}
	c = &Catalog{}
	c.SpecVersion, _ = doc["specVersion"].(string)
	if h, ok := doc["host"].(map[string]any); ok {
		c.HostName, _ = h["displayName"].(string)
		c.HostIdentifier, _ = h["identifier"].(string)
		c.HostDocumentationURL, _ = h["documentationUrl"].(string)
	}
	for _, r := range raw {
		c.Entries = append(c.Entries, entryOf(r))
	}
	return c, check(doc, c), nil
}

// MediaTypeOf is an entry's type as Walk matches it (mediaType).
func MediaTypeOf(t string) string { return mediaType(t) }

// mediaType is an entry's type as a client matches it: the media type
// without parameters or surrounding blanks, in lower case
// ("application/a2a-agent-card+json; version=1.0" is an A2A card too).
func mediaType(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	if base, _, err := mime.ParseMediaType(t); err == nil {
		return base
	}
	if base, _, ok := strings.Cut(t, ";"); ok {
		return strings.TrimSpace(base)
	}
	return t
}

// entryOf reads one entry; members of the wrong type read as absent (the
// schema check reports them).
func entryOf(raw any) Entry {
	m, _ := raw.(map[string]any)
	str := func(k string) string { s, _ := m[k].(string); return s }
	e := Entry{
		Identifier:  str("identifier"),
		DisplayName: str("displayName"),
		Type:        str("type"),
		URL:         str("url"),
		Description: str("description"),
		Version:     str("version"),
	}
	e.TypeLower = mediaType(e.Type)
	_, e.Inline = m["data"]
	_, e.HasURL = m["url"]
	if tags, ok := m["tags"].([]any); ok {
		for _, t := range tags {
			if s, ok := t.(string); ok {
				e.Tags = append(e.Tags, s)
			}
		}
	}
	return e
}

// check holds the decoded catalog doc to ARD's schema and to the spec's
// rules beyond it.
func check(doc map[string]any, c *Catalog) []Problem {
	var out []Problem
	if err := schema().Validate(any(doc)); err != nil {
		if ve, ok := err.(*jsonschema.ValidationError); ok {
			out = append(out, leafProblems(ve)...)
		} else {
			out = append(out, Problem{Msg: err.Error()})
		}
	}
	// The spec (Multi-Version Entries): an identifier names one artifact;
	// listed more than once, each entry gives a version, and a different
	// one.
	byID := map[string][]int{}
	for i, e := range c.Entries {
		if e.Identifier != "" {
			byID[e.Identifier] = append(byID[e.Identifier], i)
		}
	}
	for i, e := range c.Entries {
		at := fmt.Sprintf("/entries/%d", i)
		if same := byID[e.Identifier]; len(same) > 1 {
			for _, j := range same {
				if j >= i {
					break
				}
				if e.Version == "" || c.Entries[j].Version == "" || e.Version == c.Entries[j].Version {
					out = append(out, Problem{at + "/identifier", fmt.Sprintf("identifier %s is also entry %d's: entries may share an identifier only as different versions, each with its version", e.Identifier, j)})
					break
				}
			}
		}
		if e.HasURL == e.Inline {
			out = append(out, Problem{at, "an entry carries exactly one of url (where its document is) and data (the document itself)"})
		}
		if e.URL != "" {
			if u, err := url.Parse(e.URL); err == nil && u.Scheme != "https" && u.Scheme != "http" {
				out = append(out, Problem{at + "/url", fmt.Sprintf("%q: a catalog entry is fetched over https", e.URL)})
			}
		}
	}
	if len(out) > maxProblems {
		out = append(out[:maxProblems], Problem{Msg: fmt.Sprintf("and %d more problems, not listed", len(out)-maxProblems)})
	}
	return out
}

// leafProblems flattens schema errors to the ones that say what is wrong
// (not the "validation failed" of every enclosing schema), in order, once
// each.
func leafProblems(ve *jsonschema.ValidationError) []Problem {
	printer := message.NewPrinter(language.English)
	var out []Problem
	seen := map[Problem]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if strings.Contains(e.SchemaURL, "/catalogEntry/oneOf/") {
				return // said plainly by check
			}
			p := Problem{Path: pointer(e.InstanceLocation), Msg: e.ErrorKind.LocalizedString(printer)}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// maxProblems is how many schema problems of one catalog are listed.
const maxProblems = 100

// pointer is the JSON pointer of a path.
func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}
