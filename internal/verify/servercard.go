package verify

import (
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/secret"
)

// serverCardNameRE is a Server Card name: reverse DNS, one slash.
var serverCardNameRE = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// CheckServerCard says what is wrong with a Server Card read with Decode:
// the members SEP-2127 requires, and no header value (a credential) in a
// remote. It checks what a reader relies on, not every rule of the schema.
func CheckServerCard(c map[string]any) []string {
	var out []string
	str := func(k string) string { s, _ := c[k].(string); return s }
	if s := str("$schema"); s != manifest.ServerCardSchema {
		out = append(out, fmt.Sprintf("$schema is %q, not %s", s, manifest.ServerCardSchema))
	}
	if n := str("name"); !serverCardNameRE.MatchString(n) || utf8.RuneCountInString(n) < 3 || utf8.RuneCountInString(n) > 200 {
		out = append(out, fmt.Sprintf("name %q is not reverse DNS with one slash", n))
	}
	if str("version") == "" {
		out = append(out, "no version")
	}
	if d := utf8.RuneCountInString(str("description")); d < 1 || d > 100 {
		out = append(out, fmt.Sprintf("description has %d characters, not 1 to 100", d))
	}
	// Members are found ignoring letter case, as a Go reader finds them
	// (Decode has refused two names that differ only in case).
	remotes, _ := memberFold(c, "remotes").([]any)
	for i, r := range remotes {
		rm, _ := r.(map[string]any)
		p := fmt.Sprintf("remotes[%d]", i)
		if t, _ := memberFold(rm, "type").(string); t != "streamable-http" && t != "sse" {
			out = append(out, fmt.Sprintf("%s.type %q is not streamable-http or sse", p, t))
		}
		if u, err := url.Parse(str2(rm, "url")); err != nil || u.User != nil {
			out = append(out, p+".url carries user information (or does not parse): a credential must never be published")
		} else if k := manifest.CredentialParam(u); k != "" {
			out = append(out, fmt.Sprintf("%s.url carries the query parameter %q, a credential: a credential must never be published", p, k))
		}
		headers, _ := memberFold(rm, "headers").([]any)
		for j, h := range headers {
			hm, _ := h.(map[string]any)
			out = append(out, inputValues(fmt.Sprintf("%s.headers[%d]", p, j), hm)...)
		}
		vars, _ := memberFold(rm, "variables").(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(vars)) {
			vm, _ := vars[k].(map[string]any)
			out = append(out, inputValues(p+".variables."+k, vm)...)
		}
	}
	// Any text of the card: no key material or credential anywhere.
	walkStrings("", c, func(path, s string) {
		if found, ok := secret.InText(s); ok {
			out = append(out, fmt.Sprintf("%s contains %s: a credential must never be published", cmp.Or(strings.TrimPrefix(path, "."), "(card)"), found))
		}
	})
	return out
}

// inputValues are the problems of a header or variable of a Server Card:
// a value (a header's value is each client's own), and for a secret one
// a default or choices, which would be a credential too. Member names
// are compared ignoring case, as a Go reader would.
func inputValues(path string, in map[string]any) []string {
	var out []string
	secretInput := memberFold(in, "isSecret") == true
	for _, k := range slices.Sorted(maps.Keys(in)) {
		switch strings.ToLower(k) {
		case "value":
			out = append(out, fmt.Sprintf("%s carries a value: a credential must never be published", path))
		case "default", "choices", "placeholder":
			if secretInput {
				out = append(out, fmt.Sprintf("%s is secret and carries a %s: a credential must never be published", path, k))
			}
		case "variables":
			vars, _ := in[k].(map[string]any)
			for _, v := range slices.Sorted(maps.Keys(vars)) {
				vm, _ := vars[v].(map[string]any)
				out = append(out, inputValues(path+".variables."+v, vm)...)
			}
		}
	}
	return out
}

// str2 is a string member of an object, "" when absent.
func str2(m map[string]any, k string) string { s, _ := memberFold(m, k).(string); return s }

// memberFold is the member of m named k in any letter case, nil when none.
func memberFold(m map[string]any, k string) any {
	if v, ok := m[k]; ok {
		return v
	}
	for name, v := range m {
		if strings.EqualFold(name, k) {
			return v
		}
	}
	return nil
}

// walkStrings calls f with every string in v and its path.
func walkStrings(path string, v any, f func(path, s string)) {
	switch x := v.(type) {
	case string:
		f(path, x)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkStrings(path+"."+k, x[k], f)
		}
	case []any:
		for i, e := range x {
			walkStrings(fmt.Sprintf("%s[%d]", path, i), e, f)
		}
	}
}

// checkServerCard reads a Server Card file and checks it (serverCard).
func checkServerCard(path string, opts Options) (string, []string) {
	data, err := readLocal(path, opts)
	if err != nil {
		return "", []string{err.Error()}
	}
	return serverCard(data)
}

// serverCard reads a Server Card strictly and checks it; it returns the
// card's name and its problems.
func serverCard(data []byte) (name string, problems []string) {
	c, err := card.Decode(data, card.Strict)
	if err != nil {
		return "", []string{"not a Server Card: " + err.Error()}
	}
	name, _ = c["name"].(string)
	return name, CheckServerCard(c)
}
