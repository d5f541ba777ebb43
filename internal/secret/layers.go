package secret

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDepth is how many layers of base64 InText decodes: base64 of a PEM
// file is one, base64 of a JSON file that holds base64 of a key two.
const maxDepth = 2

// maxDecoded bounds what one layer decodes, in bytes.
const maxDecoded = 1 << 20

// minSegment is the shortest segment of base64 characters that a blank
// may continue: words of prose are shorter, the lines of a wrapped key
// longer.
const minSegment = 16

// minTextRun is the shortest base64 run decoded to be read as text: 18
// bytes, enough for {"kty":"oct","k":
const minTextRun = 24

// layers finds base64 or base64url runs in data, including runs cut into
// segments by blanks (spaces, tabs, line breaks, JSON's \n: a PEM body
// joined with spaces, or the elements of an array joined by InParts),
// looks in the joined runs for DER and OpenSSH private keys, and, while
// depth is below maxDepth, decodes each to text and looks in that as
// InText does.
func layers(data []byte, depth int) (Finding, bool) {
	budget := maxDecoded
	var run []byte
	for i := 0; i < len(data); {
		if b64[data[i]] == 0 {
			i++
			continue
		}
		// Most segments are words: shorter than minSegment, not
		// continued, and too short to decode; pass them without copying.
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
			// A blank continues the run when a base64 character follows.
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
			// encodedRuns read each segment alone; read them joined.
			if f, ok := encodedRunsIn(run, nil, nil); ok {
				f.Offset = start
				return f, true
			}
		}
		if depth >= maxDepth || budget <= 0 {
			continue
		}
		// The run; and, when it held nothing, the run without a short
		// last segment after a blank, which is more often the word that
		// follows a blob ("... LS0tLQo= before you start") than the
		// blob's last line: a word such as "end" decodes to text too,
		// glued to the blob's.
		for k, r := range [2][]byte{run, run[:cut]} {
			if len(r) < minTextRun || budget <= 0 || k == 1 && cut == len(run) {
				continue
			}
			text, ok := decodeText(r)
			if !ok {
				continue
			}
			budget -= len(text)
			if f, ok := decodedFinding(text, depth+1); ok {
				f.Offset = start
				return f, true
			}
		}
	}
	return Finding{}, false
}

// segmentEnd is where the segment of base64 characters starting at
// data[i] ends.
func segmentEnd(data []byte, i int) int {
	for i < len(data) && b64[data[i]] != 0 {
		i++
	}
	return i
}

// decodedFinding looks in text that a base64 run decoded to: what InText
// finds, an API token (APIToken), or a JSON object holding a credential
// (a service account's file).
func decodedFinding(text []byte, depth int) (Finding, bool) {
	if f, ok := inText(text, depth); ok {
		return f.within("base64-encoded"), true
	}
	if APIToken(string(text)) != "" {
		return Finding{Kind: "base64-encoded API token"}, true
	}
	if embeddedCredential(string(text)) {
		return Finding{Kind: "base64-encoded credential file"}, true
	}
	return Finding{}, false
}

// decodeText decodes run (the standard alphabet, as b64 maps it, without
// padding) at each of the four character offsets, and returns the first
// decoding that reads as text: valid UTF-8, nearly all of it printable.
func decodeText(run []byte) ([]byte, bool) {
	for off := range 4 {
		s := run[off:]
		if len(s)%4 == 1 {
			s = s[:len(s)-1]
		}
		if len(s) > maxDecoded*4/3 {
			s = s[:maxDecoded*4/3/4*4]
		}
		dec := make([]byte, base64.RawStdEncoding.DecodedLen(len(s)))
		n := decodeB64(dec, s)
		if textual(dec[:n]) {
			return dec[:n], true
		}
	}
	return nil, false
}

// textual reports whether b is UTF-8 of which at most one rune in
// twenty is a control character other than a blank or line break.
func textual(b []byte) bool {
	if len(b) == 0 || !utf8.Valid(b) {
		return false
	}
	bad, n := 0, 0
	for _, r := range string(b) {
		n++
		if r != '\n' && r != '\r' && r != '\t' && (unicode.IsControl(r) || r == utf8.RuneError) {
			bad++
		}
	}
	return bad*20 <= n
}

// InParts reports key material or a credential that the elements of an
// array hold only together: a PEM body or a base64 blob split across
// elements (read joined by line breaks), or a JSON Web Token split at its
// dots. What an element holds by itself is left to InText on it.
func InParts(parts []string) (Finding, bool) {
	if len(parts) < 2 {
		return Finding{}, false
	}
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	if total < minTextRun {
		return Finding{}, false
	}
	// What parts hold only together is a long run of base64 cut in two
	// or more: most arrays (tags, modes) hold no such piece.
	long := 0
	for _, p := range parts {
		if j := segmentEnd([]byte(p), 0); j >= minSegment || j == len(p) && j >= 8 {
			long++
		}
	}
	if long < 2 {
		return Finding{}, false
	}
	// What the parts hold together, read first: most arrays hold
	// nothing joined either, and then what each element holds by itself
	// (which makes the array hold nothing only together) need not be
	// read at all.
	f, joined := InText(strings.Join(parts, "\n"))
	if joined {
		f.Kind += " split across elements"
	} else if splitJWT(parts) {
		f = Finding{Kind: "JSON Web Token split across elements"}
	} else {
		return Finding{}, false
	}
	for _, p := range parts {
		if _, ok := InText(p); ok {
			return Finding{}, false
		}
	}
	return f, true
}

// splitJWT reports whether parts are the three or five parts of a JSON
// Web Token.
func splitJWT(parts []string) bool {
	if (len(parts) != 3 && len(parts) != 5) || !strings.HasPrefix(strings.TrimSpace(parts[0]), "eyJ") {
		return false
	}
	trimmed := make([]string, len(parts))
	for i, p := range parts {
		trimmed[i] = strings.TrimSpace(p)
	}
	return APIToken(strings.Join(trimmed, ".")) != ""
}
