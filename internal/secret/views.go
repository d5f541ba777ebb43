package secret

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds what Scan and InText read besides a text itself: the
// text percent-decoded, as a URL or a form body carries a PEM file or a
// JWK, and the text JSON-unescaped, as a JSON string carries a JWK whose
// member names are written "\u006bty" (throughViews); and, for Scan, the
// stretches of text in the bytes a base64 run decodes to (textSpans),
// where InText reads whole runs as text (layers). A view is read only
// where the text holds what makes it differ in what the detectors look
// for (percentEscaped, jsonEscaped): ordinary pages and cards hold
// neither, and cost two memory-speed searches.

// pctBytes are the bytes whose percent escapes make a text's percent view
// worth reading: line breaks (every PEM file has them), the quotes, ':'
// and '=' of a JWK's members, the '+', '/' and '=' of base64, and '%'
// itself (a text escaped twice). URL encoders leave letters, digits and
// '-' as they are, and spaces alone ("%20" in a file name) make no key.
var pctBytes = byteSet("\n\r\"'%+/:=")

// percentEscaped reports whether data holds a percent escape (in either
// case of hex digit) of one of pctBytes: whether throughViews reads its
// percent views.
func percentEscaped(data []byte) bool {
	for i := bytes.IndexByte(data, '%'); i >= 0 && i+2 < len(data); {
		if isHexDigit(data[i+1]) && isHexDigit(data[i+2]) && pctBytes[unhex(data[i+1])<<4|unhex(data[i+2])] {
			return true
		}
		j := bytes.IndexByte(data[i+1:], '%')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// percentDecode appends to out data with every percent escape decoded,
// and each '+' as a space when plus is set (a query or form body) or as
// itself (a path); a '%' not followed by two hex digits stays as it is.
func percentDecode(out, data []byte, plus bool) []byte {
	for len(data) > 0 {
		i := bytes.IndexAny(data, "%+")
		if i < 0 {
			return append(out, data...)
		}
		out = append(out, data[:i]...)
		data = data[i:]
		switch {
		case data[0] == '+' && plus:
			out = append(out, ' ')
			data = data[1:]
		case data[0] == '%' && len(data) > 2 && isHexDigit(data[1]) && isHexDigit(data[2]):
			out = append(out, unhex(data[1])<<4|unhex(data[2]))
			data = data[3:]
		default:
			out = append(out, data[0])
			data = data[1:]
		}
	}
	return out
}

// jsonEscaped reports whether data holds, after a backslash, an escape
// that JSON encoders do not write for ordinary text but that spells what
// the detectors look for: \u00XX of printable ASCII other than the '&',
// '<' and '>' that Go's encoding/json escapes (\u006b for k, \u0022 for a
// quote), \/ (PHP's json_encode writes it in every URL, and it splits
// a base64 run), or \\\" (a quote escaped twice). Whether throughViews
// reads its JSON view.
func jsonEscaped(data []byte) bool {
	for i := bytes.IndexByte(data, '\\'); i >= 0 && i+1 < len(data); {
		switch data[i+1] {
		case '/':
			return true
		case '\\':
			// \\\" is a quote escaped twice: a JSON string inside a
			// JSON string, as a log line or an event body shows one.
			if i+3 < len(data) && data[i+2] == '\\' && data[i+3] == '"' {
				return true
			}
		case 'u':
			if i+5 < len(data) && data[i+2] == '0' && data[i+3] == '0' && isHexDigit(data[i+4]) && isHexDigit(data[i+5]) {
				c := unhex(data[i+4])<<4 | unhex(data[i+5])
				if c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' {
					return true
				}
			}
		}
		j := bytes.IndexByte(data[i+1:], '\\')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// jsonUnescape appends to out data with the escapes of JSON strings
// decoded, wherever they are: \" \\ \/ \b \f \n \r \t, and \uXXXX (a
// surrogate pair as one character, a lone surrogate as U+FFFD, as
// encoding/json reads them). A backslash before anything else stays.
func jsonUnescape(out, data []byte) []byte {
	for {
		i := bytes.IndexByte(data, '\\')
		if i < 0 || i+1 >= len(data) {
			return append(out, data...)
		}
		out = append(out, data[:i]...)
		data = data[i:]
		switch c := data[1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(data[2:])
			if !ok {
				out = append(out, '\\')
				data = data[1:]
				continue
			}
			n := 6
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if len(data) >= 12 && data[6] == '\\' && data[7] == 'u' {
					r2, ok = hex4(data[8:])
				}
				if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
					r, n = dec, 12
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
			data = data[n:]
			continue
		default:
			out = append(out, '\\')
			data = data[1:]
			continue
		}
		data = data[2:]
	}
}

// hex4 reads four hex digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		if !isHexDigit(c) {
			return 0, false
		}
		r = r<<4 | rune(unhex(c))
	}
	return r, true
}

// throughViews calls look on each view of data that applies, given
// whether data is percentEscaped and jsonEscaped: the percent view with
// '+' as a space, and, where data holds a '+', with '+' as itself
// (url.QueryEscape writes a space as '+', url.PathEscape leaves a '+' of
// base64 as it is); then the JSON view (json is set). A finding's kind
// says which view it was made in; its offset is in that view.
func throughViews(data []byte, pct, json bool, look func(view []byte, json bool) (Finding, bool)) (Finding, bool) {
	if pct {
		for _, plus := range [2]bool{true, false} {
			if !plus && bytes.IndexByte(data, '+') < 0 {
				break
			}
			if f, ok := look(percentDecode(nil, data, plus), false); ok {
				return f.within("percent-encoded"), true
			}
		}
	}
	if json {
		if f, ok := look(jsonUnescape(nil, data), true); ok {
			return f.within("JSON-escaped"), true
		}
	}
	return Finding{}, false
}

// minSpan is the fewest bytes of text in a row that textSpans reads: a
// private key in any notation takes more, and binary bytes (a signature,
// an image) seldom hold so many printable ones in a row.
const minSpan = 16

// spanBytes are the bytes of text textSpans reads in a row: printable
// ASCII, tabs and line breaks.
var spanBytes = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\t'], t['\n'], t['\r'] = true, true, true
	return t
}()

// textSpans calls look on each stretch of dec that reads as text: at
// least minSpan spanBytes in a row, and what follows and precedes them
// while it is spanBytes or a printable UTF-8 character. dec is what a
// base64 run decoded to: the text of a file (or the file whose base64 it
// is) is one stretch, and the bytes that a word or padding around it
// decodes to, which are no text, are left out; a run of binary bytes
// (most runs: signatures, hashes, images) holds none, and costs a read of
// one byte in minSpan.
func textSpans(dec []byte, look func([]byte) (Finding, bool)) (Finding, bool) {
	for p := minSpan - 1; ; {
		start, end, ok := runFrom(dec, p, &spanBytes, minSpan)
		if !ok {
			return Finding{}, false
		}
		for start > 0 {
			if spanBytes[dec[start-1]] {
				start--
			} else if r, n := utf8.DecodeLastRune(dec[:start]); n > 1 && printable(r) {
				start -= n
			} else {
				break
			}
		}
		for end < len(dec) {
			if spanBytes[dec[end]] {
				end++
			} else if r, n := utf8.DecodeRune(dec[end:]); n > 1 && printable(r) {
				end += n
			} else {
				break
			}
		}
		if f, ok := look(dec[start:end]); ok {
			return f, true
		}
		p = end + minSpan
	}
}

// printable reports whether a character decoded from more than one byte
// is text: not U+FFFD (which DecodeRune also returns for bad bytes), not a
// C1 control, not a surrogate or beyond Unicode (which DecodeRune does not
// return).
func printable(r rune) bool { return r != utf8.RuneError && !unicode.IsControl(r) }
