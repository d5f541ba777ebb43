package lint

import (
	"fmt"
	"net/url"
	"strings"

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
	return "security", list(m["security"])
}

// emptyRequirement is the index of a requirement that names no scheme,
// or -1.
func emptyRequirement(reqs []any) int {
	for i, r := range reqs {
		m := object(r)
		if schemes, ok := m["schemes"].(map[string]any); ok && len(m) == 1 {
			m = schemes // v1.0: {"schemes": {...}}
		}
		if m != nil && len(m) == 0 {
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
	if looksLikeURL(s) {
		if u, err := url.Parse(s); err == nil {
			if _, ok := u.User.Password(); ok {
				l.add(CredentialInCard, path, "the URL carries a password in its user information (not repeated here)")
				return
			}
			for k, v := range u.Query() {
				if (secret.IsCredentialName(k) || strings.EqualFold(k, "key")) && len(v) > 0 && v[0] != "" {
					l.add(CredentialInCard, path, fmt.Sprintf("the URL's query parameter %s holds a value (not repeated here)", quote(k, 40)))
					return
				}
			}
		}
	}
	// Under security schemes and requirements, member names are scheme
	// and scope names ("token": ["read"]), not credentials.
	if secret.IsCredentialName(key) && s != "" && !underSecurity(path) {
		l.add(CredentialInCard, path, fmt.Sprintf("the member %s holds a value (not repeated here): a credential in a card is published to everyone", quote(key, 40)))
	}
}

// underSecurity reports whether path lies in a card's security schemes or
// requirements, or a skill's.
func underSecurity(path string) bool {
	for _, p := range []string{"security", "securitySchemes", "securityRequirements"} {
		if strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") || strings.Contains(path, "."+p+".") || strings.Contains(path, "."+p+"[") {
			return true
		}
	}
	return false
}
