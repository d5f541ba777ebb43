package manifest

import (
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Extended is an agent's [agents.extended] table: what its authenticated
// extended card (A2A GetExtendedAgentCard) shows beyond the public card.
// It is merged over the public agent with the A2X SDK's rules (Merge):
// scalars replace, lists replace whole, capabilities merge key by key,
// securitySchemes merge by name with the overlay winning, and AddSkills
// appends to the skills instead of replacing them.
type Extended struct {
	// ID is refused: an extended card describes the same agent.
	ID                   string                    `toml:"id"`
	Name                 string                    `toml:"name"`
	Description          string                    `toml:"description"`
	Version              string                    `toml:"version"`
	Provider             *Provider                 `toml:"provider"`
	DocumentationURL     string                    `toml:"documentationUrl"`
	IconURL              string                    `toml:"iconUrl"`
	SupportedInterfaces  []Interface               `toml:"supportedInterfaces"`
	Capabilities         *OverlayCapabilities      `toml:"capabilities"`
	DefaultInputModes    []string                  `toml:"defaultInputModes"`
	DefaultOutputModes   []string                  `toml:"defaultOutputModes"`
	SecuritySchemes      map[string]SecurityScheme `toml:"securitySchemes"`
	SecurityRequirements []Requirement             `toml:"securityRequirements"`
	// Skills replaces the whole skill list.
	Skills []Skill `toml:"skills"`
	// AddSkills appends skills to the list (after Skills when both are
	// given), so that the public skills need not be repeated.
	AddSkills []Skill `toml:"addSkills"`
	// Tiers are per-audience variants ([agents.extended.tiers.<name>]),
	// each merged over this overlay and giving a card of its own. A tier
	// has no tiers.
	Tiers map[string]*Extended `toml:"tiers"`
}

// OverlayCapabilities is the capabilities table of an overlay: a key left
// out keeps the value of the card underneath.
type OverlayCapabilities struct {
	Streaming         *bool `toml:"streaming"`
	PushNotifications *bool `toml:"pushNotifications"`
	// ExtendedAgentCard is refused: the build sets it.
	ExtendedAgentCard *bool       `toml:"extendedAgentCard"`
	Extensions        []Extension `toml:"extensions"`
}

// ExtendedCard is one extended card of an agent: the merged agent, and the
// tier it is for ("" for the [agents.extended] card itself).
type ExtendedCard struct {
	Tier  string
	Agent *Agent
}

// ExtendedCards is every extended card of a: the [agents.extended] card
// first, then one per tier in name order; nil when a has no overlay.
func (a *Agent) ExtendedCards() []ExtendedCard {
	if a.Extended == nil {
		return nil
	}
	ext := a.Merge(a.Extended)
	out := []ExtendedCard{{Agent: ext}}
	for _, name := range slices.Sorted(maps.Keys(a.Extended.Tiers)) {
		out = append(out, ExtendedCard{Tier: name, Agent: ext.Merge(a.Extended.Tiers[name])})
	}
	return out
}

// Merge is the agent o describes over a, by the A2X SDK's rules: a scalar
// (name, description, version, documentationUrl, iconUrl, provider) given
// in o replaces a's; a list (supportedInterfaces, defaultInputModes,
// defaultOutputModes, securityRequirements, skills) given replaces the
// whole list; capabilities merge key by key (extensions is a list, so it
// replaces); securitySchemes merge by name, o's winning; addSkills is
// appended to the skills. The result has no overlay of its own, and a is
// not changed.
func (a *Agent) Merge(o *Extended) *Agent {
	m, _ := mergeTraced(a, o, traceOf(a, ""), "")
	return m
}

// origin says which table of the manifest each part of a merged agent
// comes from, as key-path prefixes ("agents[0]", "agents[0].extended").
type origin struct {
	field   map[string]string // top-level key -> table
	caps    map[string]string // capabilities key -> table
	schemes map[string]string // scheme name -> table
	skills  []string          // the key path of each skill
}

// traceOf is the origin of every part of agent a, written at table p.
func traceOf(a *Agent, p string) origin {
	t := origin{field: map[string]string{}, caps: map[string]string{}, schemes: map[string]string{}}
	for f := range tomlFields(reflect.TypeFor[Agent]()) {
		t.field[f] = p
	}
	for _, k := range []string{"streaming", "pushNotifications", "extendedAgentCard", "extensions"} {
		t.caps[k] = p
	}
	for name := range a.SecuritySchemes {
		t.schemes[name] = p
	}
	for i := range a.Skills {
		t.skills = append(t.skills, p+".skills["+strconv.Itoa(i)+"]")
	}
	return t
}

// mergeTraced is Merge that also follows where each part came from: t is
// the origin of a, op the key path of o.
func mergeTraced(a *Agent, o *Extended, t origin, op string) (*Agent, origin) {
	m := *a
	m.Extended = nil
	nt := origin{field: maps.Clone(t.field), caps: maps.Clone(t.caps), schemes: maps.Clone(t.schemes), skills: slices.Clone(t.skills)}
	str := func(dst *string, v, key string) {
		if v != "" {
			*dst = v
			nt.field[key] = op
		}
	}
	str(&m.Name, o.Name, "name")
	str(&m.Description, o.Description, "description")
	str(&m.Version, o.Version, "version")
	str(&m.DocumentationURL, o.DocumentationURL, "documentationUrl")
	str(&m.IconURL, o.IconURL, "iconUrl")
	if o.Provider != nil {
		m.Provider = o.Provider
		nt.field["provider"] = op
	}
	if o.SupportedInterfaces != nil {
		m.SupportedInterfaces = o.SupportedInterfaces
		nt.field["supportedInterfaces"] = op
	}
	if o.DefaultInputModes != nil {
		m.DefaultInputModes = o.DefaultInputModes
		nt.field["defaultInputModes"] = op
	}
	if o.DefaultOutputModes != nil {
		m.DefaultOutputModes = o.DefaultOutputModes
		nt.field["defaultOutputModes"] = op
	}
	if o.SecurityRequirements != nil {
		m.SecurityRequirements = o.SecurityRequirements
		nt.field["securityRequirements"] = op
	}
	if c := o.Capabilities; c != nil {
		nt.field["capabilities"] = op
		if c.Streaming != nil {
			m.Capabilities.Streaming = *c.Streaming
			nt.caps["streaming"] = op
		}
		if c.PushNotifications != nil {
			m.Capabilities.PushNotifications = *c.PushNotifications
			nt.caps["pushNotifications"] = op
		}
		if c.Extensions != nil {
			m.Capabilities.Extensions = c.Extensions
			nt.caps["extensions"] = op
		}
	}
	if o.SecuritySchemes != nil {
		schemes := maps.Clone(a.SecuritySchemes)
		if schemes == nil {
			schemes = map[string]SecurityScheme{}
		}
		for name, s := range o.SecuritySchemes {
			schemes[name] = s
			nt.schemes[name] = op
		}
		m.SecuritySchemes = schemes
	}
	if o.Skills != nil {
		m.Skills = o.Skills
		nt.skills = nt.skills[:0]
		for i := range o.Skills {
			nt.skills = append(nt.skills, op+".skills["+strconv.Itoa(i)+"]")
		}
	}
	if o.AddSkills != nil {
		m.Skills = append(slices.Clip(m.Skills), o.AddSkills...)
		for i := range o.AddSkills {
			nt.skills = append(nt.skills, op+".addSkills["+strconv.Itoa(i)+"]")
		}
	}
	return &m, nt
}

// validateExtended checks agent a's overlay and every card it gives: the
// overlay's own rules, and each merged card against every rule a public
// card meets, reported at the key that holds the fault. It runs on a
// public agent that is valid itself.
func (c *checker) validateExtended(p string, m *Manifest, a *Agent) {
	o := a.Extended
	if o == nil {
		return
	}
	op := p + ".extended"
	// The method that serves the card needs authentication: a card that
	// anyone may call for is a second public card.
	if len(a.SecuritySchemes) == 0 || len(a.SecurityRequirements) == 0 {
		c.errorf(op, "an extended card is served only to authenticated callers (GetExtendedAgentCard), so the public card must say how to authenticate: declare [%s.securitySchemes] and securityRequirements on the agent", tableOf(p))
	}
	c.checkOverlay(op, o, false)
	ext, et := mergeTraced(a, o, traceOf(a, p), op)
	c.validateMerged(op, m, ext, et)
	for _, name := range slices.Sorted(maps.Keys(o.Tiers)) {
		tp := join(op+".tiers", name)
		if !slugRE.MatchString(name) {
			c.errorf(tp, "tier name %q: use 1-64 lower-case letters, digits and inner hyphens (it names the card's file, extended-agent-card.<tier>.json)", name)
		}
		t := o.Tiers[name]
		c.checkOverlay(tp, t, true)
		tier, tt := mergeTraced(ext, t, et, tp)
		c.validateMerged(tp, m, tier, tt)
	}
}

// checkOverlay reports the keys an overlay may not hold.
func (c *checker) checkOverlay(op string, o *Extended, tier bool) {
	if o.ID != "" {
		c.errorf(op+".id", "an extended card describes the same agent, so its id cannot change: remove this key")
	}
	ext := tableOf(op[:strings.Index(op, ".extended")+len(".extended")])
	if o.Capabilities != nil && o.Capabilities.ExtendedAgentCard != nil {
		c.errorf(op+".capabilities.extendedAgentCard", "the build sets this on the agent's cards when it has an [%s] table: remove this key", ext)
	}
	if tier && o.Tiers != nil {
		c.errorf(op+".tiers", "tiers do not nest: declare every tier under [%s.tiers.<name>]", ext)
	}
}

// mergedPrefix stands for a merged agent in the key paths of its
// diagnostics until they are placed (origin.place).
const mergedPrefix = "merged"

// validateMerged checks a merged card against every rule a public card
// meets, reporting each problem at the key of the overlay it comes from;
// a problem of what the card keeps of the public agent (a requirement
// whose scheme the overlay redefined, say) is reported at the overlay op
// that made the card, naming the public key.
func (c *checker) validateMerged(op string, m *Manifest, a *Agent, t origin) {
	tmp := &checker{file: c.file}
	tmp.validateAgent(mergedPrefix, m, a)
	for _, d := range tmp.errs {
		path, overlay := t.place(d.Path)
		// Messages name other keys too ("also merged.skills[0].id").
		msg := mergedPathRE.ReplaceAllStringFunc(d.Msg, func(p string) string {
			to, _ := t.place(p)
			return to
		})
		if !overlay {
			msg, path = "the card this table makes breaks "+path+": "+msg, op
		}
		c.errorf(path, "%s", msg)
	}
}

// mergedPathRE matches a key path under mergedPrefix in a message.
var mergedPathRE = regexp.MustCompile(mergedPrefix + `(?:\.(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)|\[[0-9]+\])*`)

// place maps a key path under mergedPrefix to the manifest key it comes
// from, and says whether that key is in an overlay.
func (t origin) place(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, mergedPrefix)
	if !ok {
		return path, false
	}
	rest = strings.TrimPrefix(rest, ".")
	end := strings.IndexAny(rest, ".[")
	if end < 0 {
		end = len(rest)
	}
	field, after := rest[:end], rest[end:]
	var out string
	switch field {
	case "skills":
		close := strings.IndexByte(after, ']')
		i, err := strconv.Atoi(strings.TrimPrefix(after[:max(close, 0)], "["))
		if close < 0 || err != nil || i >= len(t.skills) {
			out = t.field[field] + "." + rest
			break
		}
		out = t.skills[i] + after[close+1:]
	case "securitySchemes", "capabilities":
		key := nextKey(after)
		from, known := t.schemes[key], false
		if field == "capabilities" {
			from, known = t.caps[key]
		} else {
			_, known = t.schemes[key]
		}
		if !known {
			from = t.field[field]
		}
		out = from + "." + rest
	default:
		out = t.field[field] + "." + rest
	}
	out = strings.TrimPrefix(out, ".")
	return out, strings.Contains(out, ".extended")
}

// nextKey is the first key of a key path suffix such as `.name.type` or
// `."a b".type`.
func nextKey(after string) string {
	after = strings.TrimPrefix(after, ".")
	if strings.HasPrefix(after, `"`) {
		if q, err := strconv.QuotedPrefix(after); err == nil {
			if k, err := strconv.Unquote(q); err == nil {
				return k
			}
		}
	}
	if i := strings.IndexAny(after, ".["); i >= 0 {
		return after[:i]
	}
	return after
}
