package manifest

import (
	"github.com/agentcards/agentcards/internal/secret"
)

// publicWarning explains why secrets are refused.
const publicWarning = "agent cards and everything else built from agents.toml are published for anyone to read, " +
	"so secrets must never be in it; keep the secret in your agent's deployment and remove it here"

// normalizeKey lower-cases a key name and drops '_', '-' and invisible
// format characters (secret.NormalizeName).
func normalizeKey(k string) string { return secret.NormalizeName(k) }

// IsSecretKey reports whether a key name (in any case, with or without '_'
// and '-') holds a credential rather than a description of one.
func IsSecretKey(k string) bool { return secret.IsCredentialName(k) }

// HoldsKeyMaterial reports whether a string carries private key material
// or a credential (secret.InText).
func HoldsKeyMaterial(s string) bool {
	_, found := secret.InText(s)
	return found
}

// secretKey returns why key k is refused, or "" when it is fine.
func secretKey(k string) string {
	n := normalizeKey(k)
	if !secret.IsCredentialName(k) {
		return ""
	}
	msg := "looks like a secret (" + k + "); " + publicWarning
	if n == "password" {
		msg += " (the OAuth password flow is deprecated in A2A v1.0 and not supported)"
	}
	return msg
}

// checkSecretText reports strings that carry key material or credentials.
func (c *checker) checkSecretText(path, s string) {
	if f, found := secret.InText(s); found {
		c.errorf(path, "contains %s; %s", f, publicWarning)
	}
}
