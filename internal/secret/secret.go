// Package secret finds private key material and credentials in text: in
// every string of agents.toml and of imported cards (InText), and in every
// file a build is about to publish (Scanner). It knows PEM private-key
// armour, private JSON Web Keys in any notation, unarmored DER private keys
// in base64, base64url or hex (PKCS #8, SEC 1, PKCS #1), OpenSSH and PuTTY
// private keys, AWS secret access keys (InText only), and, for a Scanner,
// the secret bytes of the very keys a build holds in any of those encodings.
// It never reports the secret itself, only what kind it found and where.
package secret

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
)

// Finding is key material or a credential found in text.
type Finding struct {
	// Kind says what was found, in words: "PEM private key",
	// "private JSON Web Key", "DER private key (base64)", ...
	Kind string
	// Offset is where, in bytes from the start of the text scanned (or of
	// the unescaped view of it the finding was made in).
	Offset int
}

// String is Kind as a noun phrase for a sentence: "a PEM private key",
// "an AWS secret access key", "the signing key in use (hex)".
func (f Finding) String() string {
	switch {
	case strings.HasPrefix(f.Kind, "the "):
		return f.Kind
	case f.Kind != "" && strings.ContainsRune("AEIOUaeiou", rune(f.Kind[0])):
		return "an " + f.Kind
	}
	return "a " + f.Kind
}

// PrivateJWKMembers are the JWK members (RFC 7518) that only private and
// symmetric keys have.
var PrivateJWKMembers = []string{"d", "p", "q", "dp", "dq", "qi", "k", "oth"}

// PrivateMembers lists, sorted, the members of a decoded JWK that are
// PrivateJWKMembers in any letter case: Go's encoding/json reads "D" as
// "d".
func PrivateMembers(jwk map[string]any) []string {
	var out []string
	for name := range jwk {
		for _, m := range PrivateJWKMembers {
			if strings.EqualFold(name, m) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// IsPrivateJWK reports an object that is a JWK (it has kty) with one of
// the PrivateJWKMembers, member names in any letter case: Go's
// encoding/json and go-jose read {"KTY": "OKP", "D": "..."} as a private
// key.
func IsPrivateJWK(m map[string]any) bool {
	kty := false
	for name := range m {
		if strings.EqualFold(name, "kty") {
			kty = true
			break
		}
	}
	return kty && len(PrivateMembers(m)) > 0
}

// InText reports the first credential or key material in free-form text:
// everything a Scanner finds without specific keys, plus AWS secret access
// keys (a 40-character key next to an access key id, or after a name such
// as aws_secret_access_key), key material in base64 runs cut by blanks,
// and all of these once more inside text that base64 or base64url runs
// decode to (two layers deep). Credentials in URLs and connection strings
// are InURLs': lint reports them, where a reason can silence a finding
// that is none.
func InText(s string) (Finding, bool) {
	return inText([]byte(s), 0)
}

// inText is InText at a depth of decoding.
func inText(data []byte, depth int) (Finding, bool) {
	if f, ok := generic(data); ok {
		return f, true
	}
	if f, ok := aws(data); ok {
		return f, true
	}
	return layers(data, depth)
}

// generic runs the detectors that need no knowledge of particular keys.
func generic(data []byte) (Finding, bool) {
	if f, ok := pemArmour(data); ok {
		return f, true
	}
	if f, ok := putty(data); ok {
		return f, true
	}
	if f, ok := jwkText(data); ok {
		return f, true
	}
	if f, ok := encodedRuns(data, nil); ok {
		return f, true
	}
	return groupedHex(data, nil)
}

// pemArmour finds "-----BEGIN ... PRIVATE KEY-----" (RSA, EC, DSA,
// OPENSSH, ENCRYPTED, and PGP's "PRIVATE KEY BLOCK").
func pemArmour(data []byte) (Finding, bool) {
	begin := []byte("-----BEGIN ")
	for off := 0; ; {
		i := bytes.Index(data[off:], begin)
		if i < 0 {
			return Finding{}, false
		}
		i += off
		label := data[i+len(begin):]
		end := bytes.Index(label, []byte("-----"))
		if end >= 0 && end <= 64 && bytes.Contains(label[:end], []byte("PRIVATE KEY")) {
			return Finding{Kind: "PEM private key", Offset: i}, true
		}
		off = i + len(begin)
	}
}

// putty finds a PuTTY key file (.ppk), which holds its private part in
// "Private-Lines:".
func putty(data []byte) (Finding, bool) {
	i := bytes.Index(data, []byte("PuTTY-User-Key-File-"))
	if i >= 0 && bytes.Contains(data[i:], []byte("Private-Lines:")) {
		return Finding{Kind: "PuTTY private key", Offset: i}, true
	}
	return Finding{}, false
}

// jwkText finds a private JWK written in any notation: a kty member and a
// private member (PrivateJWKMembers), each quoted or bare and followed by
// ':' or '=', as in JSON, a TOML inline table or a JavaScript object.
//
// Member names are read in any letter case ("KTY", "D"), as Go's
// encoding/json and go-jose read them.
func jwkText(data []byte) (Finding, bool) {
	if !containsKty(data) {
		return Finding{}, false
	}
	data = asciiLower(data)
	// The private member belongs to the same key: within jwkReach of its
	// kty (a 4096-bit RSA JWK holds its d within about 1,400 characters of
	// kty, whatever the member order), not anywhere on a page that also
	// says x.d = "1". Both lists are in order: one pass over each.
	privs := membersNamed(data, isPrivateMember)
	p := 0
	for off := 0; off < len(data) && len(privs) > 0; {
		kty := ktyMember(data[off:])
		if kty < 0 {
			break
		}
		kty += off
		for p < len(privs) && privs[p] < kty-jwkReach {
			p++
		}
		if p < len(privs) && privs[p] <= kty+jwkReach {
			return Finding{Kind: "private JSON Web Key", Offset: kty}, true
		}
		off = kty + 3
	}
	return Finding{}, false
}

// jwkReach is how far from kty jwkText looks for a private member.
const jwkReach = 4096

// ktyMember returns the offset of the first kty member name, as
// memberNamed would, but by searching for "kty" (at memory speed) rather
// than reading every byte; -1 when there is none.
func ktyMember(data []byte) int {
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("kty"))
		if i < 0 {
			return -1
		}
		i += off
		off = i + 3
		start, end := i, i+3
		quote := byte(0)
		if start > 0 && (data[start-1] == '"' || data[start-1] == '\'') {
			quote = data[start-1]
			start--
		}
		if start > 0 && isIdent(data[start-1]) {
			continue
		}
		if quote != 0 {
			if end >= len(data) || data[end] != quote {
				continue
			}
			end++
		}
		for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
			end++
		}
		if end < len(data) && (data[end] == ':' || data[end] == '=') {
			return i
		}
	}
}

func isPrivateMember(name []byte) bool {
	for _, m := range PrivateJWKMembers {
		if string(name) == m {
			return true
		}
	}
	return false
}

// membersNamed returns the offsets of every member name that match accepts,
// in order; a member's value must start with a quote (JWK members are
// strings), so code such as k = jwks.keys[0] is no member.
func membersNamed(data []byte, match func([]byte) bool) []int {
	var out []int
	for i, c := range data {
		if c != ':' && c != '=' {
			continue
		}
		v := i + 1
		for v < len(data) && (data[v] == ' ' || data[v] == '\t') {
			v++
		}
		if v < len(data) && data[v] == '\\' {
			v++ // an escaped quote, inside a JSON string
		}
		if v >= len(data) || data[v] != '"' && data[v] != '\'' {
			continue
		}
		j := i
		for j > 0 && (data[j-1] == ' ' || data[j-1] == '\t') {
			j--
		}
		end := j
		quote := byte(0)
		if j > 0 && (data[j-1] == '"' || data[j-1] == '\'') {
			quote = data[j-1]
			j--
			end = j
		}
		start := j
		for start > 0 && end-start < 4 && isIdent(data[start-1]) {
			start--
		}
		if start == end || start > 0 && isIdent(data[start-1]) {
			continue
		}
		if quote != 0 && (start == 0 || data[start-1] != quote) {
			continue
		}
		if match(data[start:end]) {
			out = append(out, start)
		}
	}
	return out
}

func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}

var (
	awsIDRE      = regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`)
	awsSecretRE  = regexp.MustCompile(`(?:^|[^A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?:$|[^A-Za-z0-9/+=])`)
	awsNamedRE   = regexp.MustCompile(`(?i)secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}(?:$|[^A-Za-z0-9/+=])`)
	awsKindWords = "AWS secret access key"
)

// aws finds an AWS secret access key: 40 base64 characters beside an
// access key id, or after a name like aws_secret_access_key.
func aws(data []byte) (Finding, bool) {
	// Both forms need a word the text rarely holds; look for it at memory
	// speed before running a regular expression (manifests have many
	// short strings).
	if !containsFold(data, "access") && !bytes.Contains(data, []byte("AKIA")) && !bytes.Contains(data, []byte("ASIA")) {
		return Finding{}, false
	}
	if loc := awsNamedRE.FindIndex(data); loc != nil {
		return Finding{Kind: awsKindWords, Offset: loc[0]}, true
	}
	if awsIDRE.Find(data) != nil {
		if loc := awsSecretRE.FindIndex(data); loc != nil {
			return Finding{Kind: awsKindWords, Offset: loc[0]}, true
		}
	}
	return Finding{}, false
}

// ktyCases are "kty" in every letter case.
var ktyCases = func() (out [][]byte) {
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

// containsKty reports whether data holds "kty" in any letter case, each
// case looked for at memory speed.
func containsKty(data []byte) bool {
	if bytes.Contains(data, ktyCases[0]) {
		return true
	}
	if len(data) < 1024 {
		return containsFold(data, "kty") // one pass beats seven on short text
	}
	for _, w := range ktyCases[1:] {
		if bytes.Contains(data, w) {
			return true
		}
	}
	return false
}

// asciiLower is a copy of data with ASCII letters in lower case; every
// other byte, and so every offset, is kept.
func asciiLower(data []byte) []byte {
	out := make([]byte, len(data))
	for i, c := range data {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// containsFold reports whether data holds word (lower-case ASCII) in any
// letter case.
func containsFold(data []byte, word string) bool {
	for i := 0; i+len(word) <= len(data); i++ {
		if data[i]|0x20 == word[0] && bytes.EqualFold(data[i:i+len(word)], []byte(word)) {
			return true
		}
	}
	return false
}

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
// bytes of those keys. A base64 run continues across line breaks (CR, LF,
// and the escapes \n and \r inside JSON strings), padding and escaped
// characters (joiner), so PEM bodies and wrapped blobs are read whole; it
// does not continue across spaces. Hex digits are base64 characters too,
// so hex runs are looked for inside each segment of alphabet characters.
func encodedRuns(data []byte, keys *chunks) (Finding, bool) {
	// Every run encodedRunsIn can find lies in a region of at least
	// runStride bytes that are base64 characters or what joins them
	// (runish), so the search looks at one byte in runStride until one is
	// runish, as groupedHex does, and reads only such regions, each with
	// the byte that ends it. Always data[i-1] is not runish (or i is 0).
	for i := 0; i+runStride <= len(data); {
		if !runish[data[i+runStride-1]] {
			i += runStride
			continue
		}
		from, end := i+runStride-1, i+runStride
		for from > i && runish[data[from-1]] {
			from--
		}
		for end < len(data) && runish[data[end]] {
			end++
		}
		if end-from >= runStride {
			if f, ok := encodedRunsIn(data[from:min(end+1, len(data))], keys); ok {
				f.Offset += from
				return f, true
			}
		}
		i = end + 1
	}
	return Finding{}, false
}

// runStride is the fewest bytes a run encodedRunsIn finds may span.
const runStride = min(minRun, minHexRun)

// runish marks the bytes a base64 run may span: the alphabet, and the
// bytes joiner starts with (set by init, after b64).
var runish [256]bool

// encodedRunsIn is encodedRuns read at every byte.
func encodedRunsIn(data []byte, keys *chunks) (Finding, bool) {
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
			for ; i < j; i++ {
				run = append(run, b64[data[i]])
			}
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
			n, err := base64.RawStdEncoding.Decode(dec, s)
			if err != nil {
				continue
			}
			if kind, ok := inBytes(dec[:n], keys); ok {
				return Finding{Kind: kind + " (base64)", Offset: start}, true
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
	// bytes, and read only those. A run that long holds one of every 32nd
	// byte, so the search looks at one byte in 32 until one is hexish.
	// Always data[i-1] is not hexish (or i is 0): no run starts before i.
	for i := 0; i+32 <= len(data); {
		if !hexish[data[i+31]] {
			i += 32
			continue
		}
		from, end := i+31, i+32
		for from > i && hexish[data[from-1]] {
			from--
		}
		for end < len(data) && hexish[data[end]] {
			end++
		}
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
	return Finding{}, false
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
