package site

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/agentcards/agentcards/internal/manifest"
)

// searchShardData is one search shard: for each agent its id, name,
// version, a short summary, the distinct lower-case words of its name,
// description, tags and skills, which is what the search matches, and
// what the front list shows of it besides (icon, badges, facts, tags), so
// that a result looks like the list's entry. isDefault says which agent
// the origin serves.
func searchShardData(agents []*manifest.Agent, servers []manifest.MCPServer, isDefault func(string) bool) ([]byte, error) {
	type entry struct {
		ID      string `json:"i"`
		Name    string `json:"n"`
		Version string `json:"v"`
		Summary string `json:"s"`
		Words   string `json:"w"`
		// Kind is "mcp" for an MCP server (its page is mcp/<id>/).
		Kind string `json:"k,omitempty"`
		// Icon, Tags and Auth are the list's; Flags holds "d" for the
		// default agent, "s" for streaming and "p" for push
		// notifications; Tools is an MCP server's count of tools.
		Icon  string   `json:"c,omitempty"`
		Tags  []string `json:"g,omitempty"`
		Auth  []string `json:"a,omitempty"`
		Flags string   `json:"f,omitempty"`
		Tools int      `json:"o,omitempty"`
	}
	out := make([]entry, 0, len(agents)+len(servers))
	for i := range servers {
		s := &servers[i]
		parts := []string{s.ID, s.Name, s.Title, s.Description, "mcp"}
		parts = append(parts, s.Tags...)
		for _, t := range s.Snapshot.Tools {
			parts = append(parts, t.Name, t.Title, clip(t.Description, 300))
		}
		out = append(out, entry{ID: s.ID, Name: serverTitle(s), Version: s.Version, Summary: clip(s.Description, 160), Words: searchWords(parts), Kind: "mcp", Tags: s.Tags, Tools: len(s.Snapshot.Tools)})
	}
	for _, a := range agents {
		parts := []string{a.ID, a.Name, a.Description}
		parts = append(parts, skillTags(a)...)
		for _, s := range a.Skills {
			parts = append(parts, s.Name, s.Description)
		}
		flags := ""
		if isDefault(a.ID) {
			flags += "d"
		}
		if a.Capabilities.Streaming {
			flags += "s"
		}
		if a.Capabilities.PushNotifications {
			flags += "p"
		}
		out = append(out, entry{ID: a.ID, Name: a.Name, Version: a.Version, Summary: clip(summary(a.Description), 160), Words: searchWords(parts),
			Icon: a.IconURL, Tags: listedTags(a), Auth: authKinds(a), Flags: flags})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// searchWords is the distinct lower-case words of parts, in first-use
// order: the fields of each lower-cased part between runes that are not a
// letter, a digit, '-', '.' or '_' (strings.FieldsFunc's split, done in
// place), trimmed of "-._", joined by spaces.
func searchWords(parts []string) string {
	seen := make(map[string]struct{}, 64)
	var b strings.Builder
	add := func(w string) {
		w = strings.Trim(w, "-._")
		if _, dup := seen[w]; w == "" || dup {
			return
		}
		seen[w] = struct{}{}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	for _, p := range parts {
		p = strings.ToLower(p)
		start := -1 // where the current word began; -1 between words
		for i, r := range p {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' || r == '_':
				if start < 0 {
					start = i
				}
			case start >= 0:
				add(p[start:i])
				start = -1
			}
		}
		if start >= 0 {
			add(p[start:])
		}
	}
	return b.String()
}

// clip shortens s to at most n characters, ending with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}
