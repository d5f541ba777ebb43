// Package importer turns an existing agent card (A2A v1.0, v0.3.x, v0.2.x,
// or the older registry shapes seen in the wild) into a manifest agent.
// Whatever cannot be carried is dropped with a warning that names it.
package importer

import (
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/agentcards/agentcards/internal/card"
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
	// schemeArray: securitySchemes came as the registry's array, whose
	// cards list no requirements.
	schemeArray bool
}

func (im *importer) warnf(format string, args ...any) {
	im.res.Warnings = append(im.res.Warnings, fmt.Sprintf(format, args...))
}

// Card imports one card. id, when not empty, is the agent id to use;
// otherwise one is derived from the card (an agent:// id, else the name).
func Card(data []byte, id string) (*Result, error) {
	// Strictly, and no deeper than a manifest may nest (the agent's table
	// sits one level down in agents.toml); numbers JSON cannot carry
	// exactly are kept, as strings, with a warning (normalize).
	doc, err := card.Decode(data, card.Limits{Depth: manifest.MaxDepth - 1, InexactNumbers: true})
	if err != nil {
		return nil, fmt.Errorf("card refused: %v", err)
	}
	im := &importer{res: &Result{}, card: doc}
	im.normalizeLegacy()
	a := &im.res.Agent
	a.ID = id
	if a.ID == "" {
		a.ID = im.idHint()
	}
	if len(im.res.Agent.SupportedInterfaces) == 0 && doc["supportedInterfaces"] == nil && str(doc["url"]) == "" {
		return nil, fmt.Errorf("the card names no endpoint (no supportedInterfaces, no url): nothing to import")
	}
	if _, v1 := doc["supportedInterfaces"]; v1 {
		im.res.Version = "1.0"
		im.v1()
	} else {
		im.res.Version = "0.3"
		if pv := str(doc["protocolVersion"]); strings.HasPrefix(pv, "0.2") || pv == "" && doc["additionalInterfaces"] == nil {
			im.res.Version = "0.2"
		}
		if im.res.Version == "0.2" && im.legacy {
			im.res.Version = "legacy"
		}
		im.v03()
	}
	im.fillRequired()
	im.scrub("", reflect.ValueOf(&im.res.Agent).Elem())
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

// slug makes a URL slug of s ("Voyager Travel Planner" ->
// "voyager-travel-planner"); Latin letters with diacritics lose them
// ("Café Zürich" -> "cafe-zurich"), other scripts are left out.
func slug(s string) string {
	s = nonSlug.ReplaceAllString(strings.ToLower(ascii(s)), "-")
	s = strings.Trim(s, "-")
	if len(s) > 64 {
		s = strings.Trim(s[:64], "-")
	}
	return s
}

// latinLetters are the Latin letters that decomposition does not take
// apart into a base letter and marks.
var latinLetters = strings.NewReplacer(
	"ß", "ss", "ẞ", "SS", "æ", "ae", "Æ", "AE", "œ", "oe", "Œ", "OE",
	"ø", "o", "Ø", "O", "ł", "l", "Ł", "L", "đ", "d", "Đ", "D",
	"ð", "d", "Ð", "D", "þ", "th", "Þ", "TH", "ı", "i", "ħ", "h", "Ħ", "H",
)

// ascii writes the Latin letters of s with diacritics as their base
// letters (NFD, then the combining marks dropped); everything else stays.
func ascii(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(latinLetters.Replace(s)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
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
		if manifest.SecretMember(k, obj[k]) {
			im.warnf("%s: dropped: it holds a secret, and cards are public; keep it out of agents.toml", p)
			continue
		}
		im.warnf("%s: dropped: no A2A field carries it", p)
	}
}

// scrub walks the imported agent and removes what must never reach
// agents.toml: strings carrying key material (blanked), and user
// information in URLs (stripped). Values are never repeated in warnings.
func (im *importer) scrub(path string, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			elem := v.Elem()
			if v.Kind() == reflect.Interface && elem.Kind() == reflect.String {
				if s, ok := im.scrubString(path, elem.String()); ok {
					v.Set(reflect.ValueOf(s))
				}
				return
			}
			im.scrub(path, elem)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name := f.Tag.Get("toml")
			if name == "" || name == "-" {
				continue
			}
			im.scrub(joinPath(path, name), v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			im.scrub(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			p := joinPath(path, k.String())
			switch {
			case e.Kind() == reflect.String:
				if s, ok := im.scrubString(p, e.String()); ok {
					v.SetMapIndex(k, reflect.ValueOf(s))
				}
			case e.Kind() == reflect.Interface && !e.IsNil() && e.Elem().Kind() == reflect.String:
				if s, ok := im.scrubString(p, e.Elem().String()); ok {
					v.SetMapIndex(k, reflect.ValueOf(any(s)))
				}
			default:
				c := reflect.New(e.Type()).Elem()
				c.Set(e)
				im.scrub(p, c)
				v.SetMapIndex(k, c)
			}
		}
	case reflect.String:
		if s, ok := im.scrubString(path, v.String()); ok && v.CanSet() {
			v.SetString(s)
		}
	}
}

// scrubString returns a cleaned string and true when s had to change.
func (im *importer) scrubString(path, s string) (string, bool) {
	if manifest.HoldsKeyMaterial(s) {
		im.warnf("%s: dropped: it holds a private key, and cards are public", path)
		return "[private key removed by agentcards import]", true
	}
	if u, err := url.Parse(s); err == nil && u.User != nil && u.Host != "" {
		u.User = nil
		im.warnf("%s: user information removed from the URL: cards are public", path)
		return u.String(), true
	}
	return s, false
}

func joinPath(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}
