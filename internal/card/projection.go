package card

import (
	"strconv"
)

// The A2A v1.0 SDKs round-trip a card through their generated types before
// canonicalizing (@a2a-js/sdk AgentCard.fromJSON/toJSON, a2a-python
// ParseDict/MessageToDict): fields outside the schema disappear, snake_case
// aliases become camelCase, proto3 defaults of non-optional fields are not
// written, and of each oneof only the first member set survives. v1Schema
// describes the lf.a2a.v1 messages a card holds, for projectV1.

// fieldKind says how one field is projected.
type fieldKind int

const (
	kString     fieldKind = iota // string; "" is the default
	kOptString                   // optional string (explicit presence)
	kBool                        // bool; false is the default
	kOptBool                     // optional bool (explicit presence)
	kStrings                     // repeated string
	kMessage                     // one message
	kMessages                    // repeated message
	kMessageMap                  // map<string, message>
	kStringMap                   // map<string, string>
	kStruct                      // google.protobuf.Struct: kept as JSON
)

type field struct {
	name  string // camelCase JSON name
	alias string // snake_case proto name, also accepted
	kind  fieldKind
	msg   string // message type for kMessage, kMessages, kMessageMap
}

type message struct {
	fields []field
	oneof  bool // at most one field survives: the first one set
}

var v1Schema = map[string]message{
	"AgentCard": {fields: []field{
		{"name", "", kString, ""},
		{"description", "", kString, ""},
		{"supportedInterfaces", "supported_interfaces", kMessages, "AgentInterface"},
		{"provider", "", kMessage, "AgentProvider"},
		{"version", "", kString, ""},
		{"documentationUrl", "documentation_url", kOptString, ""},
		{"capabilities", "", kMessage, "AgentCapabilities"},
		{"securitySchemes", "security_schemes", kMessageMap, "SecurityScheme"},
		{"securityRequirements", "security_requirements", kMessages, "SecurityRequirement"},
		{"defaultInputModes", "default_input_modes", kStrings, ""},
		{"defaultOutputModes", "default_output_modes", kStrings, ""},
		{"skills", "", kMessages, "AgentSkill"},
		{"iconUrl", "icon_url", kOptString, ""},
	}},
	"AgentInterface": {fields: []field{
		{"url", "", kString, ""},
		{"protocolBinding", "protocol_binding", kString, ""},
		{"tenant", "", kString, ""},
		{"protocolVersion", "protocol_version", kString, ""},
	}},
	"AgentProvider": {fields: []field{
		{"url", "", kString, ""},
		{"organization", "", kString, ""},
	}},
	"AgentCapabilities": {fields: []field{
		{"streaming", "", kOptBool, ""},
		{"pushNotifications", "push_notifications", kOptBool, ""},
		{"extensions", "", kMessages, "AgentExtension"},
		{"extendedAgentCard", "extended_agent_card", kOptBool, ""},
	}},
	"AgentExtension": {fields: []field{
		{"uri", "", kString, ""},
		{"description", "", kString, ""},
		{"required", "", kBool, ""},
		{"params", "", kStruct, ""},
	}},
	"AgentSkill": {fields: []field{
		{"id", "", kString, ""},
		{"name", "", kString, ""},
		{"description", "", kString, ""},
		{"tags", "", kStrings, ""},
		{"examples", "", kStrings, ""},
		{"inputModes", "input_modes", kStrings, ""},
		{"outputModes", "output_modes", kStrings, ""},
		{"securityRequirements", "security_requirements", kMessages, "SecurityRequirement"},
	}},
	"SecurityRequirement": {fields: []field{
		{"schemes", "", kMessageMap, "StringList"},
	}},
	"StringList": {fields: []field{
		{"list", "", kStrings, ""},
	}},
	"SecurityScheme": {oneof: true, fields: []field{
		{"apiKeySecurityScheme", "api_key_security_scheme", kMessage, "APIKeySecurityScheme"},
		{"httpAuthSecurityScheme", "http_auth_security_scheme", kMessage, "HTTPAuthSecurityScheme"},
		{"oauth2SecurityScheme", "oauth2_security_scheme", kMessage, "OAuth2SecurityScheme"},
		{"openIdConnectSecurityScheme", "open_id_connect_security_scheme", kMessage, "OpenIdConnectSecurityScheme"},
		{"mtlsSecurityScheme", "mtls_security_scheme", kMessage, "MutualTlsSecurityScheme"},
	}},
	"APIKeySecurityScheme": {fields: []field{
		{"description", "", kString, ""},
		{"location", "", kString, ""},
		{"name", "", kString, ""},
	}},
	"HTTPAuthSecurityScheme": {fields: []field{
		{"description", "", kString, ""},
		{"scheme", "", kString, ""},
		{"bearerFormat", "bearer_format", kString, ""},
	}},
	"OAuth2SecurityScheme": {fields: []field{
		{"description", "", kString, ""},
		{"flows", "", kMessage, "OAuthFlows"},
		{"oauth2MetadataUrl", "oauth2_metadata_url", kString, ""},
	}},
	"OpenIdConnectSecurityScheme": {fields: []field{
		{"description", "", kString, ""},
		{"openIdConnectUrl", "open_id_connect_url", kString, ""},
	}},
	"MutualTlsSecurityScheme": {fields: []field{
		{"description", "", kString, ""},
	}},
	"OAuthFlows": {oneof: true, fields: []field{
		{"authorizationCode", "authorization_code", kMessage, "AuthorizationCodeOAuthFlow"},
		{"clientCredentials", "client_credentials", kMessage, "ClientCredentialsOAuthFlow"},
		{"implicit", "", kMessage, "ImplicitOAuthFlow"},
		{"password", "", kMessage, "PasswordOAuthFlow"},
		{"deviceCode", "device_code", kMessage, "DeviceCodeOAuthFlow"},
	}},
	"AuthorizationCodeOAuthFlow": {fields: []field{
		{"authorizationUrl", "authorization_url", kString, ""},
		{"tokenUrl", "token_url", kString, ""},
		{"refreshUrl", "refresh_url", kString, ""},
		{"scopes", "", kStringMap, ""},
		{"pkceRequired", "pkce_required", kBool, ""},
	}},
	"ClientCredentialsOAuthFlow": {fields: []field{
		{"tokenUrl", "token_url", kString, ""},
		{"refreshUrl", "refresh_url", kString, ""},
		{"scopes", "", kStringMap, ""},
	}},
	"ImplicitOAuthFlow": {fields: []field{
		{"authorizationUrl", "authorization_url", kString, ""},
		{"refreshUrl", "refresh_url", kString, ""},
		{"scopes", "", kStringMap, ""},
	}},
	"PasswordOAuthFlow": {fields: []field{
		{"tokenUrl", "token_url", kString, ""},
		{"refreshUrl", "refresh_url", kString, ""},
		{"scopes", "", kStringMap, ""},
	}},
	"DeviceCodeOAuthFlow": {fields: []field{
		{"deviceAuthorizationUrl", "device_authorization_url", kString, ""},
		{"tokenUrl", "token_url", kString, ""},
		{"refreshUrl", "refresh_url", kString, ""},
		{"scopes", "", kStringMap, ""},
	}},
}

// projectClean projects a decoded JSON value of message type msg the way
// the SDKs' generated types do, and drops the empty values of the result
// (clean) as it goes: what cleaning the whole projection would leave, built
// once. ok is false when nothing is left; same reports that out is v
// itself, already its own projection. What the projection leaves unchanged
// is v's own, not a copy.
func projectClean(msg string, v any) (out any, ok, same bool) {
	obj, _ := v.(map[string]any)
	if obj == nil {
		return nil, false, false
	}
	m := v1Schema[msg]
	var buf [16]cleanedMember // no message has more fields
	fields := buf[:0]
	same = true
	for _, f := range m.fields {
		val, ok := obj[f.name]
		if !ok && f.alias != "" {
			val, ok = obj[f.alias]
			same = same && !ok // renamed
		}
		if !ok {
			continue
		}
		// A field left out while present changes the message. A oneof
		// ends at the first field projected, whether or not anything is
		// left of it.
		pv, keep, psame, dropped := projectField(f, val)
		if dropped {
			same = false
			continue
		}
		same = same && keep && psame
		fields = append(fields, cleanedMember{f.name, pv, keep})
		if m.oneof {
			break
		}
	}
	if same && len(fields) == len(obj) {
		// Every member is a field under its own name, unchanged.
		return obj, len(obj) > 0, true
	}
	var kept map[string]any
	for _, f := range fields {
		if f.ok {
			if kept == nil {
				kept = make(map[string]any, len(fields))
			}
			kept[f.name] = f.val
		}
	}
	return kept, len(kept) > 0, false
}

// projectField projects val, the value of field f, and cleans it: pv is
// the field's projection, cleaned; keep is false when cleaning left
// nothing of it; psame reports that pv is val. dropped reports that the
// projection leaves the field out altogether: it is null, a default, or
// not of the field's JSON type.
func projectField(f field, val any) (pv any, keep, psame, dropped bool) {
	if val == nil {
		return nil, false, false, true
	}
	keep, psame = true, true
	switch f.kind {
	case kString, kOptString:
		s := jsString(val)
		if f.kind == kString && s == "" {
			return nil, false, false, true
		}
		_, isString := val.(string)
		pv, keep, psame = s, s != "", isString
	case kBool, kOptBool:
		b := jsBool(val)
		if f.kind == kBool && !b {
			return nil, false, false, true
		}
		_, isBool := val.(bool)
		pv, psame = b, isBool
	case kStrings:
		arr, isArray := val.([]any)
		if !isArray {
			return nil, false, false, true
		}
		pv, keep, psame = projectStrings(arr)
	case kMessage:
		if _, isObj := val.(map[string]any); !isObj {
			return nil, false, false, true
		}
		pv, keep, psame = projectClean(f.msg, val)
	case kMessages:
		arr, isArray := val.([]any)
		if !isArray {
			return nil, false, false, true
		}
		pv, keep, psame = projectMessages(f.msg, arr)
	case kMessageMap:
		mm, isObj := val.(map[string]any)
		if !isObj {
			return nil, false, false, true
		}
		pv, keep, psame = projectMessageMap(f.msg, mm)
	case kStringMap:
		mm, isObj := val.(map[string]any)
		if !isObj {
			return nil, false, false, true
		}
		pv, keep, psame = projectStringMap(mm)
	case kStruct:
		if _, isObj := val.(map[string]any); !isObj {
			return nil, false, false, true
		}
		pv, keep, psame = cleanShared(val)
	}
	return pv, keep, psame, false
}

// projectStrings is projectClean for a repeated string field.
func projectStrings(arr []any) (out any, ok, same bool) {
	for i, e := range arr {
		if s, isString := e.(string); isString && s != "" {
			continue
		}
		// arr changes from element i on.
		kept := make([]any, i, len(arr))
		copy(kept, arr[:i])
		for _, e := range arr[i:] {
			if s := jsString(e); s != "" {
				kept = append(kept, s)
			}
		}
		return kept, len(kept) > 0, false
	}
	return arr, len(arr) > 0, true
}

// projectMessages is projectClean for a repeated message field.
func projectMessages(msg string, arr []any) (out any, ok, same bool) {
	for i, e := range arr {
		c, ok, same := projectClean(msg, e)
		if ok && same {
			continue
		}
		// arr changes from element i on (each element is projected once).
		kept := make([]any, i, len(arr))
		copy(kept, arr[:i])
		if ok {
			kept = append(kept, c)
		}
		for _, e := range arr[i+1:] {
			if c, ok, _ := projectClean(msg, e); ok {
				kept = append(kept, c)
			}
		}
		return kept, len(kept) > 0, false
	}
	return arr, len(arr) > 0, true
}

// projectMessageMap is projectClean for a map of messages.
func projectMessageMap(msg string, mm map[string]any) (out any, ok, same bool) {
	var buf [16]cleanedMember
	members := buf[:0]
	changed := false
	for k, e := range mm {
		c, ok, same := projectClean(msg, e)
		members = append(members, cleanedMember{k, c, ok})
		changed = changed || !ok || !same
	}
	if !changed {
		return mm, len(mm) > 0, true
	}
	kept := make(map[string]any, len(members))
	for _, m := range members {
		if m.ok {
			kept[m.name] = m.val
		}
	}
	return kept, len(kept) > 0, false
}

// projectStringMap is projectClean for a map of strings.
func projectStringMap(mm map[string]any) (out any, ok, same bool) {
	changed := false
	for _, e := range mm {
		if s, isString := e.(string); !isString || s == "" {
			changed = true
			break
		}
	}
	if !changed {
		return mm, len(mm) > 0, true
	}
	kept := make(map[string]any, len(mm))
	for k, e := range mm {
		if s := jsString(e); s != "" {
			kept[k] = s
		}
	}
	return kept, len(kept) > 0, false
}

// jsString converts a JSON value as JavaScript's String() would.
func jsString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	case []any, map[string]any:
		return "[object Object]"
	default:
		return jsonNumberString(x)
	}
}

// jsBool converts a JSON value as JavaScript's Boolean() would.
func jsBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return x != ""
	case nil:
		return false
	default:
		s := jsonNumberString(x)
		return s != "" && s != "0" && s != "-0"
	}
}
