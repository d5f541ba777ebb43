package manifest

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Diagnostics name agents, skills and MCP servers by their ids
// (agents["travel"].skills["search"].tags) rather than by their place in
// a list (agents[2].skills[0].tags), which a reader would have to count.
// Key paths stay index-based inside the checker, where they find
// positions; they are named only as a diagnostic is made.

// idPatterns are the element types named by their id, with what an id
// must look like to name one.
var idPatterns = map[reflect.Type]*regexp.Regexp{
	reflect.TypeFor[Agent]():       slugRE,
	reflect.TypeFor[MCPServer]():   slugRE,
	reflect.TypeFor[RemoteAgent](): slugRE,
	reflect.TypeFor[Skill]():       skillIDRE,
}

// list is a list whose elements may be named by their ids: the elements
// of the list at path, of type el, from index first on.
type list struct {
	path  string
	el    reflect.Type
	items []any
	first int
}

// nameElements notes the list at path, of element type el, whose
// elements are named by their ids once a diagnostic needs them (a manifest
// without problems never spends time on names).
func (c *checker) nameElements(path string, el reflect.Type, items []any, first int) {
	if _, ok := idPatterns[el]; ok {
		c.lists = append(c.lists, list{path, el, items, first})
	}
}

// resolveNames names the elements of the lists noted so far: by an id
// that is valid and, but for agents, that no other element of the list
// has. An agent is named by its id even when another has it too, as when
// it is read on its own (Source.Agent), which cannot know; its line tells
// the two apart, and the problem of the duplicate id names both by index.
func (c *checker) resolveNames() {
	for _, l := range c.lists {
		re := idPatterns[l.el]
		unique := l.el != reflect.TypeFor[Agent]()
		at := make(map[string]int, len(l.items))
		for i, it := range l.items {
			tbl, _ := it.(map[string]any)
			id, _ := tbl["id"].(string)
			if !re.MatchString(id) {
				continue
			}
			if _, dup := at[id]; dup && unique {
				at[id] = -1
				continue
			}
			at[id] = l.first + i
			if !unique {
				c.nameElement(l.path+"["+strconv.Itoa(l.first+i)+"]", id)
			}
		}
		for id, i := range at {
			if unique && i >= 0 {
				c.nameElement(l.path+"["+strconv.Itoa(i)+"]", id)
			}
		}
	}
	c.lists = nil
}

// nameElement names the list element at path (agents[2]) by id.
func (c *checker) nameElement(path, id string) {
	if c.names == nil {
		c.names = map[string]string{}
	}
	c.names[path] = id
}

// named is path with each element that has a name written by it:
// agents[2].skills[0] -> agents["b"].skills["search"].
func (c *checker) named(path string) string {
	if len(c.lists) > 0 {
		c.resolveNames()
	}
	if len(c.names) == 0 || !strings.Contains(path, "]") {
		return path
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(path); i++ {
		if path[i] != ']' {
			continue
		}
		id, ok := c.names[path[:i+1]]
		if !ok {
			continue
		}
		open := strings.LastIndexByte(path[:i], '[')
		b.WriteString(path[last:open])
		b.WriteString("[")
		b.WriteString(strconv.Quote(id))
		b.WriteString("]")
		last = i + 1
	}
	b.WriteString(path[last:])
	return b.String()
}

// listPathRE matches a key path in a message that may hold named
// elements.
var listPathRE = regexp.MustCompile(`\b(?:agents|mcpServers|remoteAgents)(?:\.(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)|\[[0-9]+\])*`)

// namedMsg is msg with the key paths it mentions named as by named.
func (c *checker) namedMsg(msg string) string {
	if len(c.lists) > 0 {
		c.resolveNames()
	}
	if len(c.names) == 0 || !strings.Contains(msg, "]") {
		return msg
	}
	return listPathRE.ReplaceAllStringFunc(msg, c.named)
}
