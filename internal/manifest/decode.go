package manifest

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/agentcards/agentcards/internal/secret"
)

// maxSafeInteger is 2^53, the largest magnitude a JSON number keeps exactly
// through RFC 8785 canonicalization (which works in IEEE 754 doubles).
const maxSafeInteger = 1 << 53

// checker decodes the generic TOML tree into the typed manifest and collects
// diagnostics with key paths.
type checker struct {
	file string
	src  []byte
	pos  map[string]position // indexed on the first diagnostic
	// firstAgent is the index of the first [[agents]] table in src (a
	// part of the manifest holds one agent).
	firstAgent int
	// fileLine maps a line of src to the manifest's own line; nil when src
	// is the whole manifest.
	fileLine func(int) int
	errs     Errors
	seen     map[string]bool // key paths that have a diagnostic already
	// names are the ids that name list elements in diagnostics, by the
	// element's key path (agents[2] -> "b"); see named.
	names map[string]string
	lists []list // lists whose elements names will name; see nameElements
}

// line is the manifest's line for line l of c.src.
func (c *checker) line(l int) int {
	if c.fileLine == nil || l <= 0 {
		return l
	}
	return c.fileLine(l)
}

func (c *checker) errorf(path, format string, args ...any) {
	c.report(path, false, fmt.Sprintf(format, args...))
}

// unknownf reports an unknown key: where the key is, but sorted at the
// start of its table, before the table's other problems.
func (c *checker) unknownf(path, format string, args ...any) {
	c.report(path, true, fmt.Sprintf(format, args...))
}

// report adds a diagnostic about path unless path has one already;
// first sorts it at the start of the table holding path.
func (c *checker) report(path string, first bool, msg string) {
	if c.seen[path] {
		return
	}
	c.markSeen(path)
	d := Diagnostic{File: c.file, Path: c.named(path), Msg: c.namedMsg(msg)}
	if pos, ok := c.position(path); ok {
		d.Line, d.Col = c.line(pos.line), pos.col(c.src)
	}
	if first {
		if parent := parentPath(path); parent == "" {
			// An unknown key of the root table ([sites] for [site]) is
			// the cause of the problems of the table it misspells,
			// which may have no place to point at: it goes first.
			d.sortFirst = true
		} else if pos, ok := c.position(parent); ok {
			d.sortLine, d.sortCol = c.line(pos.line), pos.col(c.src)
		}
	}
	c.errs = append(c.errs, d)
}

// markSeen keeps later problems of path from being reported.
func (c *checker) markSeen(path string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[path] = true
}

// position is where the source shows path, or else the nearest key
// enclosing it.
func (c *checker) position(path string) (position, bool) {
	if c.pos == nil {
		// Positions cost as much as decoding: find them only when a
		// diagnostic needs one.
		c.pos = indexPositions(c.src, c.firstAgent)
	}
	for p := path; ; {
		if pos, ok := c.pos[p]; ok {
			return pos, true
		}
		parent := parentPath(p)
		if parent == p {
			return position{}, false
		}
		p = parent
	}
}

// parentPath strips the last element of a key path ("a.b[2]" -> "a.b",
// "a.b" -> "a"), returning path itself at the top.
func parentPath(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndexByte(p, '['); i > 0 {
			return p[:i]
		}
	}
	// Skip a quoted last key.
	inQuote := false
	for i := len(p) - 1; i >= 0; i-- {
		switch p[i] {
		case '"':
			if i == 0 || p[i-1] != '\\' {
				inQuote = !inQuote
			}
		case '.':
			if !inQuote {
				return p[:i]
			}
		}
	}
	if p == "" {
		return p
	}
	return ""
}

var (
	requirementType = reflect.TypeFor[Requirement]()
	tiersType       = reflect.TypeFor[map[string]*Extended]()
	skillIDMapType  = reflect.TypeFor[SkillIDMap]()
)

// protoKey explains why "__proto__" cannot be a key: the A2A JS SDK builds
// objects by assignment, where it sets the prototype instead, so the key
// vanishes from what the SDK verifies.
const protoKey = `"__proto__" cannot be a key: the A2A JS SDK would drop it before checking the signature; rename it`

// decode fills dst from a value of the generic TOML tree; depth is how
// deeply src is nested in the document.
func (c *checker) decode(path string, depth int, src any, dst reflect.Value) {
	if dst.Kind() == reflect.Pointer {
		v := reflect.New(dst.Type().Elem())
		c.decode(path, depth, src, v.Elem())
		dst.Set(v)
		return
	}
	switch dst.Kind() {
	case reflect.Struct:
		c.decodeStruct(path, depth, src, dst)
	case reflect.String:
		c.decodeString(path, src, dst)
	case reflect.Bool:
		b, ok := src.(bool)
		if !ok {
			c.wrongType(path, src, dst.Type())
			return
		}
		dst.SetBool(b)
	case reflect.Slice:
		c.decodeSlice(path, depth, src, dst)
	case reflect.Map:
		c.decodeMap(path, depth, src, dst)
	default:
		panic("manifest: unsupported field type " + dst.Type().String())
	}
}

// decodeStruct fills the struct dst from a TOML table, reporting keys
// that name none of its fields.
func (c *checker) decodeStruct(path string, depth int, src any, dst reflect.Value) {
	tbl, ok := src.(map[string]any)
	if !ok {
		c.wrongType(path, src, dst.Type())
		return
	}
	fields := tomlFields(dst.Type())
	var buf [24]string
	for _, k := range sortedKeys(tbl, buf[:0]) {
		kp := join(path, k)
		idx, ok := fields[k]
		if !ok {
			// A field the manifest defines (clientCredentials, a
			// flow) is a name of the schema; anything else may hide a
			// secret.
			if why := secretKey(k, tbl[k]); why != "" {
				c.errorf(kp, "%s", why)
				continue
			}
			hint, meant := suggest(k, fields)
			if normalizeKey(meant) != normalizeKey(k) {
				if there, home := elsewhere(path, dst.Type(), tbl, k); there != "" {
					c.unknownf(kp, "%s", there)
					if home != "" {
						// Moving it is the fix for its absence there.
						c.markSeen(home)
					}
					continue
				}
			}
			c.unknownf(kp, "unknown key%s", hint)
			if _, given := tbl[meant]; meant != "" && !given {
				// The did-you-mean says what to do about the key
				// missing here: no "required" for it too.
				c.markSeen(join(path, meant))
			}
			continue
		}
		if c.emptyField(kp, tbl[k], dst.Type(), k, dst.Field(idx).Type()) {
			continue
		}
		c.decode(kp, depth+1, tbl[k], dst.Field(idx))
	}
}

// sortedKeys appends the keys of tbl to buf (a caller's array, so that a
// table of a few keys costs no allocation) and sorts them.
func sortedKeys(tbl map[string]any, buf []string) []string {
	for k := range tbl {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

// decodeString fills the string dst from a non-empty TOML string that
// holds no secret.
func (c *checker) decodeString(path string, src any, dst reflect.Value) {
	s, ok := src.(string)
	if _, date := src.(time.Time); date {
		c.errorf(path, "expected a string, got a date/time: quote it, e.g. \"2026-11-20T09:30:00Z\"")
		return
	}
	if !ok {
		c.wrongType(path, src, dst.Type())
		return
	}
	if s == "" {
		c.errorf(path, "%s", emptyHint(path, dst.Type(), true))
		return
	}
	c.checkSecretText(path, s)
	dst.SetString(s)
}

// decodeSlice fills the slice dst from a non-empty TOML array.
func (c *checker) decodeSlice(path string, depth int, src any, dst reflect.Value) {
	items, ok := asList(src)
	if !ok {
		c.wrongType(path, src, dst.Type())
		return
	}
	if len(items) == 0 {
		c.errorf(path, "%s", emptyHint(path, dst.Type(), true))
		return
	}
	c.nameElements(path, dst.Type().Elem(), items, 0)
	out := reflect.MakeSlice(dst.Type(), len(items), len(items))
	for i, it := range items {
		c.decode(path+"["+strconv.Itoa(i)+"]", depth+1, it, out.Index(i))
	}
	dst.Set(out)
}

// decodeMap fills the map dst from a non-empty TOML table, refusing
// private keys, "__proto__" and, in free-form values, secrets.
func (c *checker) decodeMap(path string, depth int, src any, dst reflect.Value) {
	tbl, ok := src.(map[string]any)
	if !ok {
		c.wrongType(path, src, dst.Type())
		return
	}
	if len(tbl) == 0 {
		c.errorf(path, "%s", emptyHint(path, dst.Type(), true))
		return
	}
	if dst.Type().Elem().Kind() == reflect.Interface && secret.IsPrivateJWK(tbl) {
		// Free-form params that are themselves a private JWK.
		c.errorf(path, "looks like a private JSON Web Key; %s", publicWarning)
		return
	}
	if dst.Type() != tiersType && dst.Type() != skillIDMapType {
		// Tier names name files, tool names tools: neither is a
		// member of a card.
		c.caseTwins(path, tbl)
	}
	out := reflect.MakeMapWithSize(dst.Type(), len(tbl))
	var buf [24]string
	for _, k := range sortedKeys(tbl, buf[:0]) {
		if v, ok := c.decodeMapValue(join(path, k), depth, k, tbl[k], dst.Type()); ok {
			out.SetMapIndex(reflect.ValueOf(k), v)
		}
	}
	dst.Set(out)
}

// decodeMapValue decodes the value under key k of a table that fills a
// map of type mt; ok is false when the entry was reported and must be
// left out.
func (c *checker) decodeMapValue(kp string, depth int, k string, src any, mt reflect.Type) (v reflect.Value, ok bool) {
	if k == "__proto__" {
		c.errorf(kp, "%s", protoKey)
		return reflect.Value{}, false
	}
	// Free-form values (params) may hide secrets under any key;
	// scope and scheme names are names, not values.
	if why := secretKey(k, src); why != "" && mt.Elem().Kind() == reflect.Interface {
		c.errorf(kp, "%s", why)
		return reflect.Value{}, false
	}
	v = reflect.New(mt.Elem()).Elem()
	switch {
	case mt.Elem().Kind() == reflect.Interface:
		jv := c.jsonValue(kp, depth+1, src)
		if jv == nil {
			return reflect.Value{}, false // reported
		}
		v.Set(reflect.ValueOf(jv))
	case mt == requirementType:
		// Scope lists may be empty: a scheme without scopes.
		c.decodeScopes(kp, src, v)
	default:
		c.decode(kp, depth+1, src, v)
	}
	return v, true
}

// caseTwins reports keys of tbl, a table whose keys become member names
// in the cards, that differ only in letter case (as strings.EqualFold
// compares them): Go's encoding/json reads such members as one, so
// verifiers refuse a card that holds both (card.Decode).
func (c *checker) caseTwins(path string, tbl map[string]any) {
	if len(tbl) < 2 {
		return
	}
	first := make(map[string]string, len(tbl))
	var buf [24]string
	for _, k := range sortedKeys(tbl, buf[:0]) {
		f := foldKey(k)
		if other, ok := first[f]; ok {
			c.errorf(join(path, k), "%q and %q differ only in letter case: Go's encoding/json reads them as one member when it decodes into a struct (as a client does with an extension's params), so strict verifiers, agentcards verify among them, refuse the card; rename one", other, k)
			continue
		}
		first[f] = k
	}
}

// foldKey maps s to a key that two strings share exactly when
// strings.EqualFold holds for them: each rune becomes the smallest rune of
// its simple case-folding orbit.
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

func (c *checker) decodeScopes(path string, src any, dst reflect.Value) {
	items, ok := asList(src)
	if !ok {
		c.errorf(path, "expected an array of scope names (use [] for none), got %s", describe(src))
		return
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		p := path + "[" + strconv.Itoa(i) + "]"
		switch {
		case !ok:
			c.errorf(p, "expected a scope name, got %s", describe(it))
		case s == "":
			c.errorf(p, "a scope name must not be empty")
		}
		out[i] = s
	}
	dst.Set(reflect.ValueOf(out))
}

// jsonValue converts a free-form TOML value (extension params) to the JSON
// value it will be in the card, reporting what JSON or the normal form
// cannot carry; depth is how deeply v is nested in the document.
func (c *checker) jsonValue(path string, depth int, v any) any {
	if depth > MaxDepth {
		c.errorf(path, "nested more than %d levels deep: refused; flatten the value", MaxDepth)
		return nil
	}
	switch x := v.(type) {
	case string:
		if x == "" {
			c.errorf(path, "must not be empty: A2A SDKs drop empty values before checking signatures; remove the key")
		}
		c.checkSecretText(path, x)
		return x
	case bool:
		return x
	case int64:
		if x > maxSafeInteger || x < -maxSafeInteger {
			c.errorf(path, "integer %d is outside ±2^53 and cannot be carried exactly in JSON; write it as a string", x)
		}
		return x
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			c.errorf(path, "%v cannot be written in JSON; use a finite number or a string", x)
		}
		return x
	case time.Time:
		c.errorf(path, "dates and times have no JSON form; quote the value as a string")
		return nil
	case map[string]any:
		if len(x) == 0 {
			c.errorf(path, "must not be empty: A2A SDKs drop empty values before checking signatures; remove the key")
		}
		if secret.IsPrivateJWK(x) {
			c.errorf(path, "looks like a private JSON Web Key; %s", publicWarning)
		}
		c.caseTwins(path, x)
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			kp := join(path, k)
			if k == "__proto__" {
				c.errorf(kp, "%s", protoKey)
				continue
			}
			if why := secretKey(k, x[k]); why != "" {
				c.errorf(kp, "%s", why)
				continue
			}
			out[k] = c.jsonValue(kp, depth+1, x[k])
		}
		return out
	default:
		items, ok := asList(v)
		if !ok {
			c.errorf(path, "unsupported value %s", describe(v))
			return nil
		}
		if len(items) == 0 {
			c.errorf(path, "must not be empty: A2A SDKs drop empty values before checking signatures; remove the key")
		}
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = c.jsonValue(path+"["+strconv.Itoa(i)+"]", depth+1, it)
		}
		c.checkSecretParts(path, items)
		return out
	}
}

func asList(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case []map[string]any:
		out := make([]any, len(x))
		for i, m := range x {
			out[i] = m
		}
		return out, true
	}
	return nil, false
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case time.Time:
		return "a date/time"
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	default:
		return fmt.Sprintf("%T", x)
	}
}

// tomlFields maps each toml tag of a struct type to its field index.
func tomlFields(t reflect.Type) map[string]int {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]int)
	}
	out := map[string]int{}
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("toml")
		if tag != "" && tag != "-" {
			out[tag] = i
		}
	}
	fieldCache.Store(t, out)
	return out
}

// fieldCache holds tomlFields per struct type; the maps are only read.
var fieldCache sync.Map

// suggest returns " (did you mean X?)" for the known key X closest to k,
// and X; or the list of known keys, and "".
func suggest(k string, known map[string]int) (hint, meant string) {
	best, bestDist := "", 4
	for _, cand := range slices.Sorted(maps.Keys(known)) {
		if normalizeKey(cand) == normalizeKey(k) {
			return fmt.Sprintf(" (did you mean %q?)", cand), cand
		}
		if d := EditDistance(strings.ToLower(k), strings.ToLower(cand)); d < bestDist && d <= len(cand)/2 {
			best, bestDist = cand, d
		}
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best), best
	}
	return fmt.Sprintf("; known keys here: %s", strings.Join(slices.Sorted(maps.Keys(known)), ", ")), ""
}

// EditDistance is the Levenshtein distance between a and b, in runes: how
// far a mistyped name is from a known one.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
