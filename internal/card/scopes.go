package card

import (
	"maps"
	"slices"
)

// WithScopeListsRestored returns doc (a v1.0 card read with Decode) with
// every scheme of a security requirement written {} rewritten as
// {"list": []}, and whether there was any. Both are the proto JSON of a
// requirement without scopes: A2A SDK servers, which send cards through
// their own types, write the first; agentcards signs the second. A
// verifier may check a strict signature over the restored form, since the
// two mean the same; a requirement removed has nothing to restore. doc is
// not changed: the parts rewritten are copied.
func WithScopeListsRestored(doc map[string]any) (map[string]any, bool) {
	return RewriteScopeLists(doc, func(scopes map[string]any) (any, bool) {
		if len(scopes) == 0 {
			return map[string]any{"list": []any{}}, true
		}
		return nil, false
	})
}

// RewriteScopeLists returns doc (a v1.0 card read with Decode) with the
// scope list of every scheme of every security requirement (the card's
// and its skills') that is an object replaced by what rewrite gives for
// it, when rewrite says so; and whether any was. doc is not changed: the
// parts rewritten are copied.
func RewriteScopeLists(doc map[string]any, rewrite func(scopes map[string]any) (any, bool)) (map[string]any, bool) {
	out := doc
	changed := false
	copyDoc := func() {
		if !changed {
			out, changed = maps.Clone(doc), true
		}
	}
	if reqs, ok := rewriteRequirements(doc["securityRequirements"], rewrite); ok {
		copyDoc()
		out["securityRequirements"] = reqs
	}
	if skills, ok := doc["skills"].([]any); ok {
		var newSkills []any
		for i, s := range skills {
			sm, ok := s.(map[string]any)
			if !ok {
				continue
			}
			reqs, ok := rewriteRequirements(sm["securityRequirements"], rewrite)
			if !ok {
				continue
			}
			if newSkills == nil {
				newSkills = slices.Clone(skills)
			}
			ns := maps.Clone(sm)
			ns["securityRequirements"] = reqs
			newSkills[i] = ns
		}
		if newSkills != nil {
			copyDoc()
			out["skills"] = newSkills
		}
	}
	return out, changed
}

// rewriteRequirements rewrites the scope lists of a securityRequirements
// list.
func rewriteRequirements(v any, rewrite func(map[string]any) (any, bool)) ([]any, bool) {
	reqs, ok := v.([]any)
	if !ok {
		return nil, false
	}
	var out []any
	for i, r := range reqs {
		rm, ok := r.(map[string]any)
		if !ok {
			continue
		}
		schemes, ok := rm["schemes"].(map[string]any)
		if !ok {
			continue
		}
		var ns map[string]any
		for name, s := range schemes {
			sm, ok := s.(map[string]any)
			if !ok {
				continue
			}
			if nv, ok := rewrite(sm); ok {
				if ns == nil {
					ns = maps.Clone(schemes)
				}
				ns[name] = nv
			}
		}
		if ns == nil {
			continue
		}
		if out == nil {
			out = slices.Clone(reqs)
		}
		nr := maps.Clone(rm)
		nr["schemes"] = ns
		out[i] = nr
	}
	return out, out != nil
}
