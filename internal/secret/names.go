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

// NormalizeName is a member or key name as it reads: lower case, without
// '_', '-', '.', spaces and dashes of any script ("api key", "api\u2010key"),
// without invisible characters (format characters such as a zero-width
// space inside "pass\u200bword", combining marks, Hangul fillers), and with
// look-alike, full-width and styled letters read as the Latin ones they
// imitate ("pаssword" with a Cyrillic а is "password").
func NormalizeName(k string) string {
	k = strings.Map(func(r rune) rune {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '\t':
			return -1
		case r < 0x80:
			return r
		case unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me, unicode.Pd, unicode.Zs), r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0:
			return -1
		}
		if l := AsLatin(r); l != r {
			if l == '_' || l == '-' || l == '.' || l == ' ' {
				return -1 // full-width separators
			}
			return l
		}
		return r
	}, k)
	return strings.ToLower(k)
}

// IsCredentialName reports whether a member or key name (in any case, with
// or without '_' and '-') holds a credential rather than a description of
// one: "shared_secret", "apiKey", "password".
func IsCredentialName(k string) bool { return credentialNames[NormalizeName(k)] }
