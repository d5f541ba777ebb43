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
	reflect.TypeFor[Agent]():     slugRE,
	reflect.TypeFor[MCPServer](): slugRE,
	reflect.TypeFor[Skill]():     skillIDRE,
}

// nameElements records the ids that name the elements of the list at
// path, of element type el: an id is used only when it is valid and, but
// for agents, no other element of the list has it. An agent is named by
// its id even when another has it too, as when it is read on its own
// (Source.Agent), which cannot know; its line tells the two apart, and
// the problem of the duplicate id names both by index.
func (c *checker) nameElements(path string, el reflect.Type, items []any) {
	re, ok := idPatterns[el]
	if !ok {
		return
	}
	unique := el != reflect.TypeFor[Agent]()
	at := make(map[string]int, len(items))
	for i, it := range items {
		tbl, _ := it.(map[string]any)
		id, _ := tbl["id"].(string)
		if !re.MatchString(id) {
			continue
		}
		if !unique {
			c.nameElement(path+"["+strconv.Itoa(i)+"]", id)
			continue
		}
		if _, dup := at[id]; dup {
			at[id] = -1
			continue
		}
		at[id] = i
	}
	for id, i := range at {
		if i >= 0 {
			c.nameElement(path+"["+strconv.Itoa(i)+"]", id)
		}
	}
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
var listPathRE = regexp.MustCompile(`\b(?:agents|mcpServers)(?:\.(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)|\[[0-9]+\])*`)

// namedMsg is msg with the key paths it mentions named as by named.
func (c *checker) namedMsg(msg string) string {
	if len(c.names) == 0 || !strings.Contains(msg, "]") {
		return msg
	}
	return listPathRE.ReplaceAllStringFunc(msg, c.named)
}
