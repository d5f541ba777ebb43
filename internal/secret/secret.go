// Package secret finds private key material and credentials in text: in
// every string of agents.toml and of imported cards (InText), and in every
// file a build is about to publish (Scanner). It knows PEM private-key
// armour, private JSON Web Keys in any notation, unarmored DER private keys
// in base64, base64url or hex (PKCS #8, SEC 1, PKCS #1), OpenSSH and PuTTY
// private keys, AWS secret access keys (InText only), and, for a Scanner,
// the secret bytes of the very keys a build holds in any of those encodings;
// and all of them again inside base64, percent-encoding and JSON escapes,
// two layers deep. It never reports the secret itself, only what kind it
// found and where.
package secret

import (
	"bytes"
	"encoding/binary"
	"regexp"
	"slices"
	"strings"
	"unsafe"
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

// within is f found in what text encoded as how decodes to ("base64-encoded",
// "percent-encoded"): its Kind says so, "a base64-encoded PEM private key".
func (f Finding) within(how string) Finding {
	f.Kind = how + " " + strings.TrimPrefix(f.Kind, "the ")
	return f
}

// String is Kind as a noun phrase for a sentence: "a PEM private key",
// "an AWS secret access key", "a URL with a password in its user
// information", "the signing key in use (hex)".
func (f Finding) String() string {
	switch {
	case strings.HasPrefix(f.Kind, "the "):
		return f.Kind
	case strings.HasPrefix(f.Kind, "URL"):
		return "a " + f.Kind // "you-are-ell"
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
// as aws_secret_access_key) and key material in base64 runs cut by blanks,
// and all of these once more inside what the text decodes to, two layers
// deep: the text base64 or base64url runs decode to, the text
// percent-decoded (where it holds escapes of line breaks, quotes, ':',
// '=', '+', '/' or '%') and the text JSON-unescaped (where it holds
// \u00XX escapes of printable ASCII, or \/). Credentials in URLs and
// connection strings are InURLs': lint reports them, where a reason can
// silence a finding that is none.
func InText(s string) (Finding, bool) {
	// The detectors only read their data (none writes to it, nor appends
	// to a slice of it: TestInTextReadsOnly), so they read the string's
	// own memory rather than a copy of it.
	return inText(unsafe.Slice(unsafe.StringData(s), len(s)), 0)
}

// inText is InText at a depth of decoding.
func inText(data []byte, depth int) (Finding, bool) {
	// Each detector runs only where the text holds what it needs
	// (gate.go); most text, prose, holds nothing any of them needs.
	long := mayHoldLong(data)
	if f, ok := generic(data, long); ok {
		return f, true
	}
	if long && mayHoldAWS(data) {
		if f, ok := aws(data); ok {
			return f, true
		}
	}
	if long && mayHoldLayers(data) {
		if f, ok := layers(data, depth); ok {
			return f, true
		}
	}
	if depth >= maxDepth {
		return Finding{}, false
	}
	// The percent and JSON views of the text (views.go), a layer as a
	// base64 run's text is.
	pct, json := percentEscaped(data), jsonEscaped(data)
	if !pct && !json {
		return Finding{}, false
	}
	return throughViews(data, pct, json, func(view []byte, _ bool) (Finding, bool) { return inText(view, depth+1) })
}

// generic runs the detectors that need no knowledge of particular keys;
// long is mayHoldLong(data).
func generic(data []byte, long bool) (Finding, bool) {
	if f, ok := armour(data, long, false); ok {
		return f, true
	}
	if f, ok := jwkText(data); ok {
		return f, true
	}
	if f, ok := encodedRuns(data, nil, nil); ok {
		return f, true
	}
	return groupedHex(data, nil)
}

// pemArmour finds "-----BEGIN ... PRIVATE KEY-----" (RSA, EC, DSA,
// OPENSSH, ENCRYPTED, and PGP's "PRIVATE KEY BLOCK").
func pemArmour(data []byte) (Finding, bool) {
	begin := []byte(pemBegin)
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
	if !quotedValue(data) || !containsKty(data) {
		return Finding{}, false
	}
	data = asciiLower(data)
	// The private member belongs to the same key: within jwkReach of its
	// kty (a 4096-bit RSA JWK holds its d within about 1,400 characters of
	// kty, whatever the member order), not anywhere on a page that also
	// says x.d = "1". Its value is key material (keyValue), or it is in
	// the kty's own object, braces in strings and comments left out
	// (objectsAt): a short word in another object is a request beside a
	// public JWK ({"q": "weather"}), but braces in a key's text ("kid":
	// "}") do not hide it. Both lists are in order: one pass over each,
	// and the objects are told apart only for a kty with a private member
	// within reach whose value is no key material.
	privs := membersNamed(data, isPrivateMember)
	// keyed[q] is how many of privs[:q] hold key material.
	keyed := make([]int, len(privs)+1)
	for q, at := range privs {
		keyed[q+1] = keyed[q]
		if keyValue(data, at) {
			keyed[q+1]++
		}
	}
	// privs[from[i]:to[i]] are within reach of ktys[i]; both ends only
	// move on from one kty to the next.
	var ktys, from, to []int
	p, e := 0, 0
	for off := 0; off < len(data) && len(privs) > 0; {
		kty := ktyMember(data[off:])
		if kty < 0 {
			break
		}
		kty += off
		for p < len(privs) && privs[p] < kty-jwkReach {
			p++
		}
		for e < len(privs) && privs[e] <= kty+jwkReach {
			e++
		}
		if p < e {
			if keyed[e] > keyed[p] {
				return Finding{Kind: "private JSON Web Key", Offset: kty}, true
			}
			ktys, from, to = append(ktys, kty), append(from, p), append(to, e)
		}
		off = kty + 3
	}
	if len(ktys) == 0 {
		return Finding{}, false
	}
	ktyObj, privObj := objectsAt(data, ktys), objectsAt(data, privs)
	for i, kty := range ktys {
		for q := from[i]; q < to[i]; q++ {
			if privObj[q] == ktyObj[i] {
				return Finding{Kind: "private JSON Web Key", Offset: kty}, true
			}
		}
	}
	return Finding{}, false
}

// keyValueRun is the fewest base64 characters a private member's value
// starts with to be taken for key material: the shortest real one, an
// oct key's k of 128 bits, has 22.
const keyValueRun = 20

// keyValue reports whether the member whose name starts at data[i]
// (membersNamed; data lower-cased) has a value that may be key material:
// a quoted string that starts with at least keyValueRun base64 or
// base64url characters.
func keyValue(data []byte, i int) bool {
	j := i
	for j < len(data) && data[j] != ':' && data[j] != '=' {
		j++
	}
	j++
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	if j < len(data) && data[j] == '\\' {
		j++ // an escaped quote, inside a JSON string
	}
	if j >= len(data) || data[j] != '"' && data[j] != '\'' {
		return false
	}
	j++
	n := 0
	for j+n < len(data) && n < keyValueRun && b64[data[j+n]] != 0 {
		n++
	}
	return n == keyValueRun
}

// objectsAt returns, for each offset of at (in ascending order), the
// object of data it lies in: a number for the innermost '{' before it
// still open, the same for every offset in that object and not in one
// nested in it. An unmatched '}' ends what came before too. Braces in a
// quoted string (from a quote to the next one of its kind on its line
// not escaped by '\'; a quote with none is no string) or a comment (from
// a '#' at a line's start or after a space or tab to the line's end)
// count for nothing: a key's "kid": "}" does not end it. Two offsets
// share a number exactly when the braces that count between them are
// balanced and none closes more than the text between them opened
// (sameObject in the tests states it so).
func objectsAt(data []byte, at []int) []int {
	ids := make([]int, len(at))
	var open []int // the objects enclosing the current one
	cur, last, k := 0, 0, 0
	// noClose[q] is the end of the line that holds no closing quote q
	// from where it was last looked for: a later quote q on that line
	// has none either (the same bytes, read the same way, follow it).
	var noClose [2]int
	skip := func(to int) { // data[i:to] counts for nothing
		for k < len(at) && at[k] < to {
			ids[k] = cur
			k++
		}
	}
	for i := 0; i < len(data) && k < len(at); i++ {
		for k < len(at) && at[k] == i {
			ids[k] = cur
			k++
		}
		c := data[i]
		switch {
		case c == '{':
			open = append(open, cur)
			last++
			cur = last
		case c == '}':
			if n := len(open); n > 0 {
				cur, open = open[n-1], open[:n-1]
			} else {
				last++
				cur = last
			}
		case c == '"' || c == '\'':
			q := 0
			if c == '\'' {
				q = 1
			}
			if i < noClose[q] {
				continue
			}
			if end, ok := quoteEnd(data, i); ok {
				skip(end + 1)
				i = end
			} else {
				noClose[q] = end
			}
		case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			end := bytes.IndexByte(data[i:], '\n')
			if end < 0 {
				end = len(data) - i
			}
			skip(i + end)
			i += end - 1
		}
	}
	for ; k < len(at); k++ {
		ids[k] = cur
	}
	return ids
}

// quoteEnd returns the offset of the quote that closes the one at
// data[i] (the next of its kind on its line, not escaped by '\') and
// true; or, when there is none, the end of the line and false.
func quoteEnd(data []byte, i int) (int, bool) {
	q := data[i]
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\n':
			return j, false
		case '\\':
			if j+1 < len(data) && data[j+1] != '\n' {
				j++
			}
		case q:
			return j, true
		}
	}
	return len(data), false
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
			if end+1 < len(data) && data[end] == '\\' && data[end+1] == quote {
				end++ // an escaped quote, inside a JSON string: \"kty\"
			}
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
			if j > 0 && data[j-1] == '\\' {
				j-- // an escaped quote, inside a JSON string: \"d\":
			}
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

// containsKty reports whether data holds "kty" in any letter case (ASCII
// letters only, as containsFold reads them): each k and K, looked for at
// memory speed, followed by t and y in either case.
func containsKty(data []byte) bool {
	for _, k := range [2]byte{'k', 'K'} {
		for off := 0; ; {
			i := bytes.IndexByte(data[off:], k)
			if i < 0 {
				break
			}
			i += off
			if i+2 < len(data) && data[i+1]|0x20 == 't' && data[i+2]|0x20 == 'y' {
				return true
			}
			off = i + 1
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

// containsFold reports whether data holds word (lower-case ASCII
// letters) in any letter case. Only ASCII matches: a window of len(word)
// bytes that holds a letter of more bytes (K, the Kelvin sign; ſ, the long
// s) holds fewer letters than word, and bytes.EqualFold would not match it
// either.
//
// The word's rarest letter (pivot) is looked for eight bytes at a time: a
// byte c is that letter in either case exactly when c|0x20 is the letter,
// and a word of eight such bytes, xor-ed with the letter in every byte,
// has a zero byte exactly when one of the eight is. Only where one is are
// the bytes compared.
func containsFold(data []byte, word string) bool {
	j := pivot(word)
	last := len(data) - len(word) + j // the last place the pivot can be
	p := j
	if last >= 0 {
		const ones, highs, lower = 0x0101010101010101, 0x8080808080808080, 0x2020202020202020
		pat := uint64(word[j]) * ones
		for ; p+8 <= len(data) && p+7 <= last; p += 8 {
			t := (binary.LittleEndian.Uint64(data[p:]) | lower) ^ pat
			if (t-ones)&^t&highs == 0 {
				continue
			}
			for q := p; q < p+8; q++ {
				if foldedAt(data, q-j, word) {
					return true
				}
			}
		}
	}
	for ; p <= last; p++ {
		if foldedAt(data, p-j, word) {
			return true
		}
	}
	return false
}

// foldedAt reports whether data holds word (lower-case ASCII letters) at
// i, in any letter case.
func foldedAt(data []byte, i int, word string) bool {
	for k := 0; k < len(word); k++ {
		if data[i+k]|0x20 != word[k] {
			return false
		}
	}
	return true
}

// pivot is the index of word's rarest letter in English text, by
// letterRank: the one containsFold looks for in bulk.
func pivot(word string) int {
	best := 0
	for i := 1; i < len(word); i++ {
		if letterRank[word[i]] > letterRank[word[best]] {
			best = i
		}
	}
	return best
}

// letterRank ranks the lower-case letters from the commonest in English
// text (1) to the rarest (26); other bytes are 0.
var letterRank = func() (t [256]uint8) {
	for i, c := range []byte("etaoinshrdlcumwfgypbvkjxqz") {
		t[c] = uint8(i + 1)
	}
	return t
}()
