package lint

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"

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
	field, reqs := requirements(doc)
	if len(reqs) > 0 {
		if i := emptyRequirement(reqs); i >= 0 {
			l.add(NoSecurity, index(field, i), "an empty security requirement lets anyone call the agent without credentials")
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
	l.add(NoSecurity, "", msg)
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
// a JSON Web Key (its shortest hex run).
const minSecretLen = 32

// credential reports a string that is a credential: the value of a member
// named like one, or key material anywhere.
func (l *linter) credential(path, key, s string) {
	// Key material the detectors know is a JSON Web Key (with "kty") or
	// a run of 32 characters or more.
	if len(s) >= minSecretLen || strings.Contains(s, "kty") {
		if f, found := secret.InText(s); found {
			l.add(CredentialInCard, path, fmt.Sprintf("holds %s (not repeated here)", f))
			return
		}
	}
	if m := tokenMatch(s); m != "" {
		l.add(CredentialInCard, path, fmt.Sprintf("holds what looks like an API token or JWT (%s..., not repeated further)", quote(m[:min(len(m), 6)], 10)))
		return
	}
	if looksLikeURL(s) {
		if u, err := url.Parse(s); err == nil {
			if _, ok := u.User.Password(); ok {
				l.add(CredentialInCard, path, "the URL carries a password in its user information (not repeated here)")
				return
			}
			for k, v := range u.Query() {
				if (credentialName(k) || strings.EqualFold(k, "key")) && len(v) > 0 && v[0] != "" {
					l.add(CredentialInCard, path, fmt.Sprintf("the URL's query parameter %s holds a value (not repeated here)", quote(k, 40)))
					return
				}
			}
		}
	}
	// A value with white space, or a URL, describes a credential ("API
	// key via Authorization: Bearer <key>") or says where to get one.
	if credentialName(key) && s != "" && !underSecurity(path) && strings.IndexFunc(s, unicode.IsSpace) < 0 && !looksLikeURL(s) {
		l.add(CredentialInCard, path, fmt.Sprintf("the member %s holds a value (not repeated here): a credential in a card is published to everyone", quote(key, 40)))
	}
}

// tokenMatch is the first token tokenRE finds in s, or "".
func tokenMatch(s string) string {
	if len(s) < 20 {
		return ""
	}
	for _, prefix := range tokenPrefixes {
		if strings.Contains(s, prefix) {
			return tokenRE.FindString(s)
		}
	}
	return ""
}

// tokenPrefixes are what every match of tokenRE holds: the expression
// runs only on text that holds one.
var tokenPrefixes = []string{"sk-", "sk_", "rk_", "gho_", "ghp_", "ghu_", "ghs_", "ghr_", "github_pat_", "AIza", "xox", "AKIA", "eyJ"}

// tokenRE matches the credentials services issue in recognisable shapes:
// OpenAI and Stripe secret keys, GitHub tokens, Google API keys, Slack
// tokens, AWS access key ids, and JSON Web Tokens.
var tokenRE = regexp.MustCompile(`\b(?:sk-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_-]{20,}|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|AIza[0-9A-Za-z_-]{35}|xox[baprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`)

// credentialName reports whether a member name holds a credential: one of
// secret.IsCredentialName's, or a name ending in one ("github_token",
// "openaiApiKey", "db_password", "slackBotToken") or "authorization".
func credentialName(k string) bool {
	if secret.IsCredentialName(k) {
		return true
	}
	if !isASCII(k) {
		k = strings.Map(asLatin, k)
	}
	n := secret.NormalizeName(k)
	for _, suffix := range []string{"token", "secret", "password", "passwd", "apikey", "accesskey", "secretkey", "privatekey", "authorization", "credentials"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return secret.IsCredentialName(n)
}

// underSecurity reports whether path names scheme and scope names, not
// credentials: a security requirement ("token": ["read"]) of the card or a
// skill, or a scheme's scopes table. A credential elsewhere in a scheme (a
// flow's clientSecret) is not excused.
func underSecurity(path string) bool {
	for _, p := range []string{"security", "securityRequirements"} {
		if strings.HasPrefix(path, p+"[") || strings.Contains(path, "."+p+"[") {
			return true
		}
	}
	return strings.Contains(path, ".scopes.") || strings.Contains(path, ".scopes[")
}
