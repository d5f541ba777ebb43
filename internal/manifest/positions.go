package manifest

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// position is where a key starts: a 1-based line and the byte offsets of
// that line's start and of the key. The column in characters is counted
// only when a diagnostic needs it, so long lines cost nothing up front.
type position struct{ line, lineStart, off int }

// col is the 1-based column in characters.
func (p position) col(src []byte) int {
	return utf8.RuneCount(src[p.lineStart:p.off]) + 1
}

// indexPositions maps every key path in valid TOML source to where its key
// (or, for array elements, its value) starts. The TOML library does not
// expose key positions, so this small scanner finds them; it runs only on
// source the library has already accepted, and anything it cannot follow
// simply yields fewer positions. The first [[agents]] table in src is
// agents[firstAgent].
func indexPositions(src []byte, firstAgent int) map[string]position {
	s := &scanner{src: string(src), out: map[string]position{}, arrays: map[string]int{}}
	if firstAgent > 0 {
		s.arrays["agents"] = firstAgent - 1
	}
	s.top()
	return s.out
}

type scanner struct {
	src       string
	i         int
	line      int // 0-based
	lineStart int
	out       map[string]position
	arrays    map[string]int // array-of-tables path -> last index
}

func (s *scanner) here() position {
	return position{s.line + 1, s.lineStart, s.i}
}

func (s *scanner) record(path string, p position) {
	if _, ok := s.out[path]; !ok {
		s.out[path] = p
	}
}

// recordKeys records a dotted key (each prefix too) under path, all at
// pos, and returns the full path.
func (s *scanner) recordKeys(path string, keys []string, pos position) string {
	for _, k := range keys {
		path = join(path, k)
		s.record(path, pos)
	}
	return path
}

func (s *scanner) eof() bool { return s.i >= len(s.src) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.i]
}

func (s *scanner) advance() {
	if s.src[s.i] == '\n' {
		s.line++
		s.lineStart = s.i + 1
	}
	s.i++
}

// skipSpace skips blanks, and newlines and comments when multiline is set.
func (s *scanner) skipSpace(multiline bool) {
	for !s.eof() {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.advance()
		case c == '\n' && multiline:
			s.advance()
		case c == '#':
			for !s.eof() && s.peek() != '\n' {
				s.advance()
			}
		default:
			return
		}
	}
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.advance()
	}
}

func (s *scanner) top() {
	table := ""
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		if s.peek() == '[' {
			table = s.header()
			continue
		}
		start := s.here()
		keys := s.key()
		if len(keys) == 0 {
			s.skipLine()
			continue
		}
		path := s.recordKeys(table, keys, start)
		s.skipSpace(false)
		if s.peek() == '=' {
			s.advance()
			s.value(path)
		}
		s.skipLine()
	}
}

// header reads [a.b] or [[a.b]] and returns the resolved table path.
func (s *scanner) header() string {
	start := s.here()
	s.advance()
	array := s.peek() == '['
	if array {
		s.advance()
	}
	s.skipSpace(false)
	keys := s.key()
	s.skipLine()
	path := ""
	for i, k := range keys {
		path = join(path, k)
		last := i == len(keys)-1
		if last && array {
			n, ok := s.arrays[path]
			if ok {
				n++
			}
			s.arrays[path] = n
			s.record(path, start)
			path += "[" + strconv.Itoa(n) + "]"
		} else if n, ok := s.arrays[path]; ok {
			path += "[" + strconv.Itoa(n) + "]"
		}
		s.record(path, start)
	}
	return path
}

// key reads a possibly dotted key.
func (s *scanner) key() []string {
	var keys []string
	for {
		s.skipSpace(false)
		var k string
		switch c := s.peek(); {
		case c == '"' || c == '\'':
			k = s.quoted()
		case isBare(c):
			st := s.i
			for !s.eof() && isBare(s.peek()) {
				s.advance()
			}
			k = s.src[st:s.i]
		default:
			return keys
		}
		keys = append(keys, k)
		s.skipSpace(false)
		if s.peek() != '.' {
			return keys
		}
		s.advance()
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// quoted reads a one-line basic or literal string and returns its text.
func (s *scanner) quoted() string {
	q := s.peek()
	st := s.i
	s.advance()
	for !s.eof() && s.peek() != q && s.peek() != '\n' {
		if q == '"' && s.peek() == '\\' {
			s.advance()
		}
		s.advance()
	}
	if !s.eof() && s.peek() == q {
		s.advance()
	}
	raw := s.src[st:s.i]
	if q == '\'' {
		return strings.Trim(raw, "'")
	}
	if u, err := strconv.Unquote(raw); err == nil {
		return u
	}
	return strings.Trim(raw, `"`)
}

// value skips one value, recording the paths inside arrays and inline tables.
func (s *scanner) value(path string) {
	s.skipSpace(false)
	if s.eof() {
		return
	}
	switch c := s.peek(); c {
	case '"', '\'':
		if strings.HasPrefix(s.src[s.i:], string([]byte{c, c, c})) {
			s.multilineString(c)
		} else {
			s.quoted()
		}
	case '[':
		s.advance()
		for n := 0; ; n++ {
			s.skipSpace(true)
			if s.eof() || s.peek() == ']' {
				break
			}
			before := s.i
			el := path + "[" + strconv.Itoa(n) + "]"
			s.record(el, s.here())
			s.value(el)
			s.skipSpace(true)
			if s.peek() == ',' {
				s.advance()
			}
			if s.i == before {
				s.advance() // something this scanner does not follow: move on
			}
		}
		if !s.eof() {
			s.advance()
		}
	case '{':
		s.advance()
		for {
			// TOML 1.1 allows newlines and comments in inline tables.
			s.skipSpace(true)
			if s.eof() || s.peek() == '}' {
				break
			}
			before := s.i
			start := s.here()
			keys := s.key()
			if len(keys) == 0 {
				break
			}
			p := s.recordKeys(path, keys, start)
			s.skipSpace(false)
			if s.peek() == '=' {
				s.advance()
			}
			s.value(p)
			s.skipSpace(true)
			if s.peek() == ',' {
				s.advance()
			}
			if s.i == before {
				s.advance()
			}
		}
		if s.peek() == '}' {
			s.advance()
		}
	default:
		for !s.eof() {
			c := s.peek()
			if c == ',' || c == ']' || c == '}' || c == '\n' || c == '#' {
				break
			}
			s.advance()
		}
	}
}

func (s *scanner) multilineString(q byte) {
	delim := string([]byte{q, q, q})
	for range 3 {
		s.advance()
	}
	for !s.eof() {
		if q == '"' && s.peek() == '\\' {
			s.advance()
			if !s.eof() {
				s.advance()
			}
			continue
		}
		if strings.HasPrefix(s.src[s.i:], delim) {
			for range 3 {
				s.advance()
			}
			// A closing delimiter may be followed by up to two more quotes.
			for n := 0; n < 2 && s.peek() == q; n++ {
				s.advance()
			}
			return
		}
		s.advance()
	}
}

// join appends one key to a key path, quoting it when it is not bare.
func join(path, key string) string {
	k := key
	if key == "" || strings.IndexFunc(key, func(r rune) bool { return r > 127 || !isBare(byte(r)) }) >= 0 {
		k = strconv.Quote(key)
	}
	if path == "" {
		return k
	}
	return path + "." + k
}
