package harness_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// The same loop drives the Chat Completions wire: the system prompt leads
// the messages, tool results are tool-role messages, and the arguments
// string streamed in fragments is echoed exactly as assembled.
func TestOpenAIChatLoop(t *testing.T) {
	replies := []string{
		`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_abc","type":"function","function":{"name":"read","arguments":""}}]},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\": \"src/<a>"}}]},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":".go\"}"}}]},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" +
			`data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":12,"total_tokens":42}}` + "\n\n" +
			"data: [DONE]\n\n",
		`data: {"id":"c2","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"It holds a."},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c2","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
			"data: [DONE]\n\n",
	}
	var mu sync.Mutex
	var reqs []*traffic.Request
	var raw []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			t.Errorf("request to %s with auth %q", r.URL.Path, r.Header.Get("Authorization"))
		}
		req, err := providers.For(traffic.WireOpenAI).DecodeRequest(body)
		if err != nil {
			t.Errorf("request does not decode: %v", err)
			return
		}
		if err := engine.Validate(req.Messages); err != nil {
			t.Errorf("request breaks the transcript rules: %v", err)
		}
		mu.Lock()
		n := len(reqs)
		reqs, raw = append(reqs, req), append(raw, string(body))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, replies[n])
	}))
	defer srv.Close()

	h, err := harness.New(harness.Config{BaseURL: srv.URL, Wire: traffic.WireOpenAI, Model: "gpt-test", Stream: true, APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	run, err := h.Start(context.Background(), harness.Params{
		Messages:    []traffic.Message{{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "be brief"}}}, userText("what is in src?")},
		Tools:       []engine.ToolDefinition{echoTool("read", &ran)},
		Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "read", Params: map[string]string{"path": "src/**"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), func(r engine.RelayEvent) { t.Errorf("relay %+v", r) })
	checkEvents(t, evs)
	if e := end(evs); e.Reason != engine.EndFinal || e.TotalUsage.InputTokens != 30 {
		t.Fatalf("end %+v (%s)", e, types(evs))
	}
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	if len(msgs) != 4 || msgs[0].Role != traffic.RoleSystem || msgs[2].Role != traffic.RoleAssistant || msgs[3].Role != traffic.RoleTool {
		t.Fatalf("second request %+v", msgs)
	}
	if got := string(msgs[2].Blocks[0].Input); got != `"{\"path\": \"src/<a>.go\"}"` {
		t.Errorf("echoed arguments %s", got)
	}
	if !strings.Contains(raw[1], `"tool_call_id":"call_abc"`) || !strings.Contains(raw[1], `src/<a>.go`) {
		t.Errorf("second body %s", raw[1])
	}
	if len(ran) != 1 || ran[0] != "call_abc" {
		t.Errorf("ran %v", ran)
	}
	// The tool_call event's input is the parsed arguments, as on every
	// other wire, not Chat's JSON string (docs/reference-model.md, seed 004).
	for _, ev := range evs {
		if c, ok := ev.(engine.ToolCallEvent); ok && string(c.Input) != `{"path": "src/<a>.go"}` {
			t.Errorf("tool_call input %s, want the arguments object", c.Input)
		}
	}
}
