package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcards/agentcards/internal/mcp"
)

// rawServer is a hand-written MCP server (JSON-RPC over Streamable HTTP)
// whose answer to tools/list is list's, for answers the SDK's own server
// would never give.
func rawServer(t *testing.T, list func(w http.ResponseWriter, id json.RawMessage)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &req)
		answer := func(result any) {
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
		}
		switch req.Method {
		case "initialize":
			answer(map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "raw", "version": "1"}})
		case "tools/list":
			list(w, req.ID)
		case "":
			w.WriteHeader(http.StatusAccepted) // a notification
		default:
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// sseTools writes a tools/list answer as a server-sent event of type typ
// ("" for none).
func sseTools(w http.ResponseWriter, id json.RawMessage, typ, tool string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"tools": []any{map[string]any{"name": tool, "inputSchema": map[string]any{"type": "object"}}}}})
	if typ != "" {
		fmt.Fprintf(w, "event: %s\n", typ)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
}

// TestFetchKeepsWhatTheSDKRead: an answer the SDK does not act on (a
// second answer to the same request, an event of another type) never
// makes it into the snapshot.
func TestFetchKeepsWhatTheSDKRead(t *testing.T) {
	for name, list := range map[string]func(http.ResponseWriter, json.RawMessage){
		"second answer": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "text/event-stream")
			sseTools(w, id, "message", "safe")
			sseTools(w, id, "message", "evil")
		},
		"other event type first": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "text/event-stream")
			sseTools(w, id, "ignored", "evil")
			sseTools(w, id, "", "safe")
		},
	} {
		expectSafe(t, name, list)
	}
}

// TestFetchHeadersStayWithTheOrigin: a redirect to another origin is
// refused, and that origin never sees the caller's headers.
func TestFetchHeadersStayWithTheOrigin(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer other.Close()
	// localhost and 127.0.0.1 are two origins on one machine.
	target := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	_, err := mcp.Fetch(context.Background(), first.URL, mcp.FetchOptions{Header: http.Header{"Authorization": {"Bearer secret-token-1234"}}})
	if err == nil || !strings.Contains(err.Error(), "redirect to another origin") {
		t.Fatalf("err = %v", err)
	}
	if leaked.Load() > 0 {
		t.Fatal("the other origin got the Authorization header")
	}
}

// TestFetchErrorsNeverRepeatHeaders: a server that echoes the caller's
// token in an error does not get it printed.
func TestFetchErrorsNeverRepeatHeaders(t *testing.T) {
	srv := rawServer(t, func(w http.ResponseWriter, id json.RawMessage) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32000, "message": "bad token Bearer secret-token-1234 (secret-token-1234)"}})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	_, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{Header: http.Header{"Authorization": {"Bearer secret-token-1234"}}})
	if err == nil {
		t.Fatal("fetched")
	}
	if strings.Contains(err.Error(), "secret-token-1234") {
		t.Fatalf("the error repeats the token: %v", err)
	}
}

// TestSnapshotEscapesInvisible: characters a terminal acts on or a reader
// cannot see are written as \u escapes, and read back the same.
func TestSnapshotEscapesInvisible(t *testing.T) {
	desc := "a\u202eb\u200bc\x1bd\u2028e"
	s := &mcp.Snapshot{ServerInfo: mcp.Implementation{Name: "x"}, Tools: []mcp.Tool{{Name: "t", Description: desc, InputSchema: json.RawMessage(`{"type":"object","description":"\u202e"}`)}}}
	out, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"\u202e", "\u200b", "\x1b", "\u2028"} {
		if strings.Contains(string(out), r) {
			t.Errorf("the snapshot holds %q as it is", r)
		}
	}
	back, err := mcp.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Tools[0].Description != desc {
		t.Errorf("read back %q, want %q", back.Tools[0].Description, desc)
	}
}

// TestFetchRefusesEchoedHeaders: a server that puts the caller's token in
// what it lists gets no snapshot written.
func TestFetchRefusesEchoedHeaders(t *testing.T) {
	srv := rawServer(t, func(w http.ResponseWriter, id json.RawMessage) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"tools": []any{map[string]any{"name": "t", "description": "Call me with secret-token-1234.", "inputSchema": map[string]any{"type": "object"}}}}})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	_, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{Header: http.Header{"Authorization": {"Bearer secret-token-1234"}}})
	if err == nil || !strings.Contains(err.Error(), "repeats the value of your Authorization header") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "secret-token-1234") {
		t.Fatal("the error repeats the token")
	}
}

// TestFetchReadsEventsAsTheSDKDoes: the answer kept is the one the SDK
// acts on however the stream is spelled: the last "event:" line names an
// event, a float id is the integer id, "\n\r\n" ends an event.
func TestFetchReadsEventsAsTheSDKDoes(t *testing.T) {
	tool := func(id, name string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"tools":[{"name":"` + name + `","inputSchema":{"type":"object"}}]}}`
	}
	for name, list := range map[string]func(http.ResponseWriter, json.RawMessage){
		"last event name": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: ignored\nevent: message\ndata: %s\n\n", tool(string(id), "safe"))
			fmt.Fprintf(w, "data: %s\n\n", tool(string(id), "evil"))
		},
		"float id": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", tool(string(id)+".0", "safe"))
			fmt.Fprintf(w, "data: %s\n\n", tool(string(id), "evil"))
		},
		"LF CR LF": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\r\n", tool(string(id), "safe"))
			fmt.Fprintf(w, "data: %s\n\n", tool(string(id), "evil"))
		},
	} {
		expectSafe(t, name, list)
	}
}

// TestFetchRefusesEscapedEchoes: an echoed credential is found however the
// server escaped it, in capabilities too; a header that is no credential
// (a workspace name) may appear in what the server lists.
func TestFetchRefusesEscapedEchoes(t *testing.T) {
	answer := func(tools string) func(http.ResponseWriter, json.RawMessage) {
		return func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[%s]}}`, id, tools)
		}
	}
	h := http.Header{"Authorization": {"Bearer sekrit-token-123"}, "X-Workspace": {"weather"}}
	escaped := rawServer(t, answer(`{"name":"t","inputSchema":{"type":"object","properties":{"k":{"default":"\u0073ekrit-token-123"}}}}`))
	if _, err := mcp.Fetch(context.Background(), escaped.URL, mcp.FetchOptions{Header: h}); err == nil || !strings.Contains(err.Error(), "Authorization") {
		t.Errorf("an escaped echo: %v", err)
	}
	fine := rawServer(t, answer(`{"name":"weather","description":"The weather workspace.","inputSchema":{"type":"object"}}`))
	if _, err := mcp.Fetch(context.Background(), fine.URL, mcp.FetchOptions{Header: h}); err != nil {
		t.Errorf("a workspace name in a tool: %v", err)
	}
}

// TestFetchIgnoresAnswersTheSDKDoesNot: a result under "Result", a
// message that is also a request, and an answer to an id not yet sent are
// not what the SDK acts on, and never reach the snapshot.
func TestFetchIgnoresAnswersTheSDKDoesNot(t *testing.T) {
	const destructive = `{"name":"t","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}}`
	const safe = `{"name":"t","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"title":"Totally safe"}}`
	for name, list := range map[string]func(http.ResponseWriter, json.RawMessage){
		"Result": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[%s]},"Result":{"tools":[%s]}}`, id, destructive, safe)
		},
		"a request": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"ping\",\"result\":{\"tools\":[%s]}}\n\n", id, safe)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[%s]}}\n\n", id, destructive)
		},
		"Annotations": func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true},"Annotations":{"readOnlyHint":true}}]}}`, id)
		},
	} {
		srv := rawServer(t, list)
		s, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{})
		if err != nil {
			continue // refused: nothing the SDK did not read was kept
		}
		a := s.Tools[0].Annotations
		if a == nil || a.DestructiveHint == nil || !*a.DestructiveHint || a.ReadOnlyHint != nil && *a.ReadOnlyHint {
			t.Errorf("%s: the snapshot keeps annotations the SDK did not read: %+v", name, a)
		}
	}
}

// expectSafe fetches from a raw server answering tools/list with list and
// fails unless the snapshot holds the one tool the SDK read, "safe".
func expectSafe(t *testing.T, name string, list func(http.ResponseWriter, json.RawMessage)) {
	t.Helper()
	srv := rawServer(t, list)
	s, err := mcp.Fetch(context.Background(), srv.URL, mcp.FetchOptions{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "safe" {
		t.Errorf("%s: the snapshot holds %+v, not what the SDK read (safe)", name, s.Tools)
	}
}
