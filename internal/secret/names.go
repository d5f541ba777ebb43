package secret

import (
	"strings"
	"unicode"
)

// credentialNames are member and key names (lower case, without '_' and
// '-') that hold credentials rather than descriptions of them.
var credentialNames = map[string]bool{
	"secret": true, "sharedsecret": true, "clientsecret": true,
	"password": true, "passwd": true, "passphrase": true,
	"credential": true, "credentials": true,
	"privatekey": true, "signingkey": true,
	"accesstoken": true, "refreshtoken": true, "bearertoken": true, "idtoken": true,
	"apikeyvalue": true, "apisecret": true,
	"secretkey": true, "apikey": true, "apitoken": true, "authtoken": true,
	"sessiontoken": true, "token": true, "pwd": true,
}

// nameSeparators are dropped when comparing names.
var nameSeparators = strings.NewReplacer("_", "", "-", "")

// NormalizeName lower-cases a member or key name and drops '_', '-' and
// invisible format characters (a zero-width space inside "pass\u200bword").
func NormalizeName(k string) string {
	k = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, k)
	return strings.ToLower(nameSeparators.Replace(k))
}

// IsCredentialName reports whether a member or key name (in any case, with
// or without '_' and '-') holds a credential rather than a description of
// one: "shared_secret", "apiKey", "password".
func IsCredentialName(k string) bool { return credentialNames[NormalizeName(k)] }
