package manifest

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// span is a run of whole lines of the manifest: bytes [off, end), whose
// first line is line (1-based).
type span struct {
	off, end int64
	line     int
}

// layout is where a manifest's parts are: the head (everything that is not
// an [[agents]] table, possibly in several runs) and one span per agent,
// from its [[agents]] header to the line before the next table that is not
// one of its own sub-tables.
type layout struct {
	head   []span
	agents []span
}

// errIrregular says the source is not in the shape split follows; the
// caller reads it as a whole instead, which is always correct.
var errIrregular = errors.New("manifest: irregular layout")

// splitter follows TOML's lexical structure line by line, just enough to
// find top-level table headers: strings (one- and multi-line), comments and
// the brackets of multi-line arrays.
type splitter struct {
	ml      byte // quote of the multi-line string the scan is inside, or 0
	depth   int  // open brackets and braces of a value
	out     layout
	inAgent bool // the current section belongs to the last agent
	cur     *span
	sawHead bool // a [table] header that is not the root has been seen
}

// split finds the layout of the manifest read from r. It reads r once, in
// order, holding one line at a time; a source whose shape it does not
// follow (agents defined other than as [[agents]] tables, an agent's
// sub-table after another table, a header it cannot read) gives
// errIrregular.
func split(r io.Reader) (*layout, error) {
	s := &splitter{cur: &span{line: 1}}
	_, end, err := s.read(r, 0, 1<<20)
	if err != nil {
		return nil, err
	}
	s.close(end)
	return &s.out, nil
}

// read follows the lines of r, which start at offset off of the manifest,
// through a buffer of bufSize bytes (longer lines are put together), and
// returns how many it read and the offset after them. The section open
// at the end is left open.
func (s *splitter) read(r io.Reader, off int64, bufSize int) (lines int, end int64, err error) {
	br := bufio.NewReaderSize(r, bufSize)
	line := 1
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		if long != nil {
			chunk = append(long, chunk...)
			long = nil
		}
		if len(chunk) > 0 {
			if perr := s.line(chunk, off, line); perr != nil {
				return 0, 0, perr
			}
			off += int64(len(chunk))
			line++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	return line - 1, off, nil
}

// join continues s, which read up to at, with p, which read from at on,
// starting with an [[agents]] header line, and whose lines are numbered
// from shift+1: what that header does to the section s has open (p did
// the rest). It holds only when s ends outside any string or value, which
// is when that line is a header.
func (s *splitter) join(p *splitter, at int64, shift int) {
	s.close(at)
	for _, sp := range p.out.head {
		sp.line += shift
		s.out.head = append(s.out.head, sp)
	}
	for _, sp := range p.out.agents {
		sp.line += shift
		s.out.agents = append(s.out.agents, sp)
	}
	cur := *p.cur
	cur.line += shift
	s.cur, s.inAgent, s.ml, s.depth = &cur, p.inAgent, p.ml, p.depth
	s.sawHead = s.sawHead || p.sawHead
}

// close ends the current section at off.
func (s *splitter) close(off int64) {
	if s.cur == nil {
		return
	}
	s.cur.end = off
	if s.inAgent {
		s.out.agents = append(s.out.agents, *s.cur)
	} else if s.cur.end > s.cur.off {
		s.out.head = append(s.out.head, *s.cur)
	}
	s.cur = nil
}

func (s *splitter) line(b []byte, off int64, line int) error {
	i := 0
	if s.ml == 0 && s.depth == 0 {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i < len(b) && b[i] == '[' {
			return s.header(b[i:], off, line)
		}
		if !s.sawHead && !s.inAgent && i < len(b) && b[i] != '#' && b[i] != '\n' && b[i] != '\r' {
			// A root key: agents must not be defined here.
			agents, _, _, ok := readKey(b[i:])
			if !ok || agents {
				return errIrregular
			}
		}
	}
	return s.scan(b[i:])
}

// header handles a table header line starting at b[0] == '['.
func (s *splitter) header(b []byte, off int64, line int) error {
	array := len(b) > 1 && b[1] == '['
	k := 1
	if array {
		k = 2
	}
	agents, parts, n, ok := readKey(b[k:])
	if !ok {
		return errIrregular
	}
	rest := b[k+n:]
	if len(rest) == 0 || rest[0] != ']' || array && (len(rest) < 2 || rest[1] != ']') {
		return errIrregular
	}
	if array {
		rest = rest[2:]
	} else {
		rest = rest[1:]
	}
	if !blankOrComment(rest) {
		return errIrregular
	}
	switch {
	case !agents:
		if s.inAgent {
			s.close(off)
			s.cur = &span{off: off, line: line}
		}
		s.inAgent = false
		s.sawHead = true
	case parts == 1 && array:
		s.close(off)
		s.cur = &span{off: off, line: line}
		s.inAgent = true
	case parts == 1:
		return errIrregular // [agents]: let the TOML library say what is wrong
	default:
		// A sub-table of the current agent, which must run on from it.
		if !s.inAgent {
			return errIrregular
		}
	}
	return nil
}

// scan follows strings, comments and brackets through the rest of a line.
func (s *splitter) scan(b []byte) error {
	for i := 0; i < len(b); i++ {
		if s.ml == 0 {
			// Most bytes outside strings change nothing.
			for i < len(b) && !splitSpecial[b[i]] {
				i++
			}
			if i == len(b) {
				return nil
			}
		}
		if s.ml != 0 {
			j, closed := endMultiline(b, i, s.ml)
			i = j
			if closed {
				s.ml = 0
			}
			continue
		}
		switch c := b[i]; c {
		case '#':
			return nil
		case '"', '\'':
			if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				s.ml = c
				i += 2
				continue
			}
			i = endString(b, i)
		case '[', '{':
			s.depth++
		case ']', '}':
			if s.depth > 0 {
				s.depth--
			}
		}
	}
	return nil
}

// splitSpecial marks the bytes scan acts on outside strings.
var splitSpecial = func() (t [256]bool) {
	for _, c := range []byte("#\"'[]{}") {
		t[c] = true
	}
	return t
}()

// endString returns the index of the closing quote of the one-line string
// opening at b[i], or the end of the line.
func endString(b []byte, i int) int {
	q := b[i]
	for i++; i < len(b); i++ {
		// Only a quote, a backslash or a new line can matter.
		if i = nextOf3(b, i, q, '\\', '\n'); i >= len(b) {
			break
		}
		switch b[i] {
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			return i
		case '\n':
			return i
		}
	}
	return len(b) - 1
}

// endMultiline scans from b[i] inside a multi-line string quoted by q; it
// returns the index of the last byte consumed and whether the string closed.
func endMultiline(b []byte, i int, q byte) (int, bool) {
	for ; i < len(b); i++ {
		// Only a quote or a backslash can matter.
		if i = nextOf3(b, i, q, '\\', q); i >= len(b) {
			break
		}
		switch {
		case b[i] == '\\' && q == '"':
			i++
		case b[i] == q && i+2 < len(b) && b[i+1] == q && b[i+2] == q:
			i += 2
			// Up to two more quotes belong to the content.
			for k := 0; k < 2 && i+1 < len(b) && b[i+1] == q; k++ {
				i++
			}
			return i, true
		}
	}
	return len(b) - 1, false
}

// readKey reads a dotted key at the start of b (after optional blanks):
// whether its first part is "agents", how many parts it has and how many
// bytes it took; ok is false when a part is not a key TOML allows on one
// line. Bare parts, nearly all, are read in place.
func readKey(b []byte) (agents bool, parts, n int, ok bool) {
	i := 0
	for {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i >= len(b) {
			return false, 0, 0, false
		}
		var part []byte
		switch c := b[i]; {
		case c == '"':
			j := endString(b, i)
			if j <= i || j >= len(b) || b[j] != '"' {
				return false, 0, 0, false
			}
			k, err := strconv.Unquote(string(b[i : j+1]))
			if err != nil {
				return false, 0, 0, false
			}
			part = []byte(k)
			i = j + 1
		case c == '\'':
			j := endString(b, i)
			if j <= i || j >= len(b) || b[j] != '\'' {
				return false, 0, 0, false
			}
			part = b[i+1 : j]
			i = j + 1
		case isBare(c):
			st := i
			for i < len(b) && isBare(b[i]) {
				i++
			}
			part = b[st:i]
		default:
			return false, 0, 0, false
		}
		if parts == 0 {
			agents = string(part) == "agents"
		}
		parts++
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i < len(b) && b[i] == '.' {
			i++
			continue
		}
		return agents, parts, i, true
	}
}

// blankOrComment reports whether b holds only blanks and an optional
// comment up to the end of the line.
func blankOrComment(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		case '#':
			return true
		default:
			return false
		}
	}
	return true
}
