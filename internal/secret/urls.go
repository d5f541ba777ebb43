package secret

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// InURLs reports a credential that text carries in a URL or a connection
// string: a password in a URL's user information, with or without a
// scheme ("admin:Hunter2024@db.example.com:5432/prod"); a token as a URL's
// user name; a credential's query, fragment or path (";jsessionid=")
// parameter with a value (CredentialParam, or a session or app id with
// a generated secret's shape); a webhook URL whose path is its secret
// (Slack, Discord, Telegram, Microsoft Teams); a connection string's
// AccountKey, SharedAccessKey or Password.
func InURLs(s string) (Finding, bool) {
	if strings.Contains(s, "://") {
		for rest, off := s, 0; ; {
			i := strings.Index(rest, "://")
			if i < 0 {
				break
			}
			start := i
			for start > 0 && schemeByte(rest[start-1]) {
				start--
			}
			end := i + 3 + strings.IndexFunc(rest[i+3:], urlEnd)
			if end < i+3 {
				end = len(rest)
			}
			if start < i {
				if kind := urlCredential(strings.TrimRight(rest[start:end], ".,;:!?)]}")); kind != "" {
					return Finding{Kind: kind, Offset: off + start}, true
				}
			}
			off += end
			rest = rest[end:]
		}
		if loc := webhookRE().FindStringIndex(s); loc != nil {
			return Finding{Kind: "webhook URL, whose path is its secret", Offset: loc[0]}, true
		}
	}
	if strings.IndexByte(s, '@') > 0 && strings.IndexByte(s, ':') > 0 {
		for _, m := range userinfoRE().FindAllStringSubmatchIndex(s, 8) {
			user, pass := s[m[2]:m[3]], s[m[4]:m[5]]
			if !userinfoSchemes[strings.ToLower(user)] && passwordValue(pass) {
				return Finding{Kind: "password before a host name (user:password@host)", Offset: m[2]}, true
			}
		}
	}
	if strings.IndexByte(s, ';') >= 0 && strings.IndexByte(s, '=') > 0 {
		if off, ok := connectionString(s); ok {
			return Finding{Kind: "credential in a connection string", Offset: off}, true
		}
	}
	return Finding{}, false
}

func schemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

// urlEnd ends a URL written in text.
func urlEnd(r rune) bool {
	return r <= ' ' || strings.ContainsRune("\"'`<>\\", r) || r == 0x7f || r == 0xA0
}

// urlCredential says what credential the URL u carries, or "".
func urlCredential(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" && u.User == nil {
		return ""
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			if passwordValue(p) {
				return "URL with a password in its user information"
			}
		} else if name := u.User.Username(); len(name) >= 20 && TokenLike(name) {
			return "URL with a token as its user name"
		}
	}
	for _, part := range []string{u.RawQuery, u.Fragment, matrixParams(u.EscapedPath())} {
		for _, kv := range strings.FieldsFunc(part, func(r rune) bool { return r == '&' || r == ';' }) {
			k, v, _ := strings.Cut(kv, "=")
			if name, err := url.QueryUnescape(k); err == nil {
				k = name
			}
			if value, err := url.QueryUnescape(v); err == nil {
				v = value
			}
			if paramValue(k, v) {
				return "credential in a URL parameter"
			}
		}
	}
	return ""
}

// matrixParams are the ";name=value" parameters of a URL's path segments
// (";jsessionid=..."), joined by ';'.
func matrixParams(path string) string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if _, params, ok := strings.Cut(seg, ";"); ok {
			out = append(out, params)
		}
	}
	return strings.Join(out, ";")
}

// sessionParams are URL parameter names of session and application ids,
// credentials when their value has a generated secret's shape.
var sessionParams = map[string]bool{"sid": true, "sessionid": true, "jsessionid": true, "phpsessid": true, "aspsessionid": true,
	"sessid": true, "session": true, "appid": true, "apiid": true}

// paramValue reports whether v, the value of a URL or connection-string
// parameter named k, is a credential: a CredentialParam's value that is
// not a placeholder or a word about one, or a session or app id's value
// in a secret's shape.
func paramValue(k, v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || Placeholder(v) || DescribesCredential(v) {
		return false
	}
	if sessionParams[NormalizeName(k)] {
		return secretShaped(v, false)
	}
	return CredentialParam(k)
}

// passwordValue reports whether p, written as the password of a URL's
// user information, is one: not a placeholder or a word that stands for
// one ("password", "pass", "pwd", "xxx").
func passwordValue(p string) bool {
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	l := strings.ToLower(p)
	return p != "" && !Placeholder(p) && !DescribesCredential(l) && l != "pass" && l != "pwd" && l != "xxx" && l != "passw0rd"
}

// userinfoSchemes are URI schemes without "//" that userinfoRE would read
// as a user name: "mailto:ann2@example.com" holds no password.
var userinfoSchemes = map[string]bool{"mailto": true, "sip": true, "sips": true, "tel": true, "xmpp": true, "im": true,
	"news": true, "urn": true, "acct": true, "git": true, "ssh": true, "scp": true}

var (
	// userinfoRE matches user:password@host without a scheme; its
	// password needs a digit or eight characters, so "at 10:30@venue" is
	// none.
	userinfoRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s"'(=,])([A-Za-z0-9._%+-]{1,64}):((?:[^\s:@/"'<>]*[0-9][^\s:@/"'<>]*|[^\s:@/"'<>]{8,}))@(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|localhost)(?::[0-9]{1,5})?(?:[/\s"'?]|$)`)
	})
	// webhookRE matches webhook URLs whose path is their secret.
	webhookRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9]{8,}/[A-Za-z0-9]{8,}/[A-Za-z0-9]{16,}` +
			`|discord(?:app)?\.com/api/webhooks/[0-9]{15,}/[A-Za-z0-9_-]{40,}` +
			`|api\.telegram\.org/(?:file/)?bot[0-9]{6,}:[A-Za-z0-9_-]{30,}` +
			`|\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/-]{40,}|outlook\.office\.com/webhook/[A-Za-z0-9@/-]{40,}`)
	})
)

// connectionString finds, in text holding at least two name=value pairs
// joined by ';', a pair whose name is a credential's (AccountKey,
// SharedAccessKey, Password, Pwd: CredentialParam) with a value that is
// one: six characters or more, with a digit or twelve or more.
func connectionString(s string) (int, bool) {
	pairs, off := 0, 0
	found := -1
	for _, part := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if ok && k != "" && strings.Count(k, " ") <= 1 && !strings.ContainsAny(k, "\t\n") {
			pairs++
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			if found < 0 && len(v) >= 6 && (strings.ContainsAny(v, "0123456789") || len(v) >= 12) && paramValue(k, v) && !strings.ContainsAny(v, " \t") {
				found = off
			}
		}
		off += len(part) + 1
	}
	return found, pairs >= 2 && found >= 0
}
