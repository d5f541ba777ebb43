package secret

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
)

// This file finds key material encoded in runs of base64, base64url and
// hex (encodedRuns, groupedHex): DER private keys (der), OpenSSH private
// keys, and the secret bytes of the keys a Scanner holds.

// minRun is the shortest base64 run decoded (30 bytes), and minHexRun the
// shortest hex run (16 bytes).
const (
	minRun    = 40
	minHexRun = 32
)

// b64 maps the base64 and base64url alphabets to one (base64url's '-' and
// '_' become '+' and '/'); 0 marks bytes outside both.
var b64 [256]byte

// isHex marks hexadecimal digits.
var isHex [256]bool

func init() {
	for c := 'A'; c <= 'Z'; c++ {
		b64[c] = byte(c)
	}
	for c := 'a'; c <= 'z'; c++ {
		b64[c] = byte(c)
	}
	for c := '0'; c <= '9'; c++ {
		b64[c] = byte(c)
		isHex[c] = true
	}
	for c := 'a'; c <= 'f'; c++ {
		isHex[c], isHex[c-'a'+'A'] = true, true
	}
	b64['+'], b64['/'], b64['-'], b64['_'] = '+', '/', '+', '/'
	for c := range 256 {
		runish[c] = b64[c] != 0 || strings.IndexByte("\n\r=\\%", byte(c)) >= 0
	}
}

// encodedRuns decodes every run of base64 (or base64url) of at least minRun
// characters, at each of the four character offsets, and every hex run of
// at least minHexRun digits, at both offsets, and looks in the bytes for
// DER private keys, OpenSSH private keys and, when keys is set, the secret
// bytes of those keys; when text is set, it also calls text on every
// stretch of a base64 run's bytes that reads as text (textSpans). A base64
// run continues across line breaks (CR, LF, and the escapes \n and \r
// inside JSON strings), padding and escaped characters (joiner), so PEM
// bodies and wrapped blobs are read whole; it does not continue across
// spaces. Hex digits are base64 characters too, so hex runs are looked for
// inside each segment of alphabet characters.
func encodedRuns(data []byte, keys *chunks, text func([]byte) (Finding, bool)) (Finding, bool) {
	// Every run encodedRunsIn can find lies in a region of at least
	// runStride bytes that are base64 characters or what joins them
	// (runish): nextRun finds each, reading a few bytes in runStride
	// elsewhere, and only those regions are read, each with the byte that
	// ends it. Always data[i-1] is not runish (or i is 0).
	for i := 0; ; {
		from, ok := nextRun(data, i, &runish, runStride)
		if !ok {
			return Finding{}, false
		}
		end := runEnd(data, from+runStride, &runish)
		if f, ok := encodedRunsIn(data[from:min(end+1, len(data))], keys, text); ok {
			f.Offset += from
			return f, true
		}
		i = end + 1
	}
}

// runStride is the fewest bytes a run encodedRunsIn finds may span.
const runStride = min(minRun, minHexRun)

// runish marks the bytes a base64 run may span: the alphabet, and the
// bytes joiner starts with (set by init, after b64).
var runish [256]bool

// encodedRunsIn is encodedRuns read at every byte.
func encodedRunsIn(data []byte, keys *chunks, text func([]byte) (Finding, bool)) (Finding, bool) {
	var run, dec []byte // reused for every run
	for i := 0; i < len(data); {
		if b64[data[i]] == 0 {
			i++
			continue
		}
		// A segment of alphabet characters; most are short words, passed
		// over without copying unless something continues them.
		j := i
		for j < len(data) && b64[data[j]] != 0 {
			j++
		}
		if f, ok := hexRuns(data, i, j, keys, &dec); ok {
			return f, true
		}
		if n, _ := joiner(data, j); j-i < minRun && n == 0 {
			i = j
			continue
		}
		start := i
		run = run[:0]
		for {
			at := len(run)
			run = append(run, data[i:j]...)
			for k, c := range run[at:] {
				run[at+k] = b64[c]
			}
			i = j
			n, c := joiner(data, j)
			if n == 0 || j+n >= len(data) || c == 0 && b64[data[j+n]] == 0 {
				break
			}
			if c != 0 {
				run = append(run, c)
			}
			i = j + n
			for j = i; j < len(data) && b64[data[j]] != 0; j++ {
			}
			if f, ok := hexRuns(data, i, j, keys, &dec); ok {
				return f, true
			}
		}
		i = j
		if len(run) < minRun {
			continue
		}
		for off := 0; off < 4; off++ {
			s := run[off:]
			if len(s)%4 == 1 {
				s = s[:len(s)-1] // a lone character holds no whole byte
			}
			size := base64.RawStdEncoding.DecodedLen(len(s))
			dec = slices.Grow(dec[:0], size)[:size]
			n := decodeB64(dec, s)
			if kind, ok := inBytes(dec[:n], keys); ok {
				return Finding{Kind: kind + " (base64)", Offset: start}, true
			}
			if text == nil {
				continue
			}
			if f, ok := textSpans(dec[:n], text); ok {
				f = f.within("base64-encoded")
				f.Offset = start
				return f, true
			}
		}
	}
	return Finding{}, false
}

// joiner says what at data[j] lets a base64 run go on: an escaped base64
// character (JSON and JavaScript's \/, \u002b and \u002f, a URL's %2B and
// %2F, in either case), which adds c; or line breaks (CR, LF, and the \n
// and \r escapes of a JSON string) and padding ('=', \u003d, %3D), which
// add nothing (c is 0). n is how many bytes it takes; 0 when nothing
// continues the run.
func joiner(data []byte, j int) (n int, c byte) {
	n, c = joinerAt(data, j)
	if n == 0 || c != 0 {
		return n, c
	}
	for j+n < len(data) {
		m, c := joinerAt(data, j+n)
		if m == 0 || c != 0 {
			break
		}
		n += m
	}
	return n, 0
}

// joinerAt is one of what joiner reads, at data[p].
func joinerAt(data []byte, p int) (n int, c byte) {
	if p >= len(data) {
		return 0, 0
	}
	switch data[p] {
	case '\n', '\r', '=':
		return 1, 0
	case '\\':
		if p+1 >= len(data) {
			return 0, 0
		}
		switch data[p+1] {
		case 'n', 'r':
			return 2, 0
		case '/':
			return 2, '/'
		case 'u':
			if p+6 <= len(data) && data[p+2] == '0' && data[p+3] == '0' {
				if n, c, ok := hexEscaped(data[p+4], data[p+5]); ok {
					return n + 4, c
				}
			}
		}
	case '%':
		if p+3 <= len(data) {
			if n, c, ok := hexEscaped(data[p+1], data[p+2]); ok {
				return n + 1, c
			}
		}
	}
	return 0, 0
}

// hexEscaped reads the two hex digits of an escaped '+' (2B), '/' (2F) or
// '=' (3D, c is 0), in either case; n is 2.
func hexEscaped(hi, lo byte) (n int, c byte, ok bool) {
	switch {
	case hi == '2' && lo|0x20 == 'b':
		return 2, '+', true
	case hi == '2' && lo|0x20 == 'f':
		return 2, '/', true
	case hi == '3' && lo|0x20 == 'd':
		return 2, 0, true
	}
	return 0, 0, false
}

// hexRuns decodes the runs of at least minHexRun hex digits in
// data[from:to], at both offsets, and looks in them as encodedRuns does.
// dec is a buffer to reuse.
func hexRuns(data []byte, from, to int, keys *chunks, dec *[]byte) (Finding, bool) {
	// nextRun reads a few bytes in minHexRun until it finds one. Always
	// data[i-1] is not a digit (or i is from): no run starts before i.
	for i := from; ; {
		start, ok := nextRun(data[:to], i, &isHex, minHexRun)
		if !ok {
			return Finding{}, false
		}
		j := runEnd(data[:to], start+minHexRun, &isHex)
		for off := 0; off < 2; off++ {
			s := data[start+off : j]
			s = s[:len(s)/2*2]
			*dec = slices.Grow((*dec)[:0], len(s)/2)[:len(s)/2]
			if _, err := hex.Decode(*dec, s); err != nil {
				continue
			}
			if kind, ok := inBytes(*dec, keys); ok {
				return Finding{Kind: kind + " (hex)", Offset: start}, true
			}
		}
		i = j + 1
	}
}

// b64Values are the values of the standard base64 alphabet's characters.
var b64Values = func() (t [256]byte) {
	for i, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") {
		t[c] = byte(i)
	}
	return t
}()

// decodeB64 is base64.RawStdEncoding.Decode for src of the standard
// alphabet alone (as b64 maps runs to it) and of a length that is not one
// more than a multiple of four, where that never fails: the bytes are the
// same, and so is the count returned. dst holds DecodedLen(len(src)).
func decodeB64(dst, src []byte) int {
	n := 0
	for len(src) >= 4 && len(dst) >= 3 {
		a, b, c, d := b64Values[src[0]], b64Values[src[1]], b64Values[src[2]], b64Values[src[3]]
		dst[0], dst[1], dst[2] = a<<2|b>>4, b<<4|c>>2, c<<6|d
		src, dst = src[4:], dst[3:]
		n += 3
	}
	switch {
	case len(src) == 2 && len(dst) >= 1:
		dst[0] = b64Values[src[0]]<<2 | b64Values[src[1]]>>4
		n++
	case len(src) == 3 && len(dst) >= 2:
		a, b, c := b64Values[src[0]], b64Values[src[1]], b64Values[src[2]]
		dst[0], dst[1] = a<<2|b>>4, b<<4|c>>2
		n += 2
	}
	return n
}

// groupedHex reads hex written in groups, as dumps and source code write
// it: "72:fc:08" (openssl -text), "72 fc 08" (od), "72fc 0818" (xxd),
// "0x72, 0xfc" (C, Go), "\x72\xfc" (Python), across line breaks and
// indentation. A group is an even run of hex digits, perhaps behind 0x or
// \x; groups join while only blanks, line breaks, ':', ',' or ';' stand
// between them. Every stream of at least 16 bytes is looked in as
// encodedRuns does, and for a window of a key at any position.
func groupedHex(data []byte, keys *chunks) (Finding, bool) {
	// Most text never holds 32 hex digits with only separators (and 0x or
	// \x) between them: find such regions, runs of at least 32 hexish
	// bytes (nextRun, which reads a few bytes in 32 elsewhere), and read
	// only those. Always data[i-1] is not hexish (or i is 0): no run
	// starts before i.
	for i := 0; ; {
		from, ok := nextRun(data, i, &hexish, 32)
		if !ok {
			return Finding{}, false
		}
		end := runEnd(data, from+32, &hexish)
		count := 0
		for _, c := range data[from:end] {
			if isHex[c] {
				count++
			}
		}
		if count >= 32 {
			if f, ok := readGroupedHex(data[from:end], keys); ok {
				f.Offset += from
				return f, true
			}
		}
		i = end + 1
	}
}

// hexish marks what groupedHex's regions may hold: hex digits, the
// separators, and the x and backslash of 0x and \x.
var hexish = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isHexDigit(byte(c)) || strings.IndexByte(" \t\r\n:,;xX\\", byte(c)) >= 0
	}
	return t
}()

func isHexDigit(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

// readGroupedHex is groupedHex for one region.
func readGroupedHex(data []byte, keys *chunks) (Finding, bool) {
	var buf []byte
	start := -1
	check := func() (Finding, bool) {
		defer func() { buf, start = buf[:0], -1 }()
		if len(buf) < 16 {
			return Finding{}, false
		}
		if kind, ok := inBytes(buf, nil); ok {
			return Finding{Kind: kind + " (hex)", Offset: start}, true
		}
		if keys.anywhere(buf) {
			return Finding{Kind: "the signing key in use (hex)", Offset: start}, true
		}
		return Finding{}, false
	}
	for i := 0; i < len(data); {
		j := i
		if j+1 < len(data) && (data[j] == '0' && data[j+1]|0x20 == 'x' || data[j] == '\\' && data[j+1] == 'x') {
			j += 2
		}
		k := j
		for k < len(data) && isHex[data[k]] {
			k++
		}
		if n := k - j; n >= 2 && n%2 == 0 {
			if start < 0 {
				start = i
			}
			for p := j; p < k; p += 2 {
				buf = append(buf, unhex(data[p])<<4|unhex(data[p+1]))
			}
			i = k
			for i < len(data) && strings.IndexByte(" \t\r\n:,;", data[i]) >= 0 {
				i++
			}
			continue
		}
		if f, ok := check(); ok {
			return f, true
		}
		i = max(k, i+1)
	}
	return check()
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// inBytes looks in decoded bytes for a DER private key, an OpenSSH private
// key, or a chunk of one of keys.
func inBytes(dec []byte, keys *chunks) (string, bool) {
	if bytes.Contains(dec, []byte("openssh-key-v1\x00")) {
		return "OpenSSH private key", true
	}
	if der(dec) {
		return "DER private key", true
	}
	if keys != nil && keys.in(dec) {
		return "the signing key in use", true
	}
	return "", false
}

// maxDERAttempts bounds the parses der tries on one decoded run.
const maxDERAttempts = 64

// der reports a DER-encoded private key anywhere in b: at each version
// INTEGER followed by what a private key has next (PKCS #8 v1 and v2,
// 02 01 00|01 30: the algorithm SEQUENCE; SEC 1, 02 01 01 04: the key
// OCTET STRING; PKCS #1, 02 01 00 02: the modulus INTEGER) it backs up to
// the enclosing SEQUENCE header, cuts exactly the length that header
// gives, and asks crypto/x509 to parse it.
func der(b []byte) bool {
	// Each parse reads what its header claims, so a run packed with
	// version patterns could cost time growing with its square: a real key
	// shows up among the first few candidates.
	attempts := 0
	for off := 0; ; {
		i := bytes.IndexByte(b[off:], 2)
		if i < 0 || off+i+4 > len(b) {
			return false
		}
		i += off
		off = i + 1
		if b[i+1] != 1 {
			continue
		}
		switch v, next := b[i+2], b[i+3]; {
		case v == 0 && (next == 0x30 || next == 2):
		case v == 1 && (next == 0x30 || next == 4):
		default:
			continue
		}
		for _, hdr := range []int{2, 3, 4} {
			s := i - hdr
			if s < 0 || b[s] != 0x30 {
				continue
			}
			var n int
			switch hdr {
			case 2:
				n = int(b[s+1])
				if n >= 0x80 {
					continue
				}
			case 3:
				if b[s+1] != 0x81 {
					continue
				}
				n = int(b[s+2])
			case 4:
				if b[s+1] != 0x82 {
					continue
				}
				n = int(b[s+2])<<8 | int(b[s+3])
			}
			end := s + hdr + n
			if end > len(b) {
				continue
			}
			if attempts++; attempts > maxDERAttempts {
				return false
			}
			blob := b[s:end]
			if _, err := x509.ParsePKCS8PrivateKey(blob); err == nil {
				return true
			}
			if _, err := x509.ParseECPrivateKey(blob); err == nil {
				return true
			}
			if _, err := x509.ParsePKCS1PrivateKey(blob); err == nil {
				return true
			}
		}
	}
}
