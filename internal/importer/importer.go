// Package importer turns an existing agent card (A2A v1.0, v0.3.x, v0.2.x,
// or the older registry shapes seen in the wild) into a manifest agent.
// Whatever cannot be carried is dropped with a warning that names it.
package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

// Result is an imported agent and what was left behind.
type Result struct {
	Agent    manifest.Agent
	Warnings []string
	// Version is the card shape recognized: "1.0", "0.3", "0.2" or "legacy".
	Version string
}

type importer struct {
	res    *Result
	card   map[string]any
	legacy bool // registry-era shapes were normalized
}

func (im *importer) warnf(format string, args ...any) {
	im.res.Warnings = append(im.res.Warnings, fmt.Sprintf(format, args...))
}

// Card imports one card. id, when not empty, is the agent id to use;
// otherwise one is derived from the card (an agent:// id, else the name).
func Card(data []byte, id string) (*Result, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	card, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	im := &importer{res: &Result{}, card: card}
	im.normalizeLegacy()
	a := &im.res.Agent
	a.ID = id
	if a.ID == "" {
		a.ID = im.idHint()
	}
	if len(im.res.Agent.SupportedInterfaces) == 0 && card["supportedInterfaces"] == nil && str(card["url"]) == "" {
		return nil, fmt.Errorf("the card names no endpoint (no supportedInterfaces, no url): nothing to import")
	}
	if _, v1 := card["supportedInterfaces"]; v1 {
		im.res.Version = "1.0"
		im.v1()
	} else {
		im.res.Version = "0.3"
		if pv := str(card["protocolVersion"]); strings.HasPrefix(pv, "0.2") || pv == "" && card["additionalInterfaces"] == nil {
			im.res.Version = "0.2"
		}
		if im.res.Version == "0.2" && im.legacy {
			im.res.Version = "legacy"
		}
		im.v03()
	}
	im.fillRequired()
	return im.res, nil
}

// idHint derives an agent id from the card: a registry id such as
// agent://acme/travel, else the name.
func (im *importer) idHint() string {
	if raw := str(im.card["@id"]); raw != "" {
		if s := slug(lastSegment(raw)); s != "" {
			return s
		}
	}
	if s := slug(str(im.card["name"])); s != "" {
		return s
	}
	return "agent"
}

func lastSegment(s string) string {
	s = strings.TrimRight(s, "/")
	if i := strings.LastIndexAny(s, "/:"); i >= 0 {
		return s[i+1:]
	}
	return s
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slug makes a URL slug of s ("Voyager Travel Planner" -> "voyager-travel-planner").
func slug(s string) string {
	s = nonSlug.ReplaceAllString(strings.ToLower(s), "-")
	s = strings.Trim(s, "-")
	if len(s) > 64 {
		s = strings.Trim(s[:64], "-")
	}
	return s
}

// str returns v as a string ("" when it is not one).
func str(v any) string {
	s, _ := v.(string)
	return s
}

// boolean reads a JSON boolean, accepting the string forms "true"/"True".
func (im *importer) boolean(path string, v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "yes", "1":
			return true
		case "false", "no", "0", "":
			return false
		}
		im.warnf("%s: %q is not a boolean; taken as false", path, x)
	case nil:
	default:
		im.warnf("%s: %v is not a boolean; taken as false", path, x)
	}
	return false
}

func strings_(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, e := range arr {
		if s, ok := e.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// take removes key from obj and returns its value.
func take(obj map[string]any, key string) (any, bool) {
	v, ok := obj[key]
	delete(obj, key)
	return v, ok
}

// secretKeys are dropped with a warning wherever they appear.
var secretKeys = []string{"credentials", "credential", "shared_secret", "sharedSecret", "client_secret", "clientSecret", "password", "secret", "token", "apiKeyValue", "private_key", "privateKey"}

// leftovers warns about every key still in obj: it has no place in the
// manifest.
func (im *importer) leftovers(path string, obj map[string]any) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := k
		if path != "" {
			p = path + "." + k
		}
		if slices.Contains(secretKeys, k) {
			im.warnf("%s: dropped: it holds a secret, and cards are public; keep it out of agents.toml", p)
			continue
		}
		im.warnf("%s: dropped: no A2A field carries it", p)
	}
}
