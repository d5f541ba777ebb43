package manifest

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/mcp"
)

// ToolSkillID is the skill id a tool of the server becomes on its
// synthesized card: the one the a2a table's skillIds gives, else the one
// made from the tool's name (SkillID).
func (s *MCPServer) ToolSkillID(tool string) string {
	if s.A2A != nil {
		if id, ok := s.A2A.SkillIDs[tool]; ok {
			return id
		}
	}
	return SkillID(tool)
}

// checkSkillIDs checks the skillIds of a server's a2a table (at p)
// against its snapshot: each key a tool, each id a skill id; then that
// the tools become skill ids once each. It reports whether all is well.
func (c *checker) checkSkillIDs(p string, s *MCPServer) bool {
	n := len(c.errs)
	kp := p + ".skillIds"
	given := s.A2A.SkillIDs
	tools := make(map[string]bool, len(s.Snapshot.Tools))
	for _, t := range s.Snapshot.Tools {
		tools[t.Name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(given)) {
		switch id := given[name]; {
		case !tools[name]:
			c.errorf(join(kp, name), "the snapshot %s has no tool %q%s: a key of skillIds is a tool's name exactly as tools/list gives it; correct the name, or remove the key", s.SnapshotPath, name, closestTool(name, s.Snapshot.Tools))
		case !skillIDRE.MatchString(id):
			c.errorf(join(kp, name), "%q is not a skill id: use 1 to 128 letters, digits, '.', '_', ':' and '-', beginning with a letter or digit, e.g. %q", id, SkillID(id))
		}
	}
	if len(c.errs) > n {
		return false
	}
	// Each id once; tools that collide without an id given are told
	// together, with the line that parts them.
	owner := map[string]string{}
	var clashes []string
	groups := map[string][]string{}
	for _, t := range s.Snapshot.Tools {
		id := s.ToolSkillID(t.Name)
		other, dup := owner[id]
		if !dup {
			owner[id] = t.Name
			continue
		}
		_, mine := given[t.Name]
		_, theirs := given[other]
		switch {
		case mine:
			c.errorf(join(kp, t.Name), "skill id %q is tool %q's too; skill ids must be unique: choose another", id, other)
		case theirs:
			c.errorf(join(kp, other), "skill id %q is tool %q's too (made from its name); skill ids must be unique: choose another", id, t.Name)
		default:
			if len(groups[id]) == 0 {
				clashes = append(clashes, id)
				groups[id] = []string{other}
			}
			groups[id] = append(groups[id], t.Name)
		}
	}
	if len(clashes) > 0 {
		c.errorf(kp, "%s", clashMessage(kp, clashes, groups))
	}
	return len(c.errs) == n
}

// clashMessage says which tools become one skill id and how to part them
// with skillIds (kp, its key path), with a line to start from.
func clashMessage(kp string, ids []string, groups map[string][]string) string {
	var parts []string
	for _, id := range ids {
		verb := "all become"
		if len(groups[id]) == 2 {
			verb = "both become"
		}
		parts = append(parts, fmt.Sprintf("tools %s %s skill id %q", quotedList(groups[id]), verb, id))
	}
	// An example for the first group: its tools numbered.
	base := strings.Trim(ids[0], "-._:")
	if base == "" {
		base = "tool"
	}
	var pairs []string
	for i, tool := range groups[ids[0]] {
		pairs = append(pairs, fmt.Sprintf("%s = %q", strconv.Quote(tool), base+"-"+strconv.Itoa(i+1)))
	}
	return fmt.Sprintf("%s: name their skill ids with skillIds in the server's a2a table (%s), e.g. the line a2a.skillIds = { %s } in its [[mcpServers]] table (or skillIds = { ... } under [mcpServers.a2a])",
		strings.Join(parts, "; "), kp, strings.Join(pairs, ", "))
}

// quotedList is names quoted and joined: "a" and "b", or "a", "b" and "c".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// closestTool is " (did you mean X?)" for the tool whose name is closest
// to name, else a few of the tools' names.
func closestTool(name string, tools []mcp.Tool) string {
	best, bestDist := "", 4
	var names []string
	for _, t := range tools {
		if d := EditDistance(strings.ToLower(name), strings.ToLower(t.Name)); d < bestDist && d <= len([]rune(t.Name))/2 {
			best, bestDist = t.Name, d
		}
		names = append(names, t.Name)
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	slices.Sort(names)
	if len(names) > 5 {
		for i, n := range names[:5] {
			names[i] = strconv.Quote(n)
		}
		return " (its tools: " + strings.Join(names[:5], ", ") + ", ...)"
	}
	return " (its tools: " + quotedList(names) + ")"
}
