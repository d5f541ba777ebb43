package importer

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcards/agentcards/internal/manifest"
)

// The shapes of card an import reads: v1.0, v0.3 and v0.2, and the
// registry-era shapes normalizeLegacy rewrites into v0.3's.

// normalizeLegacy rewrites registry-era shapes into the v0.3 shape:
// JSON-LD annotations, an "interface" object, "authentication", security
// schemes as an array.
func (im *importer) normalizeLegacy() {
	c := im.card
	for _, k := range []string{"@context", "@type"} {
		if _, ok := take(c, k); ok {
			im.warnf("%s: dropped: JSON-LD annotations have no place in an A2A card", k)
			im.legacy = true
		}
	}
	if v, ok := take(c, "id"); ok {
		im.legacy = true
		if s := str(v); s != "" {
			c["@id"] = s
			im.warnf("id %q: dropped from the card; it suggests the agent id", s)
		}
	}
	if v, ok := take(c, "interface"); ok {
		im.legacy = true
		if obj, ok := v.(map[string]any); ok {
			if t, ok := take(obj, "transport"); ok {
				obj["preferredTransport"] = t
			}
			for _, k := range []string{"url", "preferredTransport", "protocolVersion", "additionalInterfaces", "defaultInputModes", "defaultOutputModes"} {
				if val, ok := take(obj, k); ok {
					if _, exists := c[k]; !exists {
						c[k] = val
					}
				}
			}
			im.leftovers("interface", obj)
		}
	}
	if arr, ok := c["securitySchemes"].([]any); ok {
		im.legacy, im.schemeArray = true, true
		m := map[string]any{}
		for i, e := range arr {
			obj, ok := e.(map[string]any)
			if !ok {
				im.warnf("securitySchemes[%d]: dropped: not an object", i)
				continue
			}
			name := ""
			for _, k := range []string{"id", "key", "schemeName"} {
				if s, ok := take(obj, k); ok && str(s) != "" {
					name = str(s)
					break
				}
			}
			if name == "" {
				name = str(obj["type"])
			}
			if name == "" {
				name = "scheme" + strconv.Itoa(i+1)
			}
			for base, n := name, 2; m[name] != nil; n++ {
				name = base + strconv.Itoa(n)
			}
			m[name] = obj
		}
		c["securitySchemes"] = m
	}
	if v, ok := take(c, "authentication"); ok {
		im.legacy = true
		im.authentication(v)
	}
}

// authentication converts the pre-0.2 {"schemes": [...], "credentials": ...}.
func (im *importer) authentication(v any) {
	obj, ok := v.(map[string]any)
	if !ok {
		im.warnf("authentication: dropped: not an object")
		return
	}
	if _, ok := take(obj, "credentials"); ok {
		im.warnf("authentication.credentials: dropped: it holds a secret, and cards are public; keep it out of agents.toml")
	}
	schemes, _ := take(obj, "schemes")
	im.leftovers("authentication", obj)
	ss, _ := im.card["securitySchemes"].(map[string]any)
	if ss == nil {
		ss = map[string]any{}
	}
	var reqs []any
	for _, s := range strings_(schemes) {
		switch strings.ToLower(s) {
		case "bearer", "basic", "digest":
			name := strings.ToLower(s)
			ss[name] = map[string]any{"type": "http", "scheme": strings.ToUpper(s[:1]) + strings.ToLower(s[1:])}
			reqs = append(reqs, map[string]any{name: []any{}})
		default:
			im.warnf("authentication.schemes: %q dropped: the old authentication object does not say where its credentials go (declare it in securitySchemes by hand)", s)
		}
	}
	if len(ss) > 0 {
		im.card["securitySchemes"] = ss
	}
	if len(reqs) > 0 {
		if existing, ok := im.card["security"].([]any); ok {
			reqs = append(existing, reqs...)
		}
		im.card["security"] = reqs
	}
}

// v1 reads an A2A v1.0 card.
func (im *importer) v1() {
	c, a := im.card, &im.res.Agent
	im.common()
	ifaces, _ := take(c, "supportedInterfaces")
	for i, e := range asObjects(ifaces) {
		p := fmt.Sprintf("supportedInterfaces[%d]", i)
		in := manifest.Interface{
			URL:             str(pop(e, "url")),
			ProtocolBinding: str(pop(e, "protocolBinding")),
			ProtocolVersion: str(pop(e, "protocolVersion")),
			Tenant:          str(pop(e, "tenant")),
		}
		im.leftovers(p, e)
		a.SupportedInterfaces = append(a.SupportedInterfaces, in)
	}
	if v, ok := take(c, "capabilities"); ok {
		caps, _ := v.(map[string]any)
		a.Capabilities.Streaming = im.boolean("capabilities.streaming", pop(caps, "streaming"))
		a.Capabilities.PushNotifications = im.boolean("capabilities.pushNotifications", pop(caps, "pushNotifications"))
		a.Capabilities.ExtendedAgentCard = im.extendedCard("capabilities", caps)
		a.Capabilities.Extensions = im.extensions(pop(caps, "extensions"))
		im.leftovers("capabilities", caps)
	}
	dropped := map[string]bool{}
	if v, ok := take(c, "securitySchemes"); ok {
		schemes, _ := v.(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(schemes)) {
			obj, _ := schemes[name].(map[string]any)
			s, ok := im.schemeV1("securitySchemes."+name, obj)
			if !ok {
				dropped[name] = true
				continue
			}
			if a.SecuritySchemes == nil {
				a.SecuritySchemes = map[string]manifest.SecurityScheme{}
			}
			a.SecuritySchemes[name] = s
		}
	}
	reqs := pop(c, "securityRequirements")
	a.SecurityRequirements = im.requirementsV1("securityRequirements", reqs, dropped)
	im.warnOpened("securityRequirements", reqs, a.SecurityRequirements)
	skills, _ := take(c, "skills")
	for i, e := range asObjects(skills) {
		p := fmt.Sprintf("skills[%d]", i)
		s := im.skill(p, e)
		s.SecurityRequirements = im.requirementsV1(p+".securityRequirements", pop(e, "securityRequirements"), dropped)
		im.leftovers(p, e)
		a.Skills = append(a.Skills, s)
	}
	im.leftovers("", c)
}

// common reads the fields v1.0 and v0.3 share.
func (im *importer) common() {
	c, a := im.card, &im.res.Agent
	a.Name = im.text("name", pop(c, "name"))
	a.Description = im.text("description", pop(c, "description"))
	a.Version = im.text("version", pop(c, "version"))
	a.DocumentationURL = im.text("documentationUrl", pop(c, "documentationUrl"))
	a.IconURL = im.text("iconUrl", pop(c, "iconUrl"))
	if v, ok := take(c, "provider"); ok {
		if _, isObj := v.(map[string]any); !isObj {
			im.warnf("provider: dropped: not an object")
		}
		if obj, ok := v.(map[string]any); ok {
			p := &manifest.Provider{Organization: str(pop(obj, "organization")), URL: str(pop(obj, "url"))}
			im.leftovers("provider", obj)
			if p.Organization != "" && p.URL != "" {
				a.Provider = p
			} else {
				im.warnf("provider: dropped: A2A needs both organization and url")
			}
		}
	}
	a.DefaultInputModes = im.modes("defaultInputModes", pop(c, "defaultInputModes"))
	a.DefaultOutputModes = im.modes("defaultOutputModes", pop(c, "defaultOutputModes"))
	if _, ok := take(c, "signatures"); ok {
		im.warnf("signatures: dropped: agentcards signs the card anew with your keys")
	}
	delete(c, "@id")
}

func (im *importer) skill(p string, e map[string]any) manifest.Skill {
	return manifest.Skill{
		ID:          str(pop(e, "id")),
		Name:        str(pop(e, "name")),
		Description: str(pop(e, "description")),
		Tags:        im.stringList(p+".tags", pop(e, "tags")),
		Examples:    im.stringList(p+".examples", pop(e, "examples")),
		InputModes:  im.modes(p+".inputModes", pop(e, "inputModes")),
		OutputModes: im.modes(p+".outputModes", pop(e, "outputModes")),
	}
}

var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+(\.[0-9]+)?$`)

// v03 reads a v0.3.x or v0.2.x card (after normalizeLegacy).
func (im *importer) v03() {
	c, a := im.card, &im.res.Agent
	im.common()
	pv := str(pop(c, "protocolVersion"))
	if !versionRE.MatchString(pv) {
		if pv == "" {
			im.warnf("protocolVersion: missing; the endpoints are taken to speak A2A \"0.3.0\"")
		} else {
			im.warnf("protocolVersion %q: not a version; \"0.3.0\" used", pv)
		}
		pv = "0.3.0"
	}
	main := str(pop(c, "url"))
	transport := str(pop(c, "preferredTransport"))
	if transport == "" {
		transport = "JSONRPC"
	}
	transport = bindingName(transport)
	if main != "" {
		a.SupportedInterfaces = append(a.SupportedInterfaces, manifest.Interface{URL: main, ProtocolBinding: transport, ProtocolVersion: pv})
	}
	for i, e := range asObjects(pop(c, "additionalInterfaces")) {
		in := manifest.Interface{URL: str(pop(e, "url")), ProtocolBinding: bindingName(str(pop(e, "transport"))), ProtocolVersion: pv}
		im.leftovers(fmt.Sprintf("additionalInterfaces[%d]", i), e)
		if in.URL == main && in.ProtocolBinding == transport {
			continue
		}
		a.SupportedInterfaces = append(a.SupportedInterfaces, in)
	}
	if v, ok := take(c, "capabilities"); ok {
		caps, _ := v.(map[string]any)
		a.Capabilities.Streaming = im.boolean("capabilities.streaming", pop(caps, "streaming"))
		a.Capabilities.PushNotifications = im.boolean("capabilities.pushNotifications", pop(caps, "pushNotifications"))
		if v, ok := take(caps, "stateTransitionHistory"); ok && im.boolean("capabilities.stateTransitionHistory", v) {
			im.warnf("capabilities.stateTransitionHistory: dropped: A2A v1.0 has no such capability")
		}
		a.Capabilities.Extensions = im.extensions(pop(caps, "extensions"))
		a.Capabilities.ExtendedAgentCard = im.extendedCard("capabilities", caps)
		im.leftovers("capabilities", caps)
	}
	if im.boolean("supportsAuthenticatedExtendedCard", pop(c, "supportsAuthenticatedExtendedCard")) {
		a.Capabilities.ExtendedAgentCard = true
	}
	dropped := map[string]bool{}
	if v, ok := take(c, "securitySchemes"); ok {
		schemes, _ := v.(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(schemes)) {
			obj, _ := schemes[name].(map[string]any)
			s, ok := im.schemeV03("securitySchemes."+name, obj)
			if !ok {
				dropped[name] = true
				continue
			}
			if a.SecuritySchemes == nil {
				a.SecuritySchemes = map[string]manifest.SecurityScheme{}
			}
			a.SecuritySchemes[name] = s
		}
	}
	security, given := take(c, "security")
	a.SecurityRequirements = im.requirementsV03("security", security, dropped)
	im.warnOpened("security", security, a.SecurityRequirements)
	if !given && im.schemeArray && len(a.SecuritySchemes) > 0 {
		a.SecurityRequirements = alternatives(a.SecuritySchemes)
		im.warnf("security: the card lists no requirements, so each of its %d scheme(s) became a requirement of its own (alternatives, OAuth ones with all their scopes); check that this is what the agent asks for", len(a.SecuritySchemes))
	}
	for i, e := range asObjects(pop(c, "skills")) {
		p := fmt.Sprintf("skills[%d]", i)
		s := im.skill(p, e)
		s.SecurityRequirements = im.requirementsV03(p+".security", pop(e, "security"), dropped)
		im.leftovers(p, e)
		a.Skills = append(a.Skills, s)
	}
	im.leftovers("", c)
}

// extendedCard reads the extended card capability from caps: v1.0's
// extendedAgentCard, or the same capability under its v0.3 name.
func (im *importer) extendedCard(p string, caps map[string]any) bool {
	on := im.boolean(p+".extendedAgentCard", pop(caps, "extendedAgentCard"))
	if v, ok := take(caps, "supportsAuthenticatedExtendedCard"); ok && im.boolean(p+".supportsAuthenticatedExtendedCard", v) {
		on = true
	}
	return on
}

// bindingName maps transport spellings to the A2A binding names.
func bindingName(t string) string {
	switch strings.ToUpper(strings.ReplaceAll(t, "-", "")) {
	case "JSONRPC", "JSONRPC2.0", "":
		return "JSONRPC"
	case "GRPC":
		return "GRPC"
	case "HTTP+JSON", "HTTPJSON", "REST", "HTTP":
		return "HTTP+JSON"
	}
	return t
}

// fillRequired fills what the manifest requires and an old card may lack,
// saying so.
func (im *importer) fillRequired() {
	a := &im.res.Agent
	if a.Name == "" {
		a.Name = a.ID
		im.warnf("name: missing; %q used", a.Name)
	}
	if a.Description == "" {
		a.Description = a.Name
		im.warnf("description: missing; the name is used; write a real one")
	}
	if a.Version == "" {
		a.Version = "1.0.0"
		im.warnf("version: missing; \"1.0.0\" used")
	}
	for i := range a.Skills {
		s := &a.Skills[i]
		if s.ID == "" {
			s.ID = slug(s.Name)
			if s.ID == "" {
				s.ID = fmt.Sprintf("skill-%d", i+1)
			}
			im.warnf("skills[%d].id: missing; %q used", i, s.ID)
		}
		if s.Name == "" {
			s.Name = s.ID
			im.warnf("skills[%d].name: missing; %q used", i, s.Name)
		}
		if s.Description == "" {
			s.Description = s.Name
			im.warnf("skills[%d].description: missing; the name is used", i)
		}
		if len(s.Tags) == 0 {
			s.Tags = []string{s.ID}
			im.warnf("skills[%d].tags: missing; tag %q used", i, s.ID)
		}
	}
}
