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
// once. ok is false when nothing is left.
func projectClean(msg string, v any) (out any, ok bool) {
	obj, _ := v.(map[string]any)
	if obj == nil {
		return nil, false
	}
	m := v1Schema[msg]
	var kept map[string]any
	for _, f := range m.fields {
		val, ok := obj[f.name]
		if !ok && f.alias != "" {
			val, ok = obj[f.alias]
		}
		if !ok || val == nil {
			continue
		}
		// pv is the field's projection, cleaned; keep is false when
		// cleaning left nothing of it. A oneof ends at the first field
		// projected, whether or not anything is left of it.
		var pv any
		keep := true
		switch f.kind {
		case kString, kOptString:
			s := jsString(val)
			if f.kind == kString && s == "" {
				continue
			}
			pv, keep = s, s != ""
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
			var ss []any
			for _, e := range arr {
				if s := jsString(e); s != "" {
					ss = append(ss, s)
				}
			}
			pv, keep = ss, len(ss) > 0
		case kMessage:
			if _, isObj := val.(map[string]any); !isObj {
				continue
			}
			pv, keep = projectClean(f.msg, val)
		case kMessages:
			arr, ok := val.([]any)
			if !ok {
				continue
			}
			var ms []any
			for _, e := range arr {
				if c, ok := projectClean(f.msg, e); ok {
					ms = append(ms, c)
				}
			}
			pv, keep = ms, len(ms) > 0
		case kMessageMap:
			mm, ok := val.(map[string]any)
			if !ok {
				continue
			}
			out2 := map[string]any{}
			for k, e := range mm {
				if c, ok := projectClean(f.msg, e); ok {
					out2[k] = c
				}
			}
			pv, keep = out2, len(out2) > 0
		case kStringMap:
			mm, ok := val.(map[string]any)
			if !ok {
				continue
			}
			out2 := map[string]any{}
			for k, e := range mm {
				if s := jsString(e); s != "" {
					out2[k] = s
				}
			}
			pv, keep = out2, len(out2) > 0
		case kStruct:
			if _, isObj := val.(map[string]any); !isObj {
				continue
			}
			pv, keep = clean(val)
		}
		if keep {
			if kept == nil {
				kept = make(map[string]any, len(m.fields))
			}
			kept[f.name] = pv
		}
		if m.oneof {
			break
		}
	}
	return kept, len(kept) > 0
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
