// Package jsonstr writes strings as JSON in the three forms the project
// publishes: RFC 8785's, which is signed (package sign), and
// encoding/json's without and with HTML escaping, which cards are written
// in (package card) and pages carry (package htmlexec). Most of a string
// needs no escape: such runs are found eight bytes at a time (Run).
package jsonstr

import "unicode/utf8"

// Form is a way of writing a string as JSON.
type Form uint8

// The forms of Append.
const (
	// Canonical is RFC 8785's form (ECMAScript's JSON.stringify): '"',
	// '\\' and the control characters escaped, with the short escapes
	// (\b \t \n \f \r) where they exist and \u00xx for the others, all
	// else as it is. The string must be valid UTF-8.
	Canonical Form = iota
	// Plain is encoding/json's form without HTML escaping
	// (Encoder.SetEscapeHTML(false)): Canonical's escapes, U+2028 and
	// U+2029 as \u2028 and \u2029, and each byte of invalid UTF-8 as
	// \ufffd.
	Plain
	// HTML is json.Marshal's form: Plain's, and '<', '>' and '&' as
	// \u003c, \u003e and \u0026.
	HTML
)

// hexDigits are the digits of \u escapes, lower-case as every form
// writes them.
const hexDigits = "0123456789abcdef"

// Append appends s to dst, quoted, in form f.
func Append(dst []byte, s string, f Form) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Canonical and Plain skip what they write as it is eight bytes
		// at a time, to the first byte they escape (run stops exactly
		// there) or, Plain, to the first that is not ASCII, read as a
		// rune below; HTML reads byte by byte.
		if f != HTML {
			if i += run(s[i:], f == Plain); i >= len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if !escaped[f][c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			if r == utf8.RuneError {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			}
			start = i + size
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendEscape appends the escape every form writes for the ASCII byte
// c.
func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\t':
		return append(dst, '\\', 't')
	case '\n':
		return append(dst, '\\', 'n')
	case '\f':
		return append(dst, '\\', 'f')
	case '\r':
		return append(dst, '\\', 'r')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// escaped marks, for each form, the ASCII bytes it escapes.
var escaped = func() (t [HTML + 1][utf8.RuneSelf]bool) {
	for f := range t {
		for c := range 0x20 {
			t[f][c] = true
		}
		t[f]['"'], t[f]['\\'] = true, true
	}
	t[HTML]['<'], t[HTML]['>'], t[HTML]['&'] = true, true, true
	return t
}()

// Run is how many bytes s begins with that JSON holds as they are, in a
// string of any encoder (RFC 8259, RFC 8785) and as any strict reader
// takes them: neither a control character, '"' nor '\\'. It looks at
// eight bytes at a time.
func Run(s string) int { return run(s, false) }

// run is Run; with ascii set it also stops at the first byte of 0x80 or
// more, for writers that read what is not ASCII rune by rune.
func run(s string, ascii bool) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var high uint64 // the bytes of 0x80 or more to stop at
	if ascii {
		high = highs
	}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // one bounds check for the eight loads, which the compiler joins
		x := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		q, bs := x^(ones*'"'), x^(ones*'\\')
		// A byte below 0x20, or a zero byte of q or bs (a quote or a
		// backslash), or one of 0x80 or more when asked. Each test may
		// also flag bytes after a real one, never misses one.
		if (x&high|(x-ones*0x20)&^x|(q-ones)&^q|(bs-ones)&^bs)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || ascii && c >= 0x80 {
			break
		}
	}
	return i
}
