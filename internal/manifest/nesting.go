package manifest

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// MaxDepth is how deeply a manifest may nest tables, arrays and dotted
// keys, counted from the top of the document: extension params get about
// 25 levels of their own, far more than any card needs.
const MaxDepth = 32

// tooDeep reports the line and column where source first nests more than
// MaxDepth levels, counting open brackets and braces plus the parts of a
// dotted key. It runs before the TOML library, in one linear pass that skips
// comments and strings; it only bounds what the library must handle, and
// decode then checks the real depth of every value.
func tooDeep(src []byte) (line, col int, deep bool) {
	depth, dots := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			dots = 0
		case '"', '\'':
			i = skipString(src, i)
		case '[', '{':
			depth++
			dots = 0
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '.':
			dots++
		case '\n', ',', '=':
			dots = 0
		}
		if depth+dots > MaxDepth {
			ls := bytes.LastIndexByte(src[:i], '\n') + 1
			return bytes.Count(src[:i], []byte("\n")) + 1, utf8.RuneCount(src[ls:i]) + 1, true
		}
	}
	return 0, 0, false
}

// skipString returns the index of the last byte of the string that starts
// at src[i] (a quote): basic or literal, single- or multi-line. An
// unterminated string runs to the end of its line (single) or of src.
func skipString(src []byte, i int) int {
	q := src[i]
	multi := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if multi {
		i += 3
	} else {
		i++
	}
	for ; i < len(src); i++ {
		// Only a quote, a backslash or a newline can matter.
		if i = nextOf3(src, i, q, '\\', '\n'); i >= len(src) {
			break
		}
		switch c := src[i]; {
		case c == '\\' && q == '"':
			i++
		case c == '\n' && !multi:
			return i - 1
		case c == q && !multi:
			return i
		case c == q && i+2 < len(src) && src[i+1] == q && src[i+2] == q:
			// A closing delimiter may follow up to two quotes of content.
			i += 2
			for k := 0; k < 2 && i+1 < len(src) && src[i+1] == q; k++ {
				i++
			}
			return i
		}
	}
	return len(src) - 1
}

// nextOf3 is the index of the first byte of src from i on that is a, b or
// c; len(src) when there is none. It looks at eight bytes at a time.
func nextOf3(src []byte, i int, a, b, c byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(src); i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		xa, xb, xc := x^(ones*uint64(a)), x^(ones*uint64(b)), x^(ones*uint64(c))
		// A zero byte in xa, xb or xc: a byte equal to a, b or c.
		if ((xa-ones)&^xa|(xb-ones)&^xb|(xc-ones)&^xc)&highs != 0 {
			break
		}
	}
	for ; i < len(src); i++ {
		if d := src[i]; d == a || d == b || d == c {
			return i
		}
	}
	return len(src)
}
