package importer

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

// Reading a card's values into the manifest's: text, lists of strings,
// media types, extensions and their free-form params.

// text reads a string field; a number (a version written as 2) is taken
// as its text, anything else is dropped with a warning.
func (im *importer) text(path string, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		im.warnf("%s: the number %s is taken as the text %q", path, x, x.String())
		return x.String()
	}
	im.warnf("%s: dropped: not a string", path)
	return ""
}

// stringList reads a list of non-empty strings, naming what it drops.
func (im *importer) stringList(path string, v any) []string {
	if v == nil {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		im.warnf("%s: dropped: not a list", path)
		return nil
	}
	var out []string
	for i, e := range arr {
		if s, ok := e.(string); ok && s != "" {
			out = append(out, s)
		} else {
			im.warnf("%s[%d]: dropped: not a non-empty string", path, i)
		}
	}
	return out
}

// shortModes maps the bare words early A2A samples used to media types.
var shortModes = map[string]string{"text": "text/plain", "json": "application/json", "data": "application/json"}

var mediaTypeRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$`)

func (im *importer) modes(path string, v any) []string {
	var out []string
	for _, m := range strings_(v) {
		switch {
		case mediaTypeRE.MatchString(m):
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		case shortModes[strings.ToLower(m)] != "":
			mt := shortModes[strings.ToLower(m)]
			im.warnf("%s: %q written as %q", path, m, mt)
			if !slices.Contains(out, mt) {
				out = append(out, mt)
			}
		default:
			im.warnf("%s: %q dropped: not a media type", path, m)
		}
	}
	return out
}

func (im *importer) extensions(v any) []manifest.Extension {
	var out []manifest.Extension
	for i, e := range asObjects(v) {
		p := fmt.Sprintf("capabilities.extensions[%d]", i)
		x := manifest.Extension{
			URI:         str(pop(e, "uri")),
			Description: str(pop(e, "description")),
			Required:    im.boolean(p+".required", pop(e, "required")),
		}
		if params, ok := pop(e, "params").(map[string]any); ok {
			if cleaned, ok := im.params(p+".params", params).(map[string]any); ok {
				x.Params = cleaned
			}
		}
		im.leftovers(p, e)
		out = append(out, x)
	}
	return out
}

// params keeps a free-form JSON value, dropping what the manifest (and the
// SDKs) cannot carry: nulls, empty values, secrets.
func (im *importer) params(path string, v any) any {
	switch x := v.(type) {
	case nil:
		im.warnf("%s: null dropped", path)
		return nil
	case string:
		if x == "" {
			im.warnf("%s: empty string dropped", path)
			return nil
		}
		return x
	case map[string]any:
		out := map[string]any{}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if manifest.SecretMember(k, x[k]) {
				im.warnf("%s.%s: dropped: it holds a secret, and cards are public", path, k)
				continue
			}
			if k == "__proto__" {
				im.warnf("%s.%s: dropped: the A2A JS SDK cannot carry this key", path, k)
				continue
			}
			if c := im.params(path+"."+k, x[k]); c != nil {
				out[k] = c
			}
		}
		if len(out) == 0 {
			im.warnf("%s: empty object dropped", path)
			return nil
		}
		return out
	case []any:
		var out []any
		for i, e := range x {
			if c := im.params(fmt.Sprintf("%s[%d]", path, i), e); c != nil {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			im.warnf("%s: empty array dropped", path)
			return nil
		}
		return out
	case json.Number:
		if n, err := x.Int64(); err == nil {
			if n > 1<<53 || n < -(1<<53) {
				im.warnf("%s: %s is beyond ±2^53, which JSON cannot carry exactly; kept as a string", path, x)
				return x.String()
			}
			return n
		}
		if !strings.ContainsAny(x.String(), ".eE") {
			im.warnf("%s: %s is beyond ±2^53, which JSON cannot carry exactly; kept as a string", path, x)
			return x.String()
		}
		f, err := x.Float64()
		if err != nil {
			im.warnf("%s: number %s dropped", path, x)
			return nil
		}
		return f
	default:
		return x
	}
}

func asObjects(v any) []map[string]any {
	arr, _ := v.([]any)
	var out []map[string]any
	for _, e := range arr {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// pop removes key from obj (which may be nil) and returns its value.
func pop(obj map[string]any, key string) any {
	if obj == nil {
		return nil
	}
	v := obj[key]
	delete(obj, key)
	return v
}
