package secret

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file keeps InText and Scanner.Scan as they ran before the
// detectors were gated on what they need (gate.go): every detector run
// on every text, in the same order. gate_test.go holds the gated ones to
// these. The run finders and decoders they call (encodedRuns, groupedHex,
// hexRuns, decodeText, decodeB64) are today's: each has its own
// reference and fuzz target (FuzzEncodedRuns, FuzzGroupedHex, FuzzHexRuns,
// FuzzUnescape, FuzzDecodeB64).
//
// With views set, the references also read what today's InText and Scan
// read besides: for Scan, the text in base64 runs (textSpans, through
// encodedRuns); for both, the percent and JSON views (throughViews, whose
// decoders have their own fuzz targets, FuzzPercentDecode and
// FuzzJSONUnescape), each text read by every detector, and a base64 run
// followed by a short word is read without it also when the whole run
// decodes to text that holds nothing. Without views they
// are the references as they were, which today's must still find
// something wherever they did.

// inTextReference is inText running every detector (and reading the
// views when views is set).
func inTextReference(data []byte, depth int, views bool) (Finding, bool) {
	if f, ok := genericReference(data); ok {
		return f, true
	}
	if f, ok := aws(data); ok {
		return f, true
	}
	if f, ok := layersReference(data, depth, views); ok {
		return f, true
	}
	if !views || depth >= maxDepth {
		return Finding{}, false
	}
	return throughViews(data, percentEscaped(data), jsonEscaped(data), func(view []byte, _ bool) (Finding, bool) { return inTextReference(view, depth+1, true) })
}

// genericReference is generic running every detector.
func genericReference(data []byte) (Finding, bool) {
	if f, ok := pemArmour(data); ok {
		return f, true
	}
	if f, ok := putty(data); ok {
		return f, true
	}
	if f, ok := jwkTextReference(data); ok {
		return f, true
	}
	if f, ok := encodedRuns(data, nil, nil); ok {
		return f, true
	}
	return groupedHex(data, nil)
}

// jwkTextReference is jwkText with containsKtyReference.
func jwkTextReference(data []byte) (Finding, bool) {
	if !containsKtyReference(data) {
		return Finding{}, false
	}
	data = asciiLower(data)
	privs := membersNamed(data, isPrivateMember)
	for off := 0; off < len(data) && len(privs) > 0; {
		kty := ktyMember(data[off:])
		if kty < 0 {
			break
		}
		kty += off
		for _, q := range privs {
			if q >= kty-jwkReach && q <= kty+jwkReach && (sameObject(data, kty, q) || keyValueReference.Match(data[q:])) {
				return Finding{Kind: "private JSON Web Key", Offset: kty}, true
			}
		}
		off = kty + 3
	}
	return Finding{}, false
}

// keyValueReference matches, at a private member's name (data
// lower-cased), a value that may be key material: a quoted string that
// starts with 20 base64 or base64url characters.
var keyValueReference = regexp.MustCompile(`^[^:=]*[:=][ \t]*\\?["'][a-z0-9+/_-]{20}`)

// sameObject reports whether offsets i and j of data lie in the same
// object, read plainly: between them the braces that count (counted)
// balance and their count never drops below where it started.
func sameObject(data []byte, i, j int) bool {
	if i > j {
		i, j = j, i
	}
	counts := counted(data)
	depth := 0
	for k := i; k < j; k++ {
		if !counts[k] {
			continue
		}
		if data[k] == '{' {
			depth++
		} else if depth--; depth < 0 {
			return false
		}
	}
	return depth == 0
}

// counted marks the braces of data that count, read from its start: not
// those in a quoted string (from a quote to the next one of its kind on
// its line not escaped by a backslash; a quote with none starts no
// string) or in a comment (from a '#' at a line's start or after a space
// or tab to the line's end).
func counted(data []byte) []bool {
	out := make([]bool, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(data) && data[j] != '\n' && data[j] != c {
				if data[j] == '\\' && j+1 < len(data) && data[j+1] != '\n' {
					j++
				}
				j++
			}
			if j < len(data) && data[j] == c {
				i = j
			}
		case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case c == '{' || c == '}':
			out[i] = true
		}
	}
	return out
}

// ktyCasesReference are "kty" in every letter case.
var ktyCasesReference = func() (out [][]byte) {
	for m := range 8 {
		w := []byte("kty")
		for i := range w {
			if m&(1<<i) != 0 {
				w[i] -= 'a' - 'A'
			}
		}
		out = append(out, w)
	}
	return out
}()

// containsKtyReference is containsKty as it was: each letter case looked
// for on its own.
func containsKtyReference(data []byte) bool {
	if bytes.Contains(data, ktyCasesReference[0]) {
		return true
	}
	if len(data) < 1024 {
		return containsFold(data, "kty")
	}
	for _, w := range ktyCasesReference[1:] {
		if bytes.Contains(data, w) {
			return true
		}
	}
	return false
}

// layersReference is layers, decoding into inTextReference.
func layersReference(data []byte, depth int, views bool) (Finding, bool) {
	budget := maxDecoded
	var run []byte
	for i := 0; i < len(data); {
		if b64[data[i]] == 0 {
			i++
			continue
		}
		if j := segmentEnd(data, i); j-i < minSegment {
			for i = j; i < len(data) && data[i] == '='; i++ {
			}
			continue
		}
		start, segments, cut := i, 0, 0
		run = run[:0]
		for {
			before := len(run)
			j := i
			for j < len(data) && b64[data[j]] != 0 {
				run = append(run, b64[data[j]])
				j++
			}
			seg := j - i
			for j < len(data) && data[j] == '=' {
				j++
			}
			segments++
			i = j
			if seg < minSegment {
				if segments > 1 {
					cut = before
				}
				break
			}
			k := j
			for k < len(data) {
				if data[k] == ' ' || data[k] == '\t' || data[k] == '\n' || data[k] == '\r' {
					k++
				} else if data[k] == '\\' && k+1 < len(data) && (data[k+1] == 'n' || data[k+1] == 'r' || data[k+1] == 't') {
					k += 2
				} else {
					break
				}
			}
			if k == j || k >= len(data) || b64[data[k]] == 0 {
				break
			}
			i = k
		}
		if segments > 1 && len(run) >= minRun {
			if f, ok := encodedRunsIn(run, nil, nil); ok {
				f.Offset = start
				return f, true
			}
		}
		if depth >= maxDepth || budget <= 0 {
			continue
		}
		if views {
			// Today's: the run, then, when it held nothing, the run
			// without its short last segment.
			for k, r := range [2][]byte{run, run[:cut]} {
				if len(r) < minTextRun || budget <= 0 || k == 1 && cut == len(run) {
					continue
				}
				if text, ok := decodeText(r); ok {
					budget -= len(text)
					if f, ok := decodedFindingReference(text, depth+1, views); ok {
						f.Offset = start
						return f, true
					}
				}
			}
			continue
		}
		var text []byte
		ok := false
		if len(run) >= minTextRun {
			text, ok = decodeText(run)
		}
		if !ok && cut >= minTextRun {
			// A short last segment, after a blank, is more often the
			// word that follows a blob ("... LS0tLQo= before you
			// start") than the blob's last line: the run without it.
			text, ok = decodeText(run[:cut])
		}
		if !ok {
			continue
		}
		budget -= len(text)
		if f, ok := decodedFindingReference(text, depth+1, views); ok {
			f.Offset = start
			return f, true
		}
	}
	return Finding{}, false
}

// decodedFindingReference is decodedFinding with inTextReference.
func decodedFindingReference(text []byte, depth int, views bool) (Finding, bool) {
	if f, ok := inTextReference(text, depth, views); ok {
		f.Kind = "base64-encoded " + strings.TrimPrefix(f.Kind, "the ")
		return f, true
	}
	if APIToken(string(text)) != "" {
		return Finding{Kind: "base64-encoded API token"}, true
	}
	if embeddedCredential(string(text)) {
		return Finding{Kind: "base64-encoded credential file"}, true
	}
	return Finding{}, false
}

// scanReference is Scanner.Scan running every detector (and reading what
// the file decodes to when views is set).
func (s *Scanner) scanReference(name string, data []byte, views bool) (Finding, bool) {
	textJWK, structural := true, false
	escaped := views && strings.HasSuffix(name, ".json") && jsonEscaped(data)
	if strings.HasSuffix(name, ".json") && (escaped || bytes.Contains(data, []byte("kty"))) && shallowJSON(data) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil && d.Decode(new(any)) == io.EOF {
			if kind, ok := jwkValue(v, 0); ok {
				return Finding{Kind: kind}, true
			}
			textJWK, structural = false, true
		}
	}
	text := data
	if bytes.IndexByte(data, '&') >= 0 {
		text = unescapeReference(data)
		if f, ok := s.literal(data); ok {
			return f, true
		}
	}
	if f, ok := s.viewReference(text, textJWK, views, 0); ok {
		return f, true
	}
	if s.keys.in(data) {
		return Finding{Kind: "the signing key in use (raw bytes)"}, true
	}
	if !views {
		return Finding{}, false
	}
	return s.viewsReference(text, !structural, 0)
}

// viewsReference is Scanner.views with every detector.
func (s *Scanner) viewsReference(text []byte, jsonJWK bool, depth int) (Finding, bool) {
	if depth >= maxDepth {
		return Finding{}, false
	}
	return throughViews(text, percentEscaped(text), jsonEscaped(text), func(view []byte, json bool) (Finding, bool) {
		return s.scanTextReference(view, !json || jsonJWK, depth+1)
	})
}

// scanTextReference is Scanner.scanText running every detector.
func (s *Scanner) scanTextReference(text []byte, jwk bool, depth int) (Finding, bool) {
	if f, ok := s.viewReference(text, jwk, true, depth); ok {
		return f, true
	}
	return s.viewsReference(text, true, depth)
}

// viewReference is Scanner.view running every detector (reading the text
// in base64 runs when views is set).
func (s *Scanner) viewReference(data []byte, textJWK, views bool, depth int) (Finding, bool) {
	if f, ok := s.literal(data); ok {
		return f, true
	}
	if f, ok := pemArmour(data); ok {
		return f, true
	}
	if f, ok := putty(data); ok {
		return f, true
	}
	if textJWK {
		if f, ok := jwkTextReference(data); ok {
			return f, true
		}
	}
	var text func([]byte) (Finding, bool)
	if views && depth < maxDepth {
		text = func(t []byte) (Finding, bool) { return s.scanTextReference(t, true, depth+1) }
	}
	if f, ok := encodedRuns(data, s.keys, text); ok {
		return f, true
	}
	return groupedHex(data, s.keys)
}

// unescapeReference is unescape as it was; it decodes the character references HTML escapers write: numeric
// ones (&#43; &#x2F;) and &amp; &lt; &gt; &quot; &apos;. Others stay as
// they are.
func unescapeReference(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for {
		i := bytes.IndexByte(data, '&')
		if i < 0 {
			return append(out, data...)
		}
		out = append(out, data[:i]...)
		data = data[i:]
		end := bytes.IndexByte(data[:min(len(data), 10)], ';')
		if end < 0 {
			out = append(out, '&')
			data = data[1:]
			continue
		}
		ref := string(data[1:end])
		switch {
		case ref == "amp":
			out = append(out, '&')
		case ref == "lt":
			out = append(out, '<')
		case ref == "gt":
			out = append(out, '>')
		case ref == "quot":
			out = append(out, '"')
		case ref == "apos":
			out = append(out, '\'')
		case len(ref) > 1 && ref[0] == '#':
			base, digits := 10, ref[1:]
			if digits[0] == 'x' || digits[0] == 'X' {
				base, digits = 16, digits[1:]
			}
			n, err := strconv.ParseUint(digits, base, 32)
			if err != nil || n > utf8.MaxRune {
				out = append(out, data[:end+1]...)
			} else {
				out = utf8.AppendRune(out, rune(n))
			}
		default:
			out = append(out, data[:end+1]...)
		}
		data = data[end+1:]
	}
}

// hexRunsReference is hexRuns as it was, reading every byte; it decodes the runs of at least minHexRun hex digits in
// data[from:to], at both offsets, and looks in them as encodedRuns does.
// dec is a buffer to reuse.
func hexRunsReference(data []byte, from, to int, keys *chunks, dec *[]byte) (Finding, bool) {
	if to-from < minHexRun {
		return Finding{}, false // most words
	}
	for i := from; i < to; {
		if !isHex[data[i]] {
			i++
			continue
		}
		j := i
		for j < to && isHex[data[j]] {
			j++
		}
		if j-i >= minHexRun {
			for off := 0; off < 2; off++ {
				s := data[i+off : j]
				s = s[:len(s)/2*2]
				*dec = slices.Grow((*dec)[:0], len(s)/2)[:len(s)/2]
				if _, err := hex.Decode(*dec, s); err != nil {
					continue
				}
				if kind, ok := inBytes(*dec, keys); ok {
					return Finding{Kind: kind + " (hex)", Offset: i}, true
				}
			}
		}
		i = j
	}
	return Finding{}, false
}
