package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcards/agentcards/internal/fetch"
)

// MaxPages is how many pages of one list Fetch reads before it gives up.
const MaxPages = 100

// FetchOptions is how Fetch talks to a server.
type FetchOptions struct {
	// Header is sent with every request (an Authorization header, say).
	// It is never written into the snapshot.
	Header http.Header
	// Limits bounds every request as verify's fetches are bounded: a
	// timeout, a response size limit and few redirects, https only (plain
	// http only on loopback). The zero value uses fetch's defaults.
	Limits fetch.Client
	// Timeout bounds the whole fetch (default: 6 times the request
	// timeout).
	Timeout time.Duration
}

// Fetch connects to the MCP server at endpoint over Streamable HTTP with
// the official Go SDK (server/discover on the newest revision, else
// initialize), lists its tools page by page, and its resources and prompts
// when it offers them. Tool schemas are kept as the server sent them: the
// SDK decodes them into maps (losing large integers' digits), so the raw
// tools/list results are read beside it.
func Fetch(ctx context.Context, endpoint string, opts FetchOptions) (*Snapshot, error) {
	// The caller's headers (credentials) go to the endpoint's origin only:
	// a redirect to another origin is refused, and no request elsewhere
	// ever carries them.
	hc, err := opts.Limits.CredentialClient(endpoint, opts.Header, nil)
	if err != nil {
		return nil, err
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		per := opts.Limits.Timeout
		if per <= 0 {
			per = fetch.DefaultTimeout
		}
		timeout = 6 * per
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rec := &recorder{base: hc.Transport, results: map[string]json.RawMessage{}, last: map[string]string{}, pending: map[string]bool{}}
	hc.Transport = rec
	defer hc.CloseIdleConnections()
	s, err := fetchSnapshot(ctx, hc, rec, endpoint, opts)
	if err != nil {
		return nil, fetch.RedactHeaders(err, opts.Header)
	}
	// A server may repeat a credential it was sent in what it lists; the
	// snapshot is published, so it must hold none, anywhere (capabilities
	// too), however the server escaped it.
	if where := repeatsCredential(s, opts.Header); where != "" {
		return nil, fmt.Errorf("the server's answer repeats the value of your %s header: not written, since the snapshot is published", where)
	}
	return s, nil
}

// repeatsCredential names the credential header whose value (or token,
// without its scheme) the snapshot holds in a string or member name, ""
// when none does.
func repeatsCredential(s *Snapshot, h http.Header) string {
	out, err := s.Marshal()
	if err != nil {
		return ""
	}
	var v any
	if json.Unmarshal(out, &v) != nil {
		return ""
	}
	var texts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			texts = append(texts, x)
		case map[string]any:
			for k, e := range x {
				texts = append(texts, k)
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	for name, vs := range h {
		if !credentialHeader(name) {
			continue
		}
		for _, value := range vs {
			for _, sec := range fetch.SecretsOf(value, 6) {
				for _, t := range texts {
					if strings.Contains(t, sec) {
						return name
					}
				}
			}
		}
	}
	return ""
}

// credentialHeader reports whether a header's value is a credential by its
// name (Authorization, Cookie, X-Api-Key, X-Auth-Token ...).
func credentialHeader(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"auth", "cookie", "key", "token", "secret", "session", "password", "signature", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// fetchSnapshot is Fetch once the client is set up.
func fetchSnapshot(ctx context.Context, hc *http.Client, rec *recorder, endpoint string, opts FetchOptions) (*Snapshot, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "agentcards", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           hc,
		DisableStandaloneSSE: true, // nothing to listen for; and each request has a timeout
		MaxEventSize:         int(max(opts.Limits.MaxBytes, fetch.DefaultMaxBytes)),
		MaxRetries:           -1,
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", Redact(endpoint), err)
	}
	defer cs.Close()
	ir := cs.InitializeResult()
	if ir == nil || ir.ServerInfo == nil {
		return nil, fmt.Errorf("%s did not say who it is (no serverInfo)", Redact(endpoint))
	}
	s := &Snapshot{
		SnapshotFormat:  Format,
		ProtocolVersion: ir.ProtocolVersion,
		ServerInfo: Implementation{
			Name: ir.ServerInfo.Name, Title: ir.ServerInfo.Title,
			Version: ir.ServerInfo.Version, WebsiteURL: ir.ServerInfo.WebsiteURL,
		},
		Instructions: ir.Instructions,
	}
	if ir.Capabilities != nil {
		if s.Capabilities, err = json.Marshal(ir.Capabilities); err != nil {
			return nil, err
		}
	}
	if ir.Capabilities == nil || ir.Capabilities.Tools == nil {
		return nil, fmt.Errorf("%s offers no tools (its capabilities have no \"tools\")", Redact(endpoint))
	}
	if s.Tools, err = listTools(ctx, cs, rec); err != nil {
		return nil, err
	}
	if ir.Capabilities.Resources != nil {
		err := pages(func(cursor string) (string, error) {
			res, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return "", fmt.Errorf("resources/list: %w", err)
			}
			for _, r := range res.Resources {
				if r != nil {
					s.Resources = append(s.Resources, Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType})
				}
			}
			return res.NextCursor, tooMany("resources", len(s.Resources))
		})
		if err != nil {
			return nil, err
		}
	}
	if ir.Capabilities.Prompts != nil {
		err := pages(func(cursor string) (string, error) {
			res, err := cs.ListPrompts(ctx, &sdk.ListPromptsParams{Cursor: cursor})
			if err != nil {
				return "", fmt.Errorf("prompts/list: %w", err)
			}
			for _, p := range res.Prompts {
				if p == nil {
					continue
				}
				pr := Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
				for _, a := range p.Arguments {
					if a != nil {
						pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
					}
				}
				s.Prompts = append(s.Prompts, pr)
			}
			return res.NextCursor, tooMany("prompts", len(s.Prompts))
		})
		if err != nil {
			return nil, err
		}
	}
	if ps := s.check(); len(ps) > 0 {
		return nil, fmt.Errorf("the server's answer cannot be kept as a snapshot:\n%w", ps)
	}
	return s, nil
}

// listTools reads every page of tools/list, each tool as the server sent
// it.
func listTools(ctx context.Context, cs *sdk.ClientSession, rec *recorder) ([]Tool, error) {
	var tools []Tool
	err := pages(func(cursor string) (string, error) {
		res, err := cs.ListTools(ctx, &sdk.ListToolsParams{Cursor: cursor})
		if err != nil {
			return "", fmt.Errorf("tools/list: %w", err)
		}
		raw := rec.result("tools/list")
		if raw == nil {
			return "", errors.New("tools/list: the server's answer could not be read as JSON-RPC")
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return "", fmt.Errorf("tools/list: %v", err)
		}
		// Each tool as the server sent it, of those the SDK took (it drops
		// tools it finds invalid): the two readings must agree, tool by
		// tool, on everything the snapshot keeps.
		took := map[string][]string{}
		for _, t := range res.Tools {
			if t != nil {
				took[t.Name] = append(took[t.Name], sdkToolKey(t))
			}
		}
		n := 0
		for i, t := range page.Tools {
			var tool Tool
			if err := json.Unmarshal(t, &tool); err != nil {
				return "", fmt.Errorf("tools/list: tool %d of the page: %v", i, err)
			}
			keys := took[tool.Name]
			if len(keys) == 0 {
				continue
			}
			if keys[0] != toolKey(tool) {
				return "", fmt.Errorf("tools/list: tool %q read beside the SDK is not the one it read", tool.Name)
			}
			took[tool.Name] = keys[1:]
			tools = append(tools, tool)
			n++
		}
		if page.NextCursor != res.NextCursor || n != countTools(res.Tools) {
			return "", errors.New("tools/list: the answer read beside the SDK is not the one it read")
		}
		return res.NextCursor, tooMany("tools", len(tools))
	})
	if tools == nil {
		tools = []Tool{}
	}
	return tools, err
}

// toolKey is what identifies a tool as both readings see it: name, title,
// description and schemas, the schemas decoded as the SDK decodes them.
func toolKey(t Tool) string {
	var in, out any
	json.Unmarshal(t.InputSchema, &in)
	if len(t.OutputSchema) > 0 {
		json.Unmarshal(t.OutputSchema, &out)
	}
	var a hints
	if x := t.Annotations; x != nil {
		a = hints{x.Title, x.ReadOnlyHint != nil && *x.ReadOnlyHint, x.DestructiveHint, x.IdempotentHint != nil && *x.IdempotentHint, x.OpenWorldHint}
	}
	b, _ := json.Marshal([]any{t.Name, t.Title, t.Description, in, out, a})
	return string(b)
}

// hints are a tool's annotations as both readings can tell them apart
// (the SDK reads an absent readOnlyHint or idempotentHint as false).
type hints struct {
	Title       string
	ReadOnly    bool
	Destructive *bool
	Idempotent  bool
	OpenWorld   *bool
}

// sdkToolKey is toolKey of a tool as the SDK read it.
func sdkToolKey(t *sdk.Tool) string {
	norm := func(v any) any {
		if v == nil {
			return nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		var out any
		json.Unmarshal(b, &out)
		return out
	}
	var a hints
	if x := t.Annotations; x != nil {
		a = hints{x.Title, x.ReadOnlyHint, x.DestructiveHint, x.IdempotentHint, x.OpenWorldHint}
	}
	b, _ := json.Marshal([]any{t.Name, t.Title, t.Description, norm(t.InputSchema), norm(t.OutputSchema), a})
	return string(b)
}

// countTools counts the tools the SDK returned.
func countTools(ts []*sdk.Tool) int {
	n := 0
	for _, t := range ts {
		if t != nil {
			n++
		}
	}
	return n
}

// pages calls list with each cursor it returns, from "", until it returns
// "" (or an error), refusing a cursor seen before and more than MaxPages
// pages.
func pages(list func(cursor string) (next string, err error)) error {
	seen := map[string]bool{}
	cursor := ""
	for n := 0; ; n++ {
		if n == MaxPages {
			return fmt.Errorf("more than %d pages: stopped", MaxPages)
		}
		next, err := list(cursor)
		if err != nil || next == "" {
			return err
		}
		if seen[next] {
			return errors.New("the server gave a cursor it had given before (the list would never end): stopped")
		}
		seen[next] = true
		cursor = next
	}
}

// tooMany refuses lists longer than a snapshot may hold.
func tooMany(what string, n int) error {
	if n > MaxItems {
		return fmt.Errorf("more than %d %s: stopped", MaxItems, what)
	}
	return nil
}

// Redact is an endpoint URL without what may carry a credential (user
// info, query, fragment), for messages and for publishing.
func Redact(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "(a URL that does not parse)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// recorder reads the JSON-RPC responses beside the SDK, keeping each
// result's raw bytes.
type recorder struct {
	base http.RoundTripper

	mu      sync.Mutex
	results map[string]json.RawMessage // request id (rpcID) -> raw result
	last    map[string]string          // method -> id of its latest request
	pending map[string]bool            // ids sent and not yet answered
}

// result is the raw result of the latest request for method, nil when
// none was read.
func (r *recorder) result(method string) json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	id, ok := r.last[method]
	if !ok {
		return nil
	}
	return r.results[id]
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, 1<<20))
			body.Close()
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(data, &msg) == nil && len(msg.ID) > 0 && msg.Method != "" {
				if id, ok := rpcID(msg.ID); ok {
					r.mu.Lock()
					r.last[msg.Method] = id
					r.pending[id] = true
					r.mu.Unlock()
				}
			}
		}
	}
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		resp.Body = &tee{rc: resp.Body, r: r, whole: true}
	case "text/event-stream":
		resp.Body = &tee{rc: resp.Body, r: r}
	}
	return resp, nil
}

// keep records a JSON-RPC message's result, when it is a response.
func (r *recorder) keep(msg []byte) {
	// Member names exactly as the SDK reads them (encoding/json would
	// take "Result" for "result"); a message with a method is a request
	// to the client, whatever else it holds.
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil || m["method"] != nil || len(m["id"]) == 0 || len(m["result"]) == 0 {
		return
	}
	id, ok := rpcID(m["id"])
	if !ok {
		return
	}
	r.mu.Lock()
	// The first answer to a request sent, and not yet answered, is the
	// one the SDK acts on.
	if r.pending[id] {
		delete(r.pending, id)
		r.results[id] = m["result"]
	}
	r.mu.Unlock()
}

// rpcID is a JSON-RPC id as the SDK matches it (its MakeID): a string, or
// a number made an integer.
func rpcID(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return "s" + x, true
	case float64:
		return "n" + strconv.FormatInt(int64(x), 10), true
	}
	return "", false
}

// tee passes a response body through while reading its JSON-RPC messages:
// a whole JSON body at its end, or each server-sent event as it completes
// (the SDK may act on an event before the stream ends). Events are read
// as the SDK reads them (its scanEventsLimited): line by line, a blank
// line (after trimming "\r\n") ending an event, the last "event:" naming
// it, "data:" lines trimmed and joined with newlines.
type tee struct {
	rc    io.ReadCloser
	r     *recorder
	whole bool
	buf   bytes.Buffer
	// The event being read.
	name string
	data *bytes.Buffer
}

func (t *tee) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.buf.Write(p[:n])
	if t.whole {
		if err == io.EOF {
			t.r.keep(t.buf.Bytes())
			t.buf.Reset()
		}
		return n, err
	}
	for {
		i := bytes.IndexByte(t.buf.Bytes(), '\n')
		if i < 0 {
			break
		}
		t.line(t.buf.Next(i + 1))
	}
	if err == io.EOF {
		t.line(t.buf.Next(t.buf.Len()))
		t.end()
	}
	return n, err
}

// line takes one line of an event stream.
func (t *tee) line(b []byte) {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) == 0 {
		t.end()
		return
	}
	key, value, ok := bytes.Cut(b, []byte{':'})
	switch {
	case !ok:
	case string(key) == "event":
		t.name = strings.TrimSpace(string(value))
	case string(key) == "data":
		if t.data == nil {
			t.data = new(bytes.Buffer)
		} else {
			t.data.WriteByte('\n')
		}
		t.data.Write(bytes.TrimSpace(value))
	}
}

// end ends the event being read; events of a type other than "message"
// are not JSON-RPC messages (the SDK skips them too).
func (t *tee) end() {
	if t.data != nil && (t.name == "" || t.name == "message") {
		t.r.keep(t.data.Bytes())
	}
	t.name, t.data = "", nil
}

func (t *tee) Close() error { return t.rc.Close() }
