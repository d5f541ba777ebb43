package site

import (
	"encoding/json"
	"hash/maphash"
	"strings"
	"unicode"
	"unicode/utf8"

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
// place), trimmed of "-._", joined by spaces. An ASCII part (nearly all)
// is lowered and split byte by byte into one reused buffer, and each word
// is looked up in the output itself: only the distinct words are copied,
// once.
func searchWords(parts []string) string {
	var w wordSet
	for _, p := range parts {
		if w.asciiPart(p) {
			continue
		}
		p = strings.ToLower(p)
		start := -1 // where the current word began; -1 between words
		for i, r := range p {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' || r == '_':
				if start < 0 {
					start = i
				}
			case start >= 0:
				w.add(p[start:i])
				start = -1
			}
		}
		if start >= 0 {
			w.add(p[start:])
		}
	}
	return string(w.out)
}

// wordSet gathers searchWords's words: out is the words so far, joined by
// spaces, and slots a hash set of them (open addressing; 0 is an empty
// slot, else a word's offset in out plus one, shifted up 32 bits, and its
// length); low holds the lowered bytes of the ASCII part being split.
type wordSet struct {
	out   []byte
	slots []uint64
	used  int
	low   []byte
}

// wordSeed seeds the hash of the words' set; the output does not depend
// on it.
var wordSeed = maphash.MakeSeed()

// add adds the word w, trimmed of "-._", unless it is empty or known.
func (s *wordSet) add(w string) {
	if w = strings.Trim(w, "-._"); w != "" {
		s.addBytes([]byte(w))
	}
}

// addBytes adds the non-empty word w unless it is known.
func (s *wordSet) addBytes(w []byte) {
	if s.slots == nil {
		s.slots = make([]uint64, 256)
	}
	mask := uint64(len(s.slots) - 1)
	for i := maphash.Bytes(wordSeed, w) & mask; ; i = (i + 1) & mask {
		e := s.slots[i]
		if e == 0 {
			if len(s.out) > 0 {
				s.out = append(s.out, ' ')
			}
			s.slots[i] = uint64(len(s.out)+1)<<32 | uint64(len(w))
			s.out = append(s.out, w...)
			if s.used++; 2*s.used > len(s.slots) {
				s.grow()
			}
			return
		}
		if at, n := int(e>>32)-1, int(uint32(e)); n == len(w) && string(s.out[at:at+n]) == string(w) {
			return
		}
	}
}

// grow doubles the slots of the set.
func (s *wordSet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	mask := uint64(len(s.slots) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		at, n := int(e>>32)-1, int(uint32(e))
		i := maphash.Bytes(wordSeed, s.out[at:at+n]) & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = e
	}
}

// asciiPart adds the words of p when p is all ASCII, and reports whether
// it was: for ASCII, lowering maps only A-Z, and the word characters are
// exactly [a-z0-9._-].
func (s *wordSet) asciiPart(p string) bool {
	low := append(s.low[:0], p...)
	s.low = low
	for i, c := range low {
		if c >= utf8.RuneSelf {
			return false
		}
		low[i] = asciiLower[c]
	}
	for i := 0; i < len(low); {
		if !asciiWordByte[low[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(low) && asciiWordByte[low[j]] {
			j++
		}
		w := low[i:j]
		i = j
		for len(w) > 0 && isTrimByte(w[0]) {
			w = w[1:]
		}
		for len(w) > 0 && isTrimByte(w[len(w)-1]) {
			w = w[:len(w)-1]
		}
		if len(w) > 0 {
			s.addBytes(w)
		}
	}
	return true
}

// isTrimByte reports the bytes searchWords trims from a word's ends.
func isTrimByte(c byte) bool { return c == '-' || c == '.' || c == '_' }

// asciiWordByte marks the ASCII bytes of a word once lowered: letters,
// digits, '-', '.' and '_'.
var asciiWordByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['-'], t['.'], t['_'] = true, true, true
	return t
}()

// asciiLower maps each byte to its lower case: A-Z to a-z, every other
// byte to itself.
var asciiLower = func() (t [256]byte) {
	for c := range 256 {
		t[c] = byte(c)
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = byte(c) + 'a' - 'A'
	}
	return t
}()

// clip shortens s to at most n characters, ending with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}
