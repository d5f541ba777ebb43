package manifest

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// This file writes the fixes that type errors, empty values and keys in
// the wrong table carry, from the manifest's types: what a key holds and
// a line that would be right ("tags must be a list of strings, like
// tags = ["travel"]").

// exampleValues are sample values of keys whose value has a form of its
// own; other keys get a generic one by their type.
var exampleValues = map[string]string{
	"id":                 "travel-planner",
	"version":            "1.0.0",
	"protocolVersion":    "1.0",
	"protocolBinding":    "JSONRPC",
	"baseUrl":            "https://agents.example.com",
	"publisher":          "example.com",
	"tags":               "travel",
	"examples":           "Plan a weekend in Lisbon",
	"defaultInputModes":  "text/plain",
	"defaultOutputModes": "text/plain",
	"inputModes":         "text/plain",
	"outputModes":        "text/plain",
	"mimeType":           "image/png",
	"updatedAt":          "2026-11-20T09:30:00Z",
	"type":               TypeAPIKey,
	"location":           "header",
	"scheme":             "Bearer",
	"bearerFormat":       "JWT",
}

// exampleText is a sample string value for key.
func exampleText(key string) string {
	if v, ok := exampleValues[key]; ok {
		return v
	}
	lower := strings.ToLower(key)
	if strings.HasSuffix(lower, "url") || strings.HasSuffix(lower, "uri") {
		return "https://example.com/"
	}
	return "..."
}

// lastKey is the key a path ends with, without element indexes:
// agents[0].skills[1].tags[2] -> tags.
func lastKey(path string) string {
	for strings.HasSuffix(path, "]") {
		i := strings.LastIndexByte(path, '[')
		if i <= 0 {
			break
		}
		path = path[:i]
	}
	parent := parentPath(path)
	if parent == "" {
		return path
	}
	return path[len(parent)+1:]
}

// unquoted is key as a name: a quoted key without its quotes.
func unquoted(key string) string {
	if u, err := strconv.Unquote(key); err == nil {
		return u
	}
	return key
}

// headerOf is how the TOML source opens the table at path:
// [[agents.skills]] for an element of an array of tables, [site] for a
// table.
func headerOf(path string) string {
	if path == "" {
		return "the top level"
	}
	if strings.HasSuffix(path, "]") {
		return "[[" + tableOf(path) + "]]"
	}
	return "[" + tableOf(path) + "]"
}

// shape says what a value of type t is ("a list of strings") and shows
// one under key at path ("tags = [\"travel\"]").
func shape(path string, t reflect.Type) (what, like string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	key := lastKey(path)
	switch t.Kind() {
	case reflect.String:
		return "a string", fmt.Sprintf("%s = %q", key, exampleText(unquoted(key)))
	case reflect.Bool:
		return "true or false", key + " = true"
	case reflect.Slice:
		el := t.Elem()
		switch {
		case t == reflect.TypeFor[[]string]():
			return "a list of strings", fmt.Sprintf("%s = [%q]", key, exampleText(unquoted(key)))
		case el.Kind() == reflect.Struct:
			like := "[[" + tableOf(path) + "]]"
			if keys := required[el]; len(keys) > 0 {
				like += " with " + andList(keys)
			}
			return "a list of tables", like
		case el == requirementType:
			return "a list of tables", key + ` = [{ scheme = ["scope"] }]`
		}
	case reflect.Map:
		if t == requirementType {
			return "a table", "{ scheme = [\"scope\"] }"
		}
	}
	return "a table", "[" + tableOf(path) + "]"
}

// andList joins words as "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// typeHint is the fix for a value at path of the wrong type for t; an
// element of a list (tags[1]) is told what the whole list must be.
func typeHint(path string, t reflect.Type) string {
	if strings.HasSuffix(path, "]") {
		path, t = path[:strings.LastIndexByte(path, '[')], reflect.SliceOf(t)
	}
	what, like := shape(path, t)
	return fmt.Sprintf("%s must be %s, like %s", lastKey(path), what, like)
}

// wrongType reports src, a value of the wrong type for t, at path.
func (c *checker) wrongType(path string, src any, t reflect.Type) {
	c.errorf(path, "got %s; %s", describe(src), typeHint(path, t))
}

// emptyHint is the fix for an empty value at path of type t: what to give
// instead, and, where the key is optional, that it may go.
func emptyHint(path string, t reflect.Type, optional bool) string {
	if strings.HasSuffix(path, "]") {
		return "must not be empty: give a value, or remove it from the list"
	}
	_, like := shape(path, t)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	what := "a value"
	if t.Kind() == reflect.Slice {
		what = "at least one value"
	} else if t.Kind() == reflect.Map {
		what = "at least one entry"
	}
	if optional {
		return fmt.Sprintf("must not be empty: give %s, like %s, or leave the key out", what, like)
	}
	return fmt.Sprintf("must not be empty: give %s, like %s", what, like)
}

// emptyField reports v, the value of the field at path of struct type st,
// when it is empty (a string, list or table with nothing in it); it says
// whether it did.
func (c *checker) emptyField(path string, v any, st reflect.Type, key string, ft reflect.Type) bool {
	empty := false
	switch x := v.(type) {
	case string:
		empty = x == "" && ft.Kind() == reflect.String
	case []any:
		empty = len(x) == 0 && ft.Kind() == reflect.Slice
	case map[string]any:
		empty = len(x) == 0 && ft.Kind() == reflect.Map
	}
	if empty {
		c.errorf(path, "%s", emptyHint(path, ft, !slices.Contains(required[st], key)))
	}
	return empty
}

// elsewhere says in which tables below the table at path (of struct type
// t) a key k that is not t's own belongs: "tags is a key of
// [[agents.skills]], not of [[agents]]: move it there, like tags =
// [\"travel\"]"; "" when k belongs in none of them. home is the key's
// path in the one table it belongs in, when that is a single table of
// tbl (the table at path) that lacks the key.
func elsewhere(path string, t reflect.Type, tbl map[string]any, k string) (msg, home string) {
	var homes []string
	var like string
	for _, idx := range tomlFields(t) {
		f := t.Field(idx)
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Struct {
			continue
		}
		j, ok := tomlFields(ft)[k]
		if !ok {
			continue
		}
		child := join(path, f.Tag.Get("toml"))
		if f.Type.Kind() == reflect.Slice {
			child += "[0]"
		} else if sub, _ := tbl[f.Tag.Get("toml")].(map[string]any); sub[k] == nil {
			home = join(child, k)
		}
		homes = append(homes, headerOf(child))
		_, like = shape(join(child, k), ft.Field(j).Type)
	}
	switch len(homes) {
	case 0:
		return "", ""
	case 1:
		return fmt.Sprintf("%s is a key of %s, not of %s: move it there, like %s", k, homes[0], headerOf(path), like), home
	}
	slices.Sort(homes)
	return fmt.Sprintf("%s is a key of %s, not of %s: move it to the one it belongs to", k, strings.Join(homes, " and "), headerOf(path)), ""
}
