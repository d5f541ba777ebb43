package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcards/agentcards/internal/card"
	"github.com/agentcards/agentcards/internal/fetch"
	"github.com/agentcards/agentcards/internal/layout"
)

// ExtendedOptions steer the check of an agent's live extended card.
type ExtendedOptions struct {
	// Header is sent with the request for the extended card, to the
	// interface's origin only (an Authorization header, say).
	Header http.Header
	// Progress, when set, is told where the headers are about to go.
	Progress func(msg string)
}

// Extended checks an agent's authenticated extended card as a client
// gets it: it verifies the public card at target (a URL; an origin means
// its /.well-known/agent-card.json), checks that the card advertises an
// extended card, asks the first interface the card names that speaks
// JSON-RPC or HTTP+JSON for it (GetExtendedAgentCard, GET
// /extendedAgentCard, or v0.3's agent/getAuthenticatedExtendedCard and GET
// /v1/card) with the caller's headers, and verifies the answer with the
// keys trusted for the public card. Headers go only to an interface that
// a verified card names.
func Extended(ctx context.Context, target string, opts Options, eopts ExtendedOptions, rep *Report) error {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return usagef("-extended takes the URL of the agent's public card (or its origin)")
	}
	opts.Fetch = opts.Fetch.ForRun()
	fc, err := fetchCard(ctx, u, opts, rep)
	if err != nil {
		return err
	}
	body, ks, network, u := fc.body, fc.keys, fc.network, fc.url
	public := fc.card
	ext := Card{Source: "extended card of " + u.String(), JWKS: ks.From, Outcome: OutcomeNotVerified, Signatures: []Signature{}}
	fail := func(format string, args ...any) error {
		ext.Problems = append(ext.Problems, fmt.Sprintf(format, args...))
		rep.Add(ext)
		return nil
	}
	if !public.Verified {
		return fail("not asked for: the public card did not verify, and your headers go only to an interface that a verified card names")
	}
	doc, err := card.Decode(body, card.Strict)
	if err != nil {
		return fail("not asked for: %v", err)
	}
	if !advertisesExtended(doc) {
		return fail("not asked for: the public card does not advertise an extended card (capabilities.extendedAgentCard, or supportsAuthenticatedExtendedCard in v0.3)")
	}
	call, err := extendedCall(doc)
	if err != nil {
		return fail("%v", err)
	}
	ext.Source = "extended card from " + call.describe()
	if eopts.Progress != nil {
		names := make([]string, 0, len(eopts.Header))
		for k := range eopts.Header {
			names = append(names, k)
		}
		if len(names) == 0 {
			eopts.Progress(fmt.Sprintf("asking %s, with no headers (give them with -H or -header-env)", call.describe()))
		} else {
			eopts.Progress(fmt.Sprintf("asking %s, sending %s", call.describe(), strings.Join(names, ", ")))
		}
	}
	// The interface is held to the network rule of the public card's
	// origin: a card on a public site cannot send your headers to
	// loopback, private or link-local addresses.
	data, err := call.do(ctx, opts.Fetch, eopts.Header, network)
	var refused *answerError
	if errors.As(err, &refused) {
		return fail("%s", fetch.RedactText(err.Error(), eopts.Header))
	}
	if err != nil {
		// The request did not get an answer (refused, redirected away,
		// timed out): a fetch error, like one for the public card.
		return fetch.RedactHeaders(err, eopts.Header)
	}
	ext = checkCard(ext.Source, data, ks, opts)
	var warnings []string
	if extDoc, err := card.Decode(data, card.Strict); err == nil {
		var problems []string
		problems, warnings = compareExtended(extDoc, doc)
		ext.Problems = append(ext.Problems, problems...)
		if len(problems) > 0 {
			ext.Verified, ext.Outcome = false, OutcomeNotVerified
		}
	}
	// The server's answer may repeat your headers anywhere: nothing of it
	// is shown with them in.
	redactCard(&ext, eopts.Header)
	for i := range warnings {
		warnings[i] = fetch.RedactText(warnings[i], eopts.Header)
	}
	rep.Warnings = append(rep.Warnings, warnings...)
	rep.Add(ext)
	return nil
}

// redactCard takes the values of h out of every text of a card's report.
func redactCard(c *Card, h http.Header) {
	c.Source = fetch.RedactText(c.Source, h)
	c.Name = fetch.RedactText(c.Name, h)
	c.Version = fetch.RedactText(c.Version, h)
	for i := range c.Problems {
		c.Problems[i] = fetch.RedactText(c.Problems[i], h)
	}
	for i := range c.Signatures {
		s := &c.Signatures[i]
		s.KID = fetch.RedactText(s.KID, h)
		s.Alg = fetch.RedactText(s.Alg, h)
		s.JKU = fetch.RedactText(s.JKU, h)
		s.Reason = fetch.RedactText(s.Reason, h)
		for j := range s.Uncovered {
			s.Uncovered[j] = fetch.RedactText(s.Uncovered[j], h)
		}
	}
}

// answerError is an answer from the interface that is not a card: a
// refusal, an error response. The request itself went through.
type answerError struct{ msg string }

func (e *answerError) Error() string { return e.msg }

func answerf(format string, args ...any) error {
	return &answerError{fmt.Sprintf(format, args...)}
}

// advertisesExtended reports whether a card says it has an extended card.
func advertisesExtended(doc map[string]any) bool {
	if caps, ok := doc["capabilities"].(map[string]any); ok {
		if caps["extendedAgentCard"] == true || caps["supportsAuthenticatedExtendedCard"] == true {
			return true
		}
	}
	return doc["supportsAuthenticatedExtendedCard"] == true
}

// compareExtended checks an extended card against the public one it
// replaces for a signed-in caller: the same protocol version, and (a
// warning) the same name.
func compareExtended(ext, public map[string]any) (problems, warnings []string) {
	_, extV1 := ext["supportedInterfaces"]
	_, pubV1 := public["supportedInterfaces"]
	if extV1 != pubV1 {
		problems = append(problems, "the extended card and the public card are of different A2A versions (v1.0 and v0.3): a client replaces one with the other")
	}
	en, _ := ext["name"].(string)
	pn, _ := public["name"].(string)
	if en != pn {
		warnings = append(warnings, fmt.Sprintf("the extended card's name %q differs from the public card's %q: check that it is the same agent", en, pn))
	}
	return problems, warnings
}

// rpcCall is one way to ask an interface for the extended card.
type rpcCall struct {
	url     string
	binding string // "JSONRPC" or "HTTP+JSON"
	version string // "1.0" or "0.3"
	tenant  string
}

func (c rpcCall) describe() string {
	switch {
	case c.binding == "JSONRPC" && c.version == "0.3":
		return c.url + " (JSON-RPC agent/getAuthenticatedExtendedCard)"
	case c.binding == "JSONRPC":
		return c.url + " (JSON-RPC GetExtendedAgentCard)"
	default:
		return c.restURL() + " (HTTP+JSON)"
	}
}

func (c rpcCall) restURL() string {
	base := strings.TrimRight(c.url, "/")
	if c.version == "0.3" {
		return base + "/v1/card"
	}
	if c.tenant != "" {
		return base + "/" + url.PathEscape(c.tenant) + "/extendedAgentCard"
	}
	return base + "/extendedAgentCard"
}

// extendedCall picks the first interface of a card that speaks JSON-RPC or
// HTTP+JSON.
func extendedCall(doc map[string]any) (rpcCall, error) {
	if list, ok := doc["supportedInterfaces"].([]any); ok {
		for _, it := range list {
			in, _ := it.(map[string]any)
			u, _ := in["url"].(string)
			b, _ := in["protocolBinding"].(string)
			v, _ := in["protocolVersion"].(string)
			t, _ := in["tenant"].(string)
			if u == "" || (b != "JSONRPC" && b != "HTTP+JSON") {
				continue
			}
			version := "1.0"
			if strings.HasPrefix(v, "0.") {
				version = "0.3"
			}
			return rpcCall{url: u, binding: b, version: version, tenant: t}, nil
		}
		return rpcCall{}, errors.New("not asked for: the public card names no JSON-RPC or HTTP+JSON interface (gRPC is not supported here)")
	}
	// v0.3: url with preferredTransport, then additionalInterfaces.
	if u, _ := doc["url"].(string); u != "" {
		t, _ := doc["preferredTransport"].(string)
		if t == "" {
			t = "JSONRPC"
		}
		if t == "JSONRPC" || t == "HTTP+JSON" {
			return rpcCall{url: u, binding: t, version: "0.3"}, nil
		}
	}
	if list, ok := doc["additionalInterfaces"].([]any); ok {
		for _, it := range list {
			in, _ := it.(map[string]any)
			u, _ := in["url"].(string)
			t, _ := in["transport"].(string)
			if u != "" && (t == "JSONRPC" || t == "HTTP+JSON") {
				return rpcCall{url: u, binding: t, version: "0.3"}, nil
			}
		}
	}
	return rpcCall{}, errors.New("not asked for: the public card names no JSON-RPC or HTTP+JSON interface")
}

// do asks for the extended card and returns the card's JSON as the
// server wrote it.
func (c rpcCall) do(ctx context.Context, client *fetch.Client, h http.Header, from *fetch.Network) ([]byte, error) {
	target := c.url
	if c.binding == "HTTP+JSON" {
		target = c.restURL()
	}
	hc, err := client.CredentialClient(target, h, from)
	if err != nil {
		return nil, err
	}
	defer hc.CloseIdleConnections()
	var req *http.Request
	if c.binding == "JSONRPC" {
		method, params := "GetExtendedAgentCard", map[string]any{}
		if c.version == "0.3" {
			method = "agent/getAuthenticatedExtendedCard"
		} else if c.tenant != "" {
			params["tenant"] = c.tenant
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
	} else {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return nil, err
		}
	}
	req.Header.Set("Accept", "application/json, application/a2a+json")
	req.Header.Set("A2A-Version", c.version)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		why := ""
		if a := resp.Header.Get("WWW-Authenticate"); a != "" {
			why = "; it asks for: " + fetch.RedactText(a, h)
		}
		return nil, answerf("the server refused the credentials (HTTP %d%s): give the header it needs with -H 'Name: value' or -header-env Name=VARIABLE", resp.StatusCode, why)
	}
	// Error texts are cut short for the report: take the headers out
	// first, so that no part of one is left.
	text := []byte(fetch.RedactText(string(data), h))
	if c.binding == "HTTP+JSON" {
		if resp.StatusCode != http.StatusOK {
			return nil, answerf("HTTP %d: %s", resp.StatusCode, restError(text))
		}
		return data, nil
	}
	var env struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		if resp.StatusCode != http.StatusOK {
			return nil, answerf("HTTP %d: %s", resp.StatusCode, restError(text))
		}
		return nil, answerf("the answer is not JSON-RPC: %v", err)
	}
	if env.Error != nil {
		return nil, rpcError(env.Error.Code, fetch.RedactText(env.Error.Message, h))
	}
	var id int
	if json.Unmarshal(env.ID, &id) != nil || id != 1 {
		return nil, answerf("the JSON-RPC answer's id is not the request's (1)")
	}
	if len(env.Result) == 0 || env.Result[0] != '{' {
		return nil, answerf("the JSON-RPC answer holds no card")
	}
	return env.Result, nil
}

// rpcError explains a JSON-RPC error to an extended card request.
func rpcError(code int, msg string) error {
	why := ""
	switch code {
	case -32007:
		why = "the agent has no extended card configured (ExtendedAgentCardNotConfiguredError): deploy the built extended-agent-card.json with its server"
	case -32004:
		why = "the server does not support extended cards (UnsupportedOperationError), though its public card says it does"
	case -32008:
		why = "A2A v1.0 names this ExtensionSupportRequiredError; servers that use it for an unauthenticated call want the header given with -H or -header-env"
	case -32009:
		why = "the server does not speak this A2A version (VersionNotSupportedError)"
	case -32601:
		why = "the server does not know the method"
	}
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	if why == "" {
		return answerf("JSON-RPC error %d: %q", code, msg)
	}
	return answerf("JSON-RPC error %d (%q): %s", code, msg, why)
}

// restError is the message of an HTTP+JSON error body, or its start.
func restError(data []byte) string {
	var e struct {
		Error struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
		return fmt.Sprintf("%s: %q", e.Error.Status, e.Error.Message)
	}
	if len(data) > 200 {
		data = data[:200]
	}
	return fmt.Sprintf("%q", data)
}

// checkExtendedFile compares a built extended card file with the public
// card of the same agent in the public site folder (-jwks SITE): the
// agent is the folder the file lies in (agents/<id>/).
func checkExtendedFile(path string, body []byte, site string, opts Options, c *Card, rep *Report) {
	id := filepath.Base(filepath.Dir(path))
	name := layout.PublicOf(filepath.Base(path))
	if site == "" {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: not compared with its public card: give -jwks the public site folder", path))
		return
	}
	publicPath := filepath.Join(site, filepath.FromSlash(layout.AgentFile(id, name)))
	pub, err := readLocal(publicPath, opts)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			c.Problems = append(c.Problems, fmt.Sprintf("the public site has no agent %q (%s): an extended card replaces a public card, so publish that first", id, publicPath))
		} else {
			c.Problems = append(c.Problems, err.Error())
		}
		c.Verified, c.Outcome = false, OutcomeNotVerified
		return
	}
	pubDoc, err := card.Decode(pub, card.Strict)
	if err != nil {
		return // the site's own check reports it
	}
	extDoc, err := card.Decode(body, card.Strict)
	if err != nil {
		return
	}
	problems, warnings := compareExtended(extDoc, pubDoc)
	if !advertisesExtended(pubDoc) {
		problems = append(problems, fmt.Sprintf("the public card %s does not advertise an extended card, so no client will ask for this one", publicPath))
	}
	if len(problems) > 0 {
		c.Problems = append(c.Problems, problems...)
		c.Verified, c.Outcome = false, OutcomeNotVerified
	}
	rep.Warnings = append(rep.Warnings, warnings...)
}
