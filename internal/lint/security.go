package lint

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/ascii"
	"github.com/agentcards/agentcards/internal/lintrule"
	"github.com/agentcards/agentcards/internal/secret"
)

// security checks that calling the agent takes credentials: the card, or
// else every skill, names at least one security requirement, and none of
// them is empty (an empty requirement allows anonymous calls, as in
// OpenAPI). Both shapes are read: v1.0 securityRequirements, v0.3.0
// security.
func (l *linter) security(doc map[string]any) {
	if len(list(doc["supportedInterfaces"])) == 0 && str(doc["url"]) == "" && len(list(doc["additionalInterfaces"])) == 0 {
		return // nothing to call
	}
	declared := object(doc["securitySchemes"])
	field, reqs := requirements(doc)
	l.undeclared(field, reqs, declared)
	for i, sk := range list(doc["skills"]) {
		f, r := requirements(object(sk))
		l.undeclared(member(index("skills", i), f), r, declared)
	}
	if len(reqs) > 0 {
		if i := emptyRequirement(reqs); i >= 0 {
			l.add(lintrule.NoSecurity, index(field, i), "an empty security requirement lets anyone call the agent without credentials")
		}
		return
	}
	skills := list(doc["skills"])
	open := len(skills) == 0
	for _, s := range skills {
		_, sreqs := requirements(object(s))
		if len(sreqs) == 0 || emptyRequirement(sreqs) >= 0 {
			open = true
			break
		}
	}
	if !open {
		return
	}
	msg := "no security requirement: anyone may call the agent's interfaces"
	if len(object(doc["securitySchemes"])) > 0 {
		msg = "securitySchemes are declared but no securityRequirements use them: clients are not told to send credentials, and anyone may call the agent"
	}
	l.add(lintrule.NoSecurity, "", msg)
}

// undeclared reports the schemes that security requirements name and
// securitySchemes does not declare: no client can meet such a
// requirement, and a server that checks nothing may be behind it.
func (l *linter) undeclared(field string, reqs []any, declared map[string]any) {
	if strings.HasSuffix(field, "authentication.schemes") {
		return // before v0.3.0, names of HTTP schemes
	}
	for i, r := range reqs {
		m, p := object(r), index(field, i)
		if schemes, ok := m["schemes"]; ok {
			m, p = object(schemes), member(p, "schemes")
		}
		for _, name := range sortedKeys(m) {
			if _, ok := declared[name]; !ok {
				l.add(lintrule.NoSecurity, member(p, name), fmt.Sprintf("the security requirement names the scheme %s, which securitySchemes does not declare: no client can meet it", quote(name, 60)))
			}
		}
	}
}

// requirements are an object's security requirements and the member
// that holds them.
func requirements(m map[string]any) (string, []any) {
	if r := list(m["securityRequirements"]); len(r) > 0 {
		return "securityRequirements", r
	}
	if r := list(m["security"]); len(r) > 0 {
		return "security", r
	}
	// Before v0.3.0: authentication.schemes, names of schemes to use.
	if a := object(m["authentication"]); len(list(a["schemes"])) > 0 {
		return "authentication.schemes", []any{map[string]any{"authentication": a["schemes"]}}
	}
	return "security", nil
}

// emptyRequirement is the index of a requirement that names no scheme,
// or -1.
func emptyRequirement(reqs []any) int {
	for i, r := range reqs {
		m := object(r)
		if schemes, ok := m["schemes"]; ok {
			m = object(schemes) // v1.0: {"schemes": {...}}, whatever else it holds
		}
		if len(m) == 0 {
			return i
		}
	}
	return -1
}

// minSecretLen is the length under which secret.InText finds nothing but
// a JSON Web Key: its shortest credential in a URL
// ("a:Hunter24@b.io") and its shortest base64 run.
const minSecretLen = 15

// credential reports a string that is a credential: the value of a member
// named like one, or key material or a credential anywhere (in base64, a
// URL, a connection string, prose). allASCII says whether s is all ASCII.
func (l *linter) credential(path, key, s string, allASCII bool) {
	// Key material the detectors know is a JSON Web Key (with "kty" in
	// some letter case) or a run of several characters.
	if len(s) >= minSecretLen || containsFoldAny(s, []string{"kty"}) {
		if f, found := secret.InText(s); found {
			l.add(lintrule.CredentialInCard, path, fmt.Sprintf("holds %s (not repeated here)", f))
			return
		}
	}
	if m := secret.APIToken(s); m != "" {
		l.add(lintrule.CredentialInCard, path, fmt.Sprintf("holds what looks like an API token or JWT (%s..., not repeated further)", quote(m[:min(len(m), 6)], 10)))
		return
	}
	if f, found := secret.InURLs(s); found {
		l.add(lintrule.CredentialInCard, path, fmt.Sprintf("holds %s (not repeated here)", f))
		return
	}
	if m := proseCredential(s, allASCII); m != "" {
		l.add(lintrule.CredentialInCard, path, m)
		return
	}
	// The member's name first: most are no credential's, which makes
	// where s stands and what it is no matter.
	if (!ascii.Is(key) || hasCredentialStem(key) || strings.HasPrefix(strings.TrimSpace(s), "{")) &&
		!underSecurity(path) && !looksLikeURL(s) && secret.HeldCredential(key, s) {
		l.add(lintrule.CredentialInCard, path, fmt.Sprintf("the member %s holds a value (not repeated here): a credential in a card is published to everyone", quote(key, 40)))
	}
}

// proseCredential says what credential text written into s holds, or "":
// a token after an authentication scheme ("Authorization: Bearer
// 3f9a...", "Basic YWxhZGRpbjpvcGVu"), one assigned to a credential's name
// ("api_key=a8f5f1...", "API_KEY := \"7d2f...\"", "api_key => '...'",
// "X-API-Key: 7d2f...", "password is hunter2024!", "Passwort: ...", "The
// key is 8f14...", "Cookie: sessionid=..."), given to a command-line
// option ("--api-key 8f14...", "curl -u admin:Hunter2024"), or a URL with
// a password ("postgres://admin:hunter2@db..."). Text is read as it
// shows: look-alike and full-width letters as Latin ones, every space as
// a space, JSON's escaped quotes as quotes, and a value may start on the
// next line. Values that hold no digit, placeholders and words about
// credentials pass. allASCII says whether s is all ASCII.
func proseCredential(s string, allASCII bool) string {
	s = proseView(s, allASCII)
	for i := 0; i < len(s); i++ {
		if !proseCredentialByte[s[i]] {
			continue // a byte no case below starts at
		}
		switch c := s[i] | 0x20; {
		case c == 'b' || c == 't':
			// A word starts here, or wordAt finds none.
			if i > 0 && isWordByte(s[i-1]) {
				continue
			}
			if scheme, ok := wordAt(s, i); ok && (len(scheme) == 5 || len(scheme) == 6) {
				// The scheme's ASCII letters, lower-cased without a copy
				// (most words starting so are no scheme).
				switch lowerScheme(scheme) {
				case "bearer", "token":
					if v := valueAfter(s, i+len(scheme), " \t\r\n"); len(v) >= 12 && hasLetterAndDigit(v) && !secret.Placeholder(v) {
						return "holds what looks like a bearer token (not repeated here)"
					}
				case "basic":
					v := valueAfter(s, i+len(scheme), " \t\r\n")
					if dec, err := base64.StdEncoding.DecodeString(v); len(v) >= 8 && err == nil && strings.Contains(string(dec), ":") && utf8.Valid(dec) {
						return "holds HTTP Basic credentials, a user name and password (not repeated here)"
					}
				}
			}
		case s[i] == '-' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n'):
			if m := optionCredential(s, i); m != "" {
				return m
			}
		case s[i] == ':' || s[i] == '=' || s[i] == 'i' && i > 0 && s[i-1] == ' ' && strings.HasPrefix(s[i:], "is "):
			sep := 1
			if s[i] == 'i' {
				sep = 2
			}
			if s[i] == ':' && strings.HasPrefix(s[i:], "://") {
				if m := urlPassword(s, i); m != "" {
					return m
				}
				continue
			}
			name := nameBefore(s, i)
			if name == "" {
				continue
			}
			v := strings.TrimRight(valueAfter(s, i+sep, " \t\r\n\"'`=>:"), ".!?")
			if credentialName(name) {
				if writtenCredential(v) {
					return "holds what looks like a credential written out (not repeated here)"
				}
			} else if (!ascii.Is(name) || hasCredentialStem(name)) && !looksLikeURL(v) && secret.HeldCredential(name, v) {
				return "holds what looks like a credential written out (not repeated here)"
			}
		}
	}
	return ""
}

// proseCredentialByte holds the bytes proseCredential reads on from:
// the first letter of a scheme (b, t), an option's "-", a separator (":",
// "=") and the "i" of "is".
var proseCredentialByte = func() (t [256]bool) {
	for _, c := range []byte("bBtT-:=i") {
		t[c] = true
	}
	return t
}()

// lowerScheme is strings.ToLower(w) for an ASCII word w of five or six
// bytes when it is one of the authentication schemes proseCredential
// reads ("bearer", "token", "basic"), and otherwise "".
func lowerScheme(w string) string {
	for _, scheme := range [...]string{"bearer", "token", "basic"} {
		if len(w) == len(scheme) && equalLower(w, scheme) {
			return scheme
		}
	}
	return ""
}

// writtenCredential reports whether v, written after a credential's name,
// is one: six characters or more with a letter and a digit, not a
// placeholder, a word about a credential or a URL.
func writtenCredential(v string) bool {
	return len(v) >= 6 && hasLetterAndDigit(v) && !secret.Placeholder(v) && !secret.DescribesCredential(v) && !looksLikeURL(v)
}

// optionCredential reports a credential given to a command-line option
// that starts at s[i]: "--api-key 8f14...", "--password=...", or a user
// and password ("curl -u admin:Hunter2024", "--user admin:pw2024").
func optionCredential(s string, i int) string {
	j := i + 1
	if j < len(s) && s[j] == '-' {
		j++
	}
	k := j
	for k < len(s) && (isWordByte(s[k]) || s[k] == '-') {
		k++
	}
	name := s[j:k]
	if name == "" || k >= len(s) || s[k] != ' ' && s[k] != '=' {
		return ""
	}
	v := strings.TrimRight(valueAfter(s, k+1, " \t\"'"), ".!?")
	switch strings.ToLower(name) {
	case "u", "user", "basic-auth", "proxy-user":
		user, pass, ok := strings.Cut(v, ":")
		if ok && user != "" && len(pass) >= 6 && (hasLetterAndDigit(pass) || len(pass) >= 10) && !secret.Placeholder(pass) &&
			!secret.DescribesCredential(pass) && !strings.EqualFold(pass, "password") {
			return "holds a user name and password given to a command (not repeated here)"
		}
		return ""
	}
	if credentialName(name) && writtenCredential(v) {
		return "holds what looks like a credential given to a command (not repeated here)"
	}
	return ""
}

// proseView is s as a reader sees it, for proseCredential: look-alike,
// full-width and styled letters as the Latin ones they imitate, every
// space character a space, format characters dropped, and JSON's escaped
// quotes and line breaks (\" \n) as written. allASCII says whether s is all
// ASCII.
func proseView(s string, allASCII bool) string {
	if !allASCII {
		s = strings.Map(func(r rune) rune {
			switch {
			case unicode.Is(unicode.Zs, r):
				return ' '
			case unicode.Is(unicode.Cf, r):
				return -1
			}
			return secret.AsLatin(r)
		}, s)
	}
	if strings.Contains(s, `\`) {
		s = strings.NewReplacer(`\"`, `"`, `\'`, `'`, `\n`, "\n", `\r`, "\r", `\t`, "\t").Replace(s)
	}
	return s
}

// wordAt returns the ASCII word that starts at s[i], if one starts there.
func wordAt(s string, i int) (string, bool) {
	if i > 0 && isWordByte(s[i-1]) {
		return "", false
	}
	j := i
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	return s[i:j], j > i
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// nameBefore is the name that precedes the separator at s[i], spaces and
// a closing quote aside: "api_key" in "api_key=", "X-API-Key" in
// "X-API-Key:", "api key" in "API key:", "password" in "password is".
func nameBefore(s string, i int) string {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '"' || s[j-1] == '\'') {
		j--
	}
	k := j
	for k > 0 && (isWordByte(s[k-1]) || s[k-1] == '-' || s[k-1] >= 0x80) {
		k--
	}
	name := s[k:j]
	// "API key": two words.
	if k > 1 && s[k-1] == ' ' && strings.EqualFold(name, "key") {
		m := k - 1
		for m > 0 && isWordByte(s[m-1]) {
			m--
		}
		if two := s[m:k-1] + name; credentialName(two) {
			name = two // not "The key"
		}
	}
	return name
}

// valueAfter is the run of characters that can make a credential after
// s[i], once the characters of skip are passed.
func valueAfter(s string, i int, skip string) string {
	for i < len(s) && strings.IndexByte(skip, s[i]) >= 0 {
		i++
	}
	j := i
	for j < len(s) && s[j] > ' ' && s[j] < 0x7f && !strings.ContainsRune("\"'`<>(){}[],;", rune(s[j])) {
		j++
	}
	return s[i:j]
}

// urlPassword reports a URL with a password in its user information, the
// "://" of which is at s[i], or "".
func urlPassword(s string, i int) string {
	rest := s[i+3:]
	end := strings.IndexAny(rest, " \t\n/?#")
	if end < 0 {
		end = len(rest)
	}
	auth, _, ok := strings.Cut(rest[:end], "@")
	if !ok || !strings.Contains(rest[:end], "@") {
		return ""
	}
	_, pass, ok := strings.Cut(auth, ":")
	if !ok || pass == "" {
		return ""
	}
	if p := strings.ToLower(pass); secret.Placeholder(pass) || secret.DescribesCredential(p) || p == "pass" || p == "pwd" || p == "xxx" {
		return ""
	}
	return "holds a URL with a password in its user information (not repeated here)"
}

// hasLetterAndDigit reports whether s holds both an ASCII letter and a
// digit.
func hasLetterAndDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.ContainsFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })
}

// credentialName is secret.CredentialName, after a cheap look for the
// stems every such name holds.
func credentialName(k string) bool {
	if ascii.Is(k) && !hasCredentialStem(k) {
		return false
	}
	return secret.CredentialName(k)
}

// credentialStems are held by every name credentialName or
// secret.HeldCredential accepts, in some letter case.
var credentialStems = append([]string{"token", "secret", "pass", "key", "pwd", "auth", "cred", "bearer", "cookie", "seed", "mnemonic",
	"session", "sess", "sid", "hmac", "pin", "otp", "recovery", "backup"}, asciiForeignPasswords()...)

// credentialStemSet finds credentialStems, lower-case letters all, in one
// pass.
var credentialStemSet = newLitSet(credentialStems...)

// hasCredentialStem is containsFoldAny(s, credentialStems): since the
// stems are lower-case letters, a byte of s matches one of their letters
// in either case, as lower-casing s reads it.
func hasCredentialStem(s string) bool { return credentialStemSet.inLower(s) != 0 }

// asciiForeignPasswords are the secret.ForeignPasswordWords written in
// ASCII, lower case.
func asciiForeignPasswords() []string {
	var out []string
	for _, w := range secret.ForeignPasswordWords {
		if ascii.Is(w) {
			out = append(out, strings.ToLower(strings.ReplaceAll(w, "_", "")))
		}
	}
	return out
}

// containsFoldAny reports whether ASCII s holds one of the lower-case
// ASCII words, in any letter case.
func containsFoldAny(s string, words []string) bool {
	for _, w := range words {
		for i := 0; i+len(w) <= len(s); i++ {
			j := 0
			for j < len(w) && s[i+j]|0x20 == w[j] {
				j++
			}
			if j == len(w) {
				return true
			}
		}
	}
	return false
}

// underSecurity reports whether path names scheme and scope names, not
// credentials: a security requirement ("token": ["read"]) of the card or a
// skill, or a scheme's scopes table. A credential elsewhere in a scheme (a
// flow's clientSecret) is not excused.
func underSecurity(path string) bool {
	if strings.HasPrefix(path, "security[") || strings.Contains(path, ".security[") ||
		strings.HasPrefix(path, "securityRequirements[") || strings.Contains(path, ".securityRequirements[") {
		return true
	}
	return strings.Contains(path, ".scopes.") || strings.Contains(path, ".scopes[")
}
