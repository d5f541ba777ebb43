package secret

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/agentcards/agentcards/internal/prefilter"
)

// This file is the one vocabulary of credentials: what names one (a
// member, key, header or query parameter), and what value under such a
// name is one rather than a word about one. The manifest refuses what it
// finds, lint reports it in cards, and verify in MCP Server Cards.

// credentialSuffixes end names that hold a credential ("github_token",
// "db_password", "openaiApiKey", "slackBotToken"), compared after
// NormalizeName.
var credentialSuffixes = []string{"token", "secret", "password", "passwd", "passphrase", "apikey", "accesskey", "secretkey",
	"privatekey", "signingkey", "hmackey", "encryptionkey", "masterkey", "sessionkey", "authorization", "credentials", "bearer"}

// CredentialName reports whether a member, key or header name (in any
// letter case, with or without '_' and '-') names a credential: one of
// IsCredentialName's, or a name ending in a credential word.
//
// A name whose last word describes a credential rather than holding one
// ("signingKeyId", "token_url", "password_policy": DescribingName) or
// that names a pagination cursor ("nextPageToken": CursorName) is none.
func CredentialName(k string) bool {
	if DescribingName(k) || CursorName(k) {
		return false
	}
	n := NormalizeName(k)
	if credentialNames[n] || foreignPassword(k, n) {
		return true
	}
	for _, s := range credentialSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// describingWords end names that describe a credential, or say something
// about one, rather than hold it: its identifier, where it is sent or
// kept, its kind, its limits ("auth_client_id", "signing_key_thumbprint",
// "secretRef", "tokenContract", "session_model").
var describingLastWords = map[string]bool{
	"id": true, "ids": true, "kid": true, "thumbprint": true, "fingerprint": true, "ref": true, "refs": true, "reference": true,
	"name": true, "names": true, "url": true, "urls": true, "uri": true, "uris": true, "header": true, "headers": true,
	"endpoint": true, "expiry": true, "expires": true, "expiration": true, "type": true, "types": true, "format": true,
	"length": true, "ttl": true, "lifetime": true, "timeout": true, "duration": true, "policy": true, "mode": true,
	"model": true, "algorithm": true, "alg": true, "provider": true, "issuer": true, "tenant": true, "realm": true,
	"scope": true, "scopes": true, "audience": true, "contract": true, "address": true, "symbol": true, "decimals": true,
	"count": true, "limit": true, "limits": true, "size": true, "bits": true, "path": true, "file": true, "location": true,
	"label": true, "hint": true, "prefix": true, "version": true, "env": true, "var": true, "placement": true,
	"param": true, "parameter": true, "field": true, "store": true, "manager": true, "vault": true, "service": true,
	"required": true, "enabled": true, "rotation": true, "schema": true, "description": true, "docs": true,
}

// DescribingName reports whether the last word of a name (nameWords)
// describes a credential rather than holds one (describingLastWords):
// "auth_tenant", "signingKeyId", "token_url". A name of one word is not
// describing: "id" alone says nothing about a credential.
func DescribingName(k string) bool {
	words := nameWords(strings.Map(AsLatin, k))
	for len(words) > 0 && words[len(words)-1] == "" {
		words = words[:len(words)-1]
	}
	return len(words) > 1 && describingLastWords[strings.ToLower(words[len(words)-1])]
}

// cursorWords make a name with "token" in it a pagination or sync cursor,
// handed back to the server that issued it ("nextPageToken",
// "continuationToken", "syncToken"), not a credential.
var cursorWords = map[string]bool{"page": true, "next": true, "prev": true, "previous": true, "continuation": true,
	"cursor": true, "resume": true, "sync": true, "pagination": true, "offset": true, "marker": true}

// CursorName reports whether a name has one of cursorWords among its
// words (nameWords): "pageToken", "next_page_token", "resumeToken".
func CursorName(k string) bool {
	for _, w := range nameWords(strings.Map(AsLatin, k)) {
		if cursorWords[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// foreignPasswords are "password" in other languages, as NormalizeName
// reads them (ForeignPasswordWords).
var foreignPasswords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range ForeignPasswordWords {
		m[NormalizeName(w)] = true
	}
	return m
})

// ForeignPasswordWords are "password" in languages other than English.
// A name is a password's when it is one of them, or ends in one as its
// last word ("db_Passwort"); those of scripts without spaces between
// words also when it merely ends in one ("数据库密码").
var ForeignPasswordWords = []string{
	"passwort", "kennwort", "contraseña", "contrasena", "clave", "motdepasse", "mot_de_passe", "senha", "hasło", "haslo",
	"wachtwoord", "lösenord", "losenord", "passord", "adgangskode", "salasana", "heslo", "jelszó", "jelszo", "geslo",
	"lozinka", "şifre", "sifre", "parolă", "пароль", "лозинка", "κωδικός", "סיסמה", "كلمةالمرور", "كلمةالسر",
	"पासवर्ड", "密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호", "암호", "รหัสผ่าน", "mậtkhẩu", "katasandi",
}

// foreignPassword reports whether k (n once normalized) names a password
// in another language (ForeignPasswordWords).
func foreignPassword(k, n string) bool {
	words := foreignPasswords()
	if words[n] {
		return true
	}
	if ws := nameWords(k); len(ws) > 1 && words[NormalizeName(ws[len(ws)-1])] {
		return true
	}
	for w := range words {
		if r := []rune(w)[0]; r >= 0x2E80 && strings.HasSuffix(n, w) {
			return true // CJK, kana, Hangul: no spaces between words
		}
	}
	return false
}

// NumberCredentialName reports whether a number under a member named k
// is a credential: a name that holds nothing but one
// (IsCredentialName), or a password's or passcode's ("db_password":
// 12345678), not a count of tokens ("max_output_token": 4096) nor a
// version pinned ("version_pin": 2).
func NumberCredentialName(k string) bool {
	if DescribingName(k) || CursorName(k) {
		return false
	}
	n := NormalizeName(k)
	if credentialNames[n] || foreignPassword(k, n) || n == "pin" || n == "pincode" {
		return true
	}
	for _, s := range []string{"password", "passwd", "passphrase", "pwd", "passcode"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
} // paramWords are the words that make a URL parameter name a credential's
// ("?key=", "?sig=", "?auth="): in a URL a value is never a description.
var paramWords = map[string]bool{
	"key": true, "apikey": true, "token": true, "secret": true, "password": true, "passwd": true, "pass": true, "pwd": true,
	"auth": true, "sig": true, "signature": true, "jwt": true, "credential": true, "credentials": true,
	"accountkey": true, "passcode": true,
}

// keyPrefixes are what comes before "key" in the one-word names of API
// keys (accesskey, hapikey, ...); other words ending in "key" (monkey,
// hockey) are not keys.
var keyPrefixes = []string{"access", "api", "app", "auth", "client", "consumer", "dev", "hapi", "license", "master", "private", "secret", "session", "signing", "subscription", "user"}

// CredentialParam reports whether a URL's query or fragment parameter
// name names a credential: a CredentialName, or a name with a word (split
// at '_', '-', '.', '[', ']', digits and lower-to-upper case changes)
// that is key, token, secret, password, auth, sig, signature, jwt or
// credential(s), or ends in one ("api_key", "accessToken", "sig"; not
// "keyword" or "tokenizer").
func CredentialParam(name string) bool {
	if CredentialName(name) {
		return true
	}
	if CursorName(name) {
		return false
	}
	name = strings.Map(AsLatin, name)
	for _, w := range nameWords(name) {
		w = strings.ToLower(w)
		if paramWords[w] {
			return true
		}
		for _, end := range []string{"token", "secret", "password", "passwd", "signature"} {
			if strings.HasSuffix(w, end) {
				return true
			}
		}
		if p, ok := strings.CutSuffix(w, "key"); ok && slices.Contains(keyPrefixes, p) {
			return true
		}
	}
	return false
}

// nameWords splits a name at '_', '-', '.', '[', ']', spaces, dashes of
// any script, digits and lower-to-upper case changes.
func nameWords(name string) []string {
	var words []string
	start := 0
	rs := []rune(name)
	for i, r := range rs {
		split := r == '_' || r == '-' || r == '.' || r == '[' || r == ']' || unicode.IsDigit(r) || unicode.IsSpace(r) || unicode.In(r, unicode.Pd, unicode.Zs)
		upper := i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1])
		if split || upper {
			words = append(words, string(rs[start:i]))
			start = i
			if split {
				start = i + 1
			}
		}
	}
	return append(words, string(rs[start:]))
}

// CredentialInURL is the name of the first parameter of u's query (or
// fragment, where implicit OAuth flows put tokens) that names a
// credential (CredentialParam); "" when none. Parameters split at '&' and
// ';'.
func CredentialInURL(u *url.URL) string {
	for _, part := range []string{u.RawQuery, u.Fragment} {
		for _, kv := range strings.FieldsFunc(part, func(r rune) bool { return r == '&' || r == ';' }) {
			k, _, _ := strings.Cut(kv, "=")
			if name, err := url.QueryUnescape(k); err == nil {
				k = name
			}
			if CredentialParam(k) {
				return k
			}
		}
	}
	return ""
}

// describingWords are values of credential members that name a kind of
// credential, or say whether one is needed, rather than being one.
var describingWords = map[string]bool{
	"required": true, "optional": true, "none": true, "null": true, "nil": true, "true": true, "false": true,
	"yes": true, "no": true, "jwt": true, "bearer": true, "basic": true, "digest": true, "header": true, "headers": true,
	"query": true, "cookie": true, "body": true, "oauth": true, "oauth2": true, "oidc": true, "openid": true,
	"apikey": true, "api_key": true, "api-key": true, "api key": true, "hmac": true, "hmac_sha256": true, "hmac-sha256": true,
	"sha256": true, "env": true, "environment": true, "string": true, "secret": true, "password": true, "token": true,
	"redacted": true, "[redacted]": true, "hidden": true, "masked": true, "placeholder": true, "n/a": true, "na": true,
	"tbd": true, "todo": true, "supported": true, "unsupported": true, "enabled": true, "disabled": true,
	"not required": true, "not_required": true, "per-user": true, "per user": true, "user": true, "client": true,
	"server": true, "mtls": true, "tls": true, "x-api-key": true, "authorization": true, "dynamic": true,
	"generated": true, "rotating": true, "ephemeral": true, "opaque": true, "access_token": true, "id_token": true,
	"refresh_token": true, "client_credentials": true, "authorization_code": true, "pkce": true, "s256": true,
	// fetch()'s credentials modes
	"same-origin": true, "include": true, "omit": true,
}

// DescribesCredential reports whether v, the value of a credential
// member, names a kind of credential or says whether one is needed
// ("required", "JWT", "header") rather than being one.
func DescribesCredential(v string) bool {
	return describingWords[strings.ToLower(strings.TrimSpace(v))]
}

// authSchemes are the HTTP authentication schemes a credential follows.
var authSchemes = map[string]bool{"bearer": true, "basic": true, "token": true, "apikey": true, "api-key": true, "digest": true, "sso-key": true}

// HeldCredential reports whether s, the value of a member named k, is a
// credential: k is a CredentialName and s is one rather than a word about
// one ("required", "JWT", "header"), a placeholder ("<key>",
// "${API_KEY}", "YOUR_API_KEY") or prose ("API key via Authorization:
// Bearer <key>"); or k is a bare "key" and s looks like a generated
// secret (TokenLike).
func HeldCredential(k, s string) bool {
	if CredentialName(k) {
		return CredentialValue(k, s)
	}
	if embeddedCredential(s) {
		return true
	}
	// "key": "sk8f3...": a bare key name with what looks like a key.
	if NormalizeName(k) == "key" && TokenLike(strings.TrimSpace(s)) {
		return true
	}
	// "secretValue", "licenseKey", "otp_seed", "cookie": a name with a
	// credential's word in it holds one when the value has a secret's
	// shape, not when it is a word, a version or a sentence.
	if short, ok := credentialWordName(k); ok {
		t := strings.TrimSpace(s)
		return pinName(k) && len(t) >= 4 && len(t) <= 12 && digits(t) || secretShaped(t, short)
	}
	return false
}

// pinName reports whether a name's last word is a PIN's ("pin",
// "sim_pin", "pinCode"), whose value may be as short as 4 digits; a
// version or a package pinned ("version_pin") is none.
func pinName(k string) bool {
	words := nameWords(strings.Map(AsLatin, k))
	for _, w := range words {
		switch strings.ToLower(w) {
		case "version", "dependency", "package", "commit", "release", "image", "tag", "sha":
			return false
		}
	}
	last := strings.ToLower(words[len(words)-1])
	if (last == "code" || last == "number") && len(words) > 1 {
		last = strings.ToLower(words[len(words)-2])
	}
	return last == "pin" || last == "passcode"
}

// credentialWords are the words of a name (nameWords, lower case) that
// say it may hold a credential. Those mapped to true are a password's,
// which can be short.
var credentialWords = map[string]bool{
	"secret": false, "secrets": false, "token": false, "tokens": false, "auth": false, "cookie": false, "cookies": false,
	"credential": false, "credentials": false, "creds": false, "cred": false, "seed": false, "mnemonic": false,
	"bearer": false, "session": false, "sid": false, "hmac": false, "apikey": false, "privkey": false,
	"sessionid": false, "phpsessid": false, "jsessionid": false, "sessid": false, "aspsessionid": false,
	"pass": true, "password": true, "passwd": true, "passphrase": true, "passcode": true, "pwd": true, "pin": true, "otp": true, "totp": true,
}

// credentialWordName reports whether a name has a word of
// credentialWords, or "key" after one of keyPrefixes ("licenseKey",
// "private_key", "appKey"), and whether that word is a password's.
//
// Recovery and backup codes ("recovery_codes") are a password's; a
// DescribingName or a CursorName has none.
func credentialWordName(k string) (short, ok bool) {
	if DescribingName(k) || CursorName(k) {
		return false, false
	}
	words := nameWords(strings.Map(AsLatin, k))
	for i, w := range words {
		w = strings.ToLower(w)
		if (w == "code" || w == "codes" || w == "phrase") && i > 0 {
			if p := strings.ToLower(words[i-1]); p == "recovery" || p == "backup" || p == "seed" {
				ok, short = true, true
				continue
			}
		}
		if pw, found := credentialWords[w]; found {
			ok = true
			short = short || pw
			continue
		}
		if p, isKey := strings.CutSuffix(w, "key"); isKey {
			if p == "" && i > 0 {
				p = strings.ToLower(words[i-1])
			}
			ok = ok || slices.Contains(keyPrefixes, p)
		}
	}
	return short, ok
}

// secretShaped reports whether t, the value of a member whose name has a
// credential's word, has a secret's shape: no spaces, not a placeholder,
// a word about a credential, a URL or a version, and either a generated
// secret's letters and digits (TokenLike), eight characters or more that
// change between letters and digits often ("9f8e7d6c"), or, for a
// password's name, six or more with a digit ("hunter22"). A cookie's
// "name=value" is judged by its value.
//
// A value with a date in it ("gpt-4o-2024-08-06") is a name or a
// version, not a generated secret.
func secretShaped(t string, short bool) bool {
	if t == "" || Placeholder(t) || DescribesCredential(t) || strings.ContainsFunc(t, unicode.IsSpace) || strings.Contains(t, "://") {
		return false
	}
	if hasDate(t) {
		return false
	}
	if name, v, ok := strings.Cut(t, "="); ok && name != "" && v != "" {
		v, _, _ = strings.Cut(v, ";")
		return secretShaped(v, short)
	}
	if versionLike(t) {
		return false
	}
	if TokenLike(t) || APIToken(t) != "" {
		return true
	}
	if short && len(t) >= 6 && strings.ContainsAny(t, "0123456789") {
		return true
	}
	return len(t) >= 8 && classChanges(t) >= 4
}

// hasDate reports whether t holds a date written with '-' or '.'
// (2024-08-06, 2024.08.06) between 1970 and 2099.
func hasDate(t string) bool {
	for i := 0; i+10 <= len(t); i++ {
		d := t[i : i+10]
		if (d[4] == '-' || d[4] == '.') && d[7] == d[4] && digits(d[:4]) && digits(d[5:7]) && digits(d[8:]) &&
			(d[:2] == "19" && d[2] >= '7' || d[:2] == "20") && d[5:7] >= "01" && d[5:7] <= "12" && d[8:] >= "01" && d[8:] <= "31" &&
			(i == 0 || t[i-1] < '0' || t[i-1] > '9') && (i+10 == len(t) || t[i+10] < '0' || t[i+10] > '9') {
			return true
		}
	}
	return false
}

func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// versionLike reports whether t is a version or a date ("v2.4.0",
// "2026-11-26", "1.0").
func versionLike(t string) bool {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "v"), "V")
	return t != "" && strings.Trim(t, "0123456789.-+") == ""
}

// classChanges counts the changes between letters and digits along t:
// generated secrets change often ("9f8e7d6c": 7), names and versions
// seldom ("gpt4o-mini": 2).
func classChanges(t string) int {
	n, last := 0, 0
	for _, r := range t {
		c := 0
		switch {
		case r >= '0' && r <= '9':
			c = 1
		case unicode.IsLetter(r):
			c = 2
		}
		if c != 0 && last != 0 && c != last {
			n++
		}
		if c != 0 {
			last = c
		}
	}
	return n
}

// embeddedCredential reports whether s is a JSON object written as text
// (a service account's credentials file, say) one of whose members, at
// any depth, holds a credential.
func embeddedCredential(s string) bool {
	t := strings.TrimSpace(s)
	if len(t) < 2 || t[0] != '{' || len(t) > 1<<20 {
		return false
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return false
	}
	return heldInJSON(v, 0)
}

// heldInJSON reports whether a member of v, at most 32 levels down, holds
// a credential (HeldCredential).
func heldInJSON(v any, depth int) bool {
	if depth > 32 {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		for k, m := range x {
			if s, ok := m.(string); ok && (HeldCredential(k, s) || IsCredentialName(k) && s != "" && !DescribesCredential(s) && !Placeholder(s)) {
				return true
			}
			if heldInJSON(m, depth+1) {
				return true
			}
		}
	case []any:
		for _, m := range x {
			if heldInJSON(m, depth+1) {
				return true
			}
		}
	}
	return false
}

// CredentialValue is HeldCredential's judgment of the value s of a member
// whose name k is known to name a credential: anything but a word about a
// credential, a placeholder, a URL or a sentence. A short word is judged
// a credential ("token" = "USDC" is refused: a short token cannot be told
// from a ticker; "tokenSymbol" says what it is).
func CredentialValue(k, s string) bool {
	t := strings.TrimSpace(s)
	if t == "" || Placeholder(t) || DescribesCredential(t) {
		return false
	}
	if strings.Contains(t, "://") && !strings.ContainsAny(t, " \t\n") {
		// A URL says where a credential is got or sent; one it carries
		// itself (user information, a key in its query) is InURLs'.
		return false
	}
	if scheme, rest, ok := strings.Cut(t, " "); ok && authSchemes[strings.ToLower(scheme)] && !strings.ContainsAny(strings.TrimSpace(rest), " \t\n") {
		// "Bearer abc123...", the value of an Authorization header.
		rest = strings.TrimSpace(rest)
		return len(rest) >= 6 && !Placeholder(rest) && !DescribesCredential(rest)
	}
	if strings.IndexFunc(t, unicode.IsSpace) < 0 {
		return true
	}
	// Words: a passphrase ("correct horse battery staple") under a name
	// that holds nothing else, unless they read as a sentence.
	return strongSecretName(k) && !prose(t)
}

// Placeholder reports whether s stands for a value rather than being one:
// "<key>", "${API_KEY}", "$API_KEY", "{{token}}", "%TOKEN%", "YOUR_API_KEY",
// "xxxx", "****", "...".
func Placeholder(s string) bool {
	if s == "" {
		return false
	}
	switch {
	case len(s) >= 2 && (s[0] == '<' && s[len(s)-1] == '>' || s[0] == '[' && s[len(s)-1] == ']' || s[0] == '%' && s[len(s)-1] == '%'):
		return true
	case strings.HasPrefix(s, "${") && strings.HasSuffix(s, "}"), strings.HasPrefix(s, "{{") && strings.HasSuffix(s, "}}"):
		return true
	case strings.HasPrefix(s, "$") && envName(s[1:]), envName(s) && strings.Contains(s, "_"):
		return true
	}
	first := []rune(s)[0]
	same := true
	for _, r := range s {
		if unicode.ToLower(r) != unicode.ToLower(first) {
			same = false
			break
		}
	}
	return same && strings.ContainsRune("xX*.•#-_0", first)
}

// envName reports whether s is written as an environment variable's name
// (API_KEY, OPENAI_API_KEY).
func envName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r >= 'A' && r <= 'Z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// strongSecretName reports whether a member named k holds nothing but a
// secret: a password, a shared or client secret, a private key, a token.
func strongSecretName(k string) bool {
	switch NormalizeName(k) {
	case "password", "passwd", "passphrase", "pwd", "secret", "sharedsecret", "clientsecret", "secretkey", "privatekey",
		"signingkey", "hmackey", "hmacsecret", "apikey", "apisecret", "token", "accesstoken", "refreshtoken", "bearertoken",
		"authtoken", "sessiontoken", "authorization", "webhooksecret", "encryptionkey", "masterkey":
		return true
	}
	return false
}

// proseWords are words that make text a sentence about a credential.
var proseWords = map[string]bool{
	"the": true, "a": true, "an": true, "your": true, "via": true, "from": true, "in": true, "to": true, "of": true,
	"for": true, "with": true, "use": true, "see": true, "set": true, "get": true, "is": true, "are": true, "per": true,
	"by": true, "on": true, "at": true, "as": true, "or": true, "and": true, "each": true, "every": true, "this": true,
	"that": true, "it": true, "be": true, "must": true, "should": true, "sent": true, "send": true, "issued": true,
}

// prose reports whether t reads as a sentence: it holds one of
// proseWords, markup of a placeholder, or is long.
func prose(t string) bool {
	if len(t) > 80 || strings.ContainsAny(t, "<>(){}:") {
		return true
	}
	for _, w := range strings.Fields(strings.ToLower(t)) {
		if proseWords[strings.Trim(w, ".,;!?\"'")] {
			return true
		}
	}
	return false
}

// TokenLike reports whether t has the shape of a generated secret: 16
// characters or more of letters, digits and a few symbols, with both
// letters and digits.
func TokenLike(t string) bool {
	if len(t) < 16 || Placeholder(t) {
		return false
	}
	letters, digits := false, false
	for _, r := range t {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters = true
		case r >= '0' && r <= '9':
			digits = true
		case strings.ContainsRune("-_.~+/=", r):
		default:
			return false
		}
	}
	return letters && digits
}

// APIToken is the first credential in a recognisable shape in s (tokenRE),
// or "": also a JSON Web Token written with blanks around its dots, a
// Discord bot token (a user id in base64url, a timestamp and an HMAC) and
// a Telegram bot token.
func APIToken(s string) string {
	if len(s) < 20 {
		return ""
	}
	if m := findToken(s); m != "" {
		return m
	}
	if strings.Contains(s, "eyJ") && strings.Contains(s, ".") {
		// "eyJ... . eyJ... . sig": a JWT cut at its dots.
		if m := findToken(spacedDots().ReplaceAllString(s, ".")); strings.HasPrefix(m, "eyJ") {
			return m
		}
	}
	if strings.Contains(s, ":AA") {
		if m := telegramRE().FindString(s); m != "" {
			return m
		}
	}
	if strings.Count(s, ".") >= 2 && hasRunOf(s, &base64URLBytes, 24) {
		for _, m := range discordRE().FindAllString(s, 4) {
			id, _, _ := strings.Cut(m, ".")
			if b, err := base64.RawURLEncoding.DecodeString(id); err == nil && len(b) >= 17 && digits(string(b)) {
				return m
			}
		}
	}
	return ""
}

var (
	spacedDots = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[ \t\r\n]*\.[ \t\r\n]*`) })
	telegramRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\b`) })
	discordRE  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}\b`)
	})
)

// tokenRE matches the credentials services issue in recognisable shapes:
// OpenAI and Stripe secret keys, GitHub tokens, Google API keys, Slack
// tokens, AWS access key ids, JSON Web Tokens, webhook signing secrets
// (Stripe, Svix), GitLab, npm and Hugging Face tokens, Shopify and
// SendGrid keys, Google OAuth access tokens and age secret keys; PyPI and
// DigitalOcean tokens, Google OAuth client secrets and refresh tokens,
// Azure AD client secrets, Twilio API keys, Mailgun keys, Databricks,
// HashiCorp Vault, Atlassian, Sentry, Linear and Postman tokens, and
// compact JWEs (five segments).
//
// It runs only over text that holds the literals its matches need
// ("sk-", "ghp_", "AKIA", ...; package prefilter).
var tokenRE = sync.OnceValue(func() *prefilter.Regexp {
	return prefilter.MustCompile(`\b(?:sk-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_-]{20,}|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|AIza[0-9A-Za-z_-]{35}|xox[baprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|whsec_[A-Za-z0-9+/=]{24,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,}|shp(?:at|ss)_[a-fA-F0-9]{32}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}|ya29\.[A-Za-z0-9_-]{20,}|AGE-SECRET-KEY-1[0-9A-Z]{58}` +
		`|pypi-AgE[A-Za-z0-9_-]{50,}|do[opr]_v1_[a-f0-9]{64}|GOCSPX-[A-Za-z0-9_-]{24,}|1//0[A-Za-z0-9_-]{35,}` +
		`|[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}|SK[0-9a-f]{32}|key-[0-9a-f]{32}|dapi[0-9a-f]{32}` +
		`|hv[sb]\.[A-Za-z0-9_-]{24,}|ATATT3x[A-Za-z0-9_=-]{40,}|sntry[su]_[A-Za-z0-9+/=_-]{40,}|lin_api_[A-Za-z0-9]{32,}` +
		`|PMAK-[0-9a-f]{24}-[0-9a-f]{34}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`)
})
