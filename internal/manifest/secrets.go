package manifest

import (
	"reflect"
	"strings"

	"github.com/agentcards/agentcards/internal/secret"
)

// publicWarning explains why secrets are refused.
const publicWarning = "agent cards and everything else built from agents.toml are published for anyone to read, " +
	"so secrets must never be in it; keep the secret in your agent's deployment and remove it here"

// normalizeKey lower-cases a key name and drops '_', '-' and invisible
// format characters (secret.NormalizeName).
func normalizeKey(k string) string { return secret.NormalizeName(k) }

// SecretMember reports whether a member named k with the value v would
// put a credential in a card, as lint judges it (package secret is the
// one vocabulary): a string that secret.HeldCredential calls a credential
// (under a credential's name, anything but a word about one such as
// "required" or "JWT", a placeholder or a sentence; under a name with a
// credential's word, a value in a secret's shape); a table under a
// secret.CredentialName; an array with such an element; a number under
// secret.NumberCredentialName. true and false are never credentials.
// Whatever lint reports as a credential member, the build refuses, and
// what lint passes the build does not refuse for its name alone.
func SecretMember(k string, v any) bool {
	if s, ok := v.(string); ok {
		return secret.HeldCredential(k, s)
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Map:
		return secret.CredentialName(k)
	case reflect.Slice, reflect.Array:
		// An array's elements are read as values of k, as lint reads them.
		for i := range rv.Len() {
			if SecretMember(k, rv.Index(i).Interface()) {
				return true
			}
		}
		return false
	case reflect.Bool:
		return false
	}
	return secret.NumberCredentialName(k) // a number
}

// HoldsKeyMaterial reports whether a string carries private key material
// or a credential (secret.InText).
func HoldsKeyMaterial(s string) bool {
	_, found := secret.InText(s)
	return found
}

// secretKey returns why key k, whose value is v, is refused, or "" when it
// is fine (SecretMember).
func secretKey(k string, v any) string {
	n := normalizeKey(k)
	if !SecretMember(k, v) {
		return ""
	}
	msg := "looks like a secret (" + k + "); " + publicWarning +
		"; if it is not one, name it for what it is (" + k + "_id, " + k + "_url, " + k + "_symbol ...) or write a word about it (\"required\", \"<placeholder>\")"
	if n == "password" {
		msg += " (the OAuth password flow is deprecated in A2A v1.0 and not supported)"
	}
	return msg
}

// checkSecretParts reports key material or a credential that the string
// elements of an array hold only together (secret.InParts): a PEM body
// split across elements, a JWT split at its dots.
func (c *checker) checkSecretParts(path string, items []any) {
	var parts []string
	for _, it := range items {
		if s, ok := it.(string); ok {
			parts = append(parts, s)
		}
	}
	if f, found := secret.InParts(parts); found {
		c.errorf(path, "contains %s; %s", f, publicWarning)
	}
}

// checkSecretText reports strings that carry key material or credentials.
func (c *checker) checkSecretText(path, s string) {
	if f, found := secret.InText(s); found {
		c.errorf(path, "contains %s; %s", f, publicWarning)
	} else if secret.APIToken(s) != "" && !strings.HasSuffix(path, ".value") {
		// (A header's value is refused whatever it holds, with its own
		// words, later.)
		c.errorf(path, "contains what looks like an API token or JWT; %s", publicWarning)
	}
}
