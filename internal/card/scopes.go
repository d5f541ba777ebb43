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
	out := doc
	changed := false
	copyDoc := func() {
		if !changed {
			out, changed = maps.Clone(doc), true
		}
	}
	if reqs, ok := restoreRequirements(doc["securityRequirements"]); ok {
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
			reqs, ok := restoreRequirements(sm["securityRequirements"])
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

// restoreRequirements rewrites {} schemes of a securityRequirements list.
func restoreRequirements(v any) ([]any, bool) {
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
			if sm, ok := s.(map[string]any); ok && len(sm) == 0 {
				if ns == nil {
					ns = maps.Clone(schemes)
				}
				ns[name] = map[string]any{"list": []any{}}
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
