package card

import (
	"maps"
	"slices"
)

// The SDK projection as it was computed before projectClean and the
// pruned diff: the projection built whole (projectV1), then cleaned
// (clean), then compared member by member in sorted order (diffReference).
// The tests hold SDKProjectionValue to it.

func sdkProjectionReference(v any) (projected any, omitted []Omission) {
	p := v
	if obj, ok := v.(map[string]any); ok {
		if _, v1 := obj["supportedInterfaces"]; v1 {
			p = projectV1("AgentCard", obj)
		}
	}
	cleaned, ok := clean(p)
	if !ok {
		cleaned = map[string]any{}
	}
	omitted = diffReference(&path{}, v, cleaned, nil)
	if len(omitted) == 0 {
		return v, nil
	}
	return cleaned, omitted
}

// projectV1 projects a decoded JSON value of message type msg the way the
// SDKs' generated types do, before empty values are cleaned.
func projectV1(msg string, v any) map[string]any {
	obj, _ := v.(map[string]any)
	out := map[string]any{}
	if obj == nil {
		return out
	}
	m := v1Schema[msg]
	for _, f := range m.fields {
		val, ok := obj[f.name]
		if !ok && f.alias != "" {
			val, ok = obj[f.alias]
		}
		if !ok || val == nil {
			continue
		}
		var pv any
		switch f.kind {
		case kString, kOptString:
			s := jsString(val)
			if f.kind == kString && s == "" {
				continue
			}
			pv = s
		case kBool, kOptBool:
			b := jsBool(val)
			if f.kind == kBool && !b {
				continue
			}
			pv = b
		case kStrings:
			arr, ok := val.([]any)
			if !ok {
				continue
			}
			ss := make([]any, len(arr))
			for i, e := range arr {
				ss[i] = jsString(e)
			}
			pv = ss
		case kMessage:
			if _, isObj := val.(map[string]any); !isObj {
				continue
			}
			pv = projectV1(f.msg, val)
		case kMessages:
			arr, ok := val.([]any)
			if !ok {
				continue
			}
			ms := make([]any, len(arr))
			for i, e := range arr {
				ms[i] = projectV1(f.msg, e)
			}
			pv = ms
		case kMessageMap:
			mm, ok := val.(map[string]any)
			if !ok {
				continue
			}
			out2 := map[string]any{}
			for k, e := range mm {
				out2[k] = projectV1(f.msg, e)
			}
			pv = out2
		case kStringMap:
			mm, ok := val.(map[string]any)
			if !ok {
				continue
			}
			out2 := map[string]any{}
			for k, e := range mm {
				out2[k] = jsString(e)
			}
			pv = out2
		case kStruct:
			if _, isObj := val.(map[string]any); !isObj {
				continue
			}
			pv = val
		}
		out[f.name] = pv
		if m.oneof {
			break
		}
	}
	return out
}

// diffReference is diff without the pruning: every member visited, in
// sorted order.
func diffReference(at *path, a, b any, out []Omission) []Omission {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return append(out, Omission{Path: at.String()})
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			at.push(-1, k)
			if bv, present := y[k]; present {
				out = diffReference(at, x[k], bv, out)
			} else {
				out = append(out, Omission{Path: at.String(), Empty: isEmpty(x[k]) && !at.inSecurity()})
			}
			at.pop()
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok {
			return append(out, Omission{Path: at.String()})
		}
		if len(x) != len(y) {
			// Elements were dropped: name each one that is gone.
			j := 0
			for i, e := range x {
				if j < len(y) && same(e, y[j]) {
					j++
					continue
				}
				at.push(i, "")
				out = append(out, Omission{Path: at.String(), Empty: isEmpty(e) && !at.inSecurity()})
				at.pop()
			}
			if j < len(y) {
				// b holds elements a does not: a changed, not shrank.
				out = append(out, Omission{Path: at.String()})
			}
			return out
		}
		for i := range x {
			at.push(i, "")
			out = diffReference(at, x[i], y[i], out)
			at.pop()
		}
		return out
	default:
		if !scalarEqual(a, b) {
			return append(out, Omission{Path: at.String()})
		}
		return out
	}
}
