package remote

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentcards/agentcards/internal/card"
)

// Change is one difference between two snapshots of a remote card, in
// words a reviewer reads.
type Change struct {
	// Op is "+" (added), "-" (removed), "~" (changed), or "!" for a
	// change of who vouches for the card (its keys, where they come
	// from): the remote changed its JWKS, which its owner should confirm.
	Op   string
	Text string
}

// String is the change as a line: its Op, a space, its Text.
func (c Change) String() string { return c.Op + " " + c.Text }

// Ops of a Change.
const (
	OpAdded   = "+"
	OpRemoved = "-"
	OpChanged = "~"
	OpKeys    = "!"
)

// Diff says what changed from old to new: the card's name, description
// and version, its interfaces (binding, protocol version, URL), skills
// (by id), security schemes and requirements, any other member, the kids
// whose signatures verified, where the keys came from, and the keys
// themselves (by kid). It says nothing of what carries no meaning: the
// card's member order and whitespace, signatures made again by the same
// keys, the JWKS's own layout. No change means the old snapshot still says
// all there is.
func Diff(old, new *Snapshot) ([]Change, error) {
	a, err := cardView(old.Card)
	if err != nil {
		return nil, fmt.Errorf("the old snapshot's card: %v", err)
	}
	b, err := cardView(new.Card)
	if err != nil {
		return nil, fmt.Errorf("the new snapshot's card: %v", err)
	}
	var d differ
	for _, m := range []string{"name", "description", "version"} {
		if x, y := text(a.top[m]), text(b.top[m]); x != y {
			d.add(OpChanged, "%s: %s -> %s", m, short(x), short(y))
		}
	}
	d.lists("interface", a.interfaces, b.interfaces)
	d.skills(a, b)
	d.named("security scheme", asObject(a.top["securitySchemes"]), asObject(b.top["securitySchemes"]))
	if x, y := a.top[a.requirements], b.top[b.requirements]; !reflect.DeepEqual(x, y) {
		d.add(OpChanged, "security requirements: %s -> %s", compact(x), compact(y))
	}
	d.named("member", a.rest, b.rest)
	if x, y := old.Verification.KIDs, new.Verification.KIDs; !slices.Equal(x, y) {
		d.add(OpChanged, "signed by: %s -> %s", kids(x), kids(y))
	}
	if x, y := old.Verification.KeySource, new.Verification.KeySource; x != y {
		d.add(OpKeys, "keys: %s -> %s", x, y)
	}
	if old.JWKSURL != new.JWKSURL {
		d.add(OpKeys, "JWKS URL: %q -> %q", old.JWKSURL, new.JWKSURL)
	}
	d.keys(old.JWKS, new.JWKS)
	if len(d.changes) == 0 && !reflect.DeepEqual(withoutSignatures(a.top), withoutSignatures(b.top)) {
		// What the lines above do not read (an interface listed twice,
		// say) still changes the card.
		d.add(OpChanged, "card: changed in a way the lines above do not show")
	}
	return d.changes, nil
}

// withoutSignatures is a card's members but its signatures.
func withoutSignatures(top map[string]any) map[string]any {
	c := maps.Clone(top)
	delete(c, "signatures")
	return c
}

// differ gathers changes.
type differ struct{ changes []Change }

func (d *differ) add(op, format string, args ...any) {
	d.changes = append(d.changes, Change{op, fmt.Sprintf(format, args...)})
}

// lists adds what is in b and not in a, then what is in a and not in b.
func (d *differ) lists(what string, a, b []string) {
	for _, s := range b {
		if !slices.Contains(a, s) {
			d.add(OpAdded, "%s %s", what, s)
		}
	}
	for _, s := range a {
		if !slices.Contains(b, s) {
			d.add(OpRemoved, "%s %s", what, s)
		}
	}
}

// named compares two objects member by member: added, removed, changed,
// in name order.
func (d *differ) named(what string, a, b map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			d.add(OpAdded, "%s %q", what, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if _, ok := b[k]; !ok {
			d.add(OpRemoved, "%s %q", what, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if y, ok := b[k]; ok && !reflect.DeepEqual(a[k], y) {
			d.add(OpChanged, "%s %q", what, k)
		}
	}
}

// skills compares the skills by id: added (in the new card's order),
// removed, and changed with the members that changed.
func (d *differ) skills(a, b *view) {
	for _, id := range b.skillIDs {
		if _, ok := a.skills[id]; !ok {
			d.add(OpAdded, "skill %q (%s)", id, short(text0(b.skills[id]["name"])))
		}
	}
	for _, id := range a.skillIDs {
		if _, ok := b.skills[id]; !ok {
			d.add(OpRemoved, "skill %q (%s)", id, short(text0(a.skills[id]["name"])))
		}
	}
	for _, id := range b.skillIDs {
		x, ok := a.skills[id]
		if !ok {
			continue
		}
		y := b.skills[id]
		var members []string
		for _, k := range slices.Sorted(maps.Keys(union(x, y))) {
			if !reflect.DeepEqual(x[k], y[k]) {
				members = append(members, k)
			}
		}
		if len(members) > 0 {
			d.add(OpChanged, "skill %q (%s): %s", id, short(text0(y["name"])), strings.Join(members, ", "))
		}
	}
}

// keys compares two JWKS texts key by key, by kid: added, removed, and
// replaced (the same kid, other key material).
func (d *differ) keys(a, b string) {
	x, y := jwksKeys(a), jwksKeys(b)
	for _, kid := range slices.Sorted(maps.Keys(y)) {
		if _, ok := x[kid]; !ok {
			d.add(OpKeys, "JWKS: key %q added", kid)
		}
	}
	for _, kid := range slices.Sorted(maps.Keys(x)) {
		if _, ok := y[kid]; !ok {
			d.add(OpKeys, "JWKS: key %q removed", kid)
		}
	}
	for _, kid := range slices.Sorted(maps.Keys(x)) {
		if k, ok := y[kid]; ok && !reflect.DeepEqual(x[kid], k) {
			d.add(OpKeys, "JWKS: key %q replaced (the same kid, other key material)", kid)
		}
	}
}

// jwksKeys are the keys of a JWKS text by kid (a snapshot's JWKS has
// been read strictly; a key without a kid is keyed by its place).
func jwksKeys(s string) map[string]any {
	keys := map[string]any{}
	if s == "" {
		return keys
	}
	doc, err := card.Decode([]byte(s), card.Strict)
	if err != nil {
		return keys
	}
	list, _ := doc["keys"].([]any)
	for i, k := range list {
		kid, _ := asObject(k)["kid"].(string)
		if kid == "" {
			kid = fmt.Sprintf("#%d", i)
		}
		keys[kid] = k
	}
	return keys
}

// view is a card (v1.0 or v0.3) as Diff compares it.
type view struct {
	top map[string]any
	// interfaces are "BINDING VERSION URL" (with " tenant T" when set).
	interfaces []string
	skills     map[string]map[string]any
	skillIDs   []string
	// requirements is the member holding the security requirements:
	// securityRequirements (v1.0) or security (v0.3).
	requirements string
	// rest are the members Diff has no more to say of than "changed".
	rest map[string]any
}

// compared are the members a view reads itself, by the card's shape;
// Diff compares the others as they are.
var compared = map[bool][]string{
	true:  {"name", "description", "version", "skills", "securitySchemes", "signatures", "supportedInterfaces", "securityRequirements"},
	false: {"name", "description", "version", "skills", "securitySchemes", "signatures", "url", "preferredTransport", "additionalInterfaces", "protocolVersion", "security"},
}

func cardView(text string) (*view, error) {
	top, err := card.Decode([]byte(text), card.Strict)
	if err != nil {
		return nil, err
	}
	v := &view{top: top, skills: map[string]map[string]any{}, rest: map[string]any{}, requirements: "securityRequirements"}
	_, v1 := top["supportedInterfaces"]
	if v1 {
		for _, it := range asList(top["supportedInterfaces"]) {
			o := asObject(it)
			v.addInterface(text0(o["protocolBinding"]), text0(o["protocolVersion"]), text0(o["url"]), text0(o["tenant"]))
		}
	} else {
		v.requirements = "security"
		pv := text0(top["protocolVersion"])
		binding := text0(top["preferredTransport"])
		if binding == "" {
			binding = "JSONRPC"
		}
		v.addInterface(binding, pv, text0(top["url"]), "")
		for _, it := range asList(top["additionalInterfaces"]) {
			o := asObject(it)
			v.addInterface(text0(o["transport"]), pv, text0(o["url"]), "")
		}
	}
	for i, s := range asList(top["skills"]) {
		o := asObject(s)
		id := text0(o["id"])
		if id == "" {
			id = fmt.Sprintf("#%d", i)
		}
		if _, dup := v.skills[id]; dup {
			id = fmt.Sprintf("%s#%d", id, i)
		}
		v.skills[id] = o
		v.skillIDs = append(v.skillIDs, id)
	}
	for k, x := range top {
		if !slices.Contains(compared[v1], k) {
			v.rest[k] = x
		}
	}
	return v, nil
}

func (v *view) addInterface(binding, version, url, tenant string) {
	s := fmt.Sprintf("%s %s %s", orDash(binding), orDash(version), url)
	if tenant != "" {
		s += " tenant " + tenant
	}
	if !slices.Contains(v.interfaces, s) {
		v.interfaces = append(v.interfaces, s)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// text0 is v as a string, "" when it is none.
func text0(v any) string {
	s, _ := v.(string)
	return s
}

// text is v as a quoted string, or as compact JSON when it is not a
// string ("absent" when it is missing).
func text(v any) string {
	if v == nil {
		return "absent"
	}
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return compact(v)
}

func compact(v any) string {
	if v == nil {
		return "none"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// short cuts s to 100 characters.
func short(s string) string {
	if utf8.RuneCountInString(s) <= 100 {
		return s
	}
	r := []rune(s)
	return string(r[:99]) + "…"
}

func kids(k []string) string {
	if len(k) == 0 {
		return "no key"
	}
	return strings.Join(k, ", ")
}

func union(a, b map[string]any) map[string]any {
	u := maps.Clone(a)
	if u == nil {
		u = map[string]any{}
	}
	maps.Copy(u, b)
	return u
}
