// Package terminal makes untrusted text (taken from cards, JWKS, manifests
// and HTTP responses) safe to print: control characters, DEL, C1 controls,
// line and paragraph separators and Unicode bidi controls are shown as
// escapes, so no card can move the cursor, recolour the terminal, fake a
// line of output or reorder what is shown (Trojan Source).
package terminal

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Unsafe reports whether r must not reach a terminal raw: C0 controls
// (including tab and newline), DEL, C1 controls, U+2028 and U+2029, the
// bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069),
// the implicit direction marks (U+200E, U+200F, U+061C), and invalid UTF-8
// (utf8.RuneError).
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r == utf8.RuneError:
		return true
	}
	return false
}

// Escape returns s with every Unsafe rune written as a Go-style escape
// (\n, \t, \x1b, \u202e); a backslash is doubled only when something was
// escaped, so ordinary text prints as it is.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// EscapeLines is Escape applied to each line of s: the line breaks of a
// multi-line message stay, everything else Unsafe is escaped.
func EscapeLines(s string) string {
	if !needsEscape(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Escape(l)
	}
	return strings.Join(lines, "\n")
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if Unsafe(r) {
			return true
		}
		i += size
	}
	return false
}

// EscapeJSON rewrites the Unsafe runes that encoding/json leaves raw (DEL,
// C1 controls, bidi controls and marks) as \uXXXX escapes, so JSON output
// stays valid JSON with the same meaning and is safe on a terminal.
// encoding/json already escapes C0 controls, U+2028 and U+2029.
func EscapeJSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && r >= 0x20 && Unsafe(r) {
			if out == nil {
				out = make([]byte, 0, len(b)+16)
			}
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
