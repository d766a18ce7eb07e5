package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// replayCorpus serves the recorded responses of a corpus cassette in order,
// from a server that speaks wire, and returns the server and the
// recording's decoded exchanges.
func replayCorpus(t *testing.T, wire traffic.Wire, name string) (*provider, []traffic.Exchange) {
	t.Helper()
	c, err := cassette.Load(filepath.Join(corpus.Dir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	var replies []func(w http.ResponseWriter, r *http.Request)
	for _, in := range c.Interactions {
		ct := "application/json"
		if body := bytes.TrimSpace(in.Response.Body); bytes.HasPrefix(body, []byte("event:")) || bytes.HasPrefix(body, []byte("data:")) {
			ct = "text/event-stream"
		}
		replies = append(replies, recorded(in.Response.Status, ct, in.Response.Body))
	}
	return newWireProvider(t, wire, replies...), providers.DecodeCassette(c, "")
}

// The loop replays a real streamed Anthropic tool call (docker/cagent): it
// runs the tool, and its second request echoes the recorded tool_use
// arguments byte for byte, answered by a tool_result.
func TestCorpusStreamedToolCall(t *testing.T) {
	p, rec := replayCorpus(t, traffic.WireAnthropic, "docker__cagent/e2e__testdata__cassettes__TestExec_Anthropic_ToolCall.yaml")
	h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: traffic.WireAnthropic, Model: "claude-sonnet-4-0", Stream: true, APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	var gotPath string
	run, err := h.Start(context.Background(), harness.Params{
		Messages: []traffic.Message{{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "How many files in testdata/working_dir? Only output the number."}}}},
		Tools: []engine.ToolDefinition{{
			Name: "list_directory", Description: "List a directory.",
			Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
			Execute: func(ctx context.Context, args json.RawMessage, tc engine.ToolContext) (engine.ToolExecutionResult, error) {
				var in struct{ Path string }
				json.Unmarshal(args, &in)
				gotPath = in.Path
				return engine.ToolExecutionResult{Context: "FILE README.me\nFILE main.go", Result: 2}, nil
			},
		}},
		Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "list_directory", Params: map[string]string{"path": "testdata/**"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), func(r engine.RelayEvent) { t.Errorf("relay for an allowlisted call: %+v", r) })
	checkEvents(t, evs)
	if e := end(evs); e.Reason != engine.EndFinal || e.Iterations != 2 {
		t.Fatalf("end %+v; events %s", e, types(evs))
	}
	if gotPath != "testdata/working_dir" {
		t.Errorf("tool ran with path %q", gotPath)
	}
	reqs := p.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	recordedCall := rec[0].Response.Output[0].Blocks[0]
	echoed := reqs[1].Messages[1].Blocks[0]
	if echoed.ID != recordedCall.ID || !bytes.Equal(echoed.Input, recordedCall.Input) {
		t.Errorf("echoed tool_use %s %s, recorded %s %s", echoed.ID, echoed.Input, recordedCall.ID, recordedCall.Input)
	}
	res := reqs[1].Messages[2].Blocks[0]
	if res.Type != traffic.BlockToolResult || res.ToolCallID != recordedCall.ID || res.IsError {
		t.Errorf("tool result %+v", res)
	}
	// Usage: the recorded streams' message_delta usage, summed.
	want := engine.TokenUsage{}
	for _, ex := range rec {
		u := ex.Response.Usage
		want = want.Add(engine.TokenUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CacheReadTokens: u.CacheReadTokens, CacheCreationTokens: u.CacheCreationTokens})
	}
	if got := end(evs).TotalUsage; got != want || got.OutputTokens == 0 {
		t.Errorf("total usage %+v, recorded %+v", got, want)
	}
	if err := engine.Validate(run.Transcript().Messages()); err != nil {
		t.Error(err)
	}
}

// The loop replays a real extended-thinking tool loop (pydantic-ai): the
// signed thinking block of the first response is sent back in the second
// request with its signature and text byte for byte, first in its message.
func TestCorpusThinkingEchoedByteExact(t *testing.T) {
	p, rec := replayCorpus(t, traffic.WireAnthropic, "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_tool_with_thinking.yaml")
	h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: traffic.WireAnthropic, Model: "claude-sonnet-4-0", MaxTokens: 4096,
		Thinking: &traffic.Thinking{Type: "enabled", BudgetTokens: 3000}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := h.Start(context.Background(), harness.Params{
		Messages: []traffic.Message{{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "What is the largest city in the user country?"}}}},
		Tools: []engine.ToolDefinition{{Name: "get_user_country", Schema: json.RawMessage(`{"additionalProperties":false,"properties":{},"type":"object"}`),
			Execute: func(context.Context, json.RawMessage, engine.ToolContext) (engine.ToolExecutionResult, error) {
				return engine.ToolExecutionResult{Context: "Mexico"}, nil
			}}},
		Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "*"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), nil)
	checkEvents(t, evs)
	if e := end(evs); e.Reason != engine.EndFinal {
		t.Fatalf("end %+v", e)
	}
	reqs := p.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := reqs[1].Messages[1]
	want := rec[0].Response.Output[0]
	if len(got.Blocks) != len(want.Blocks) {
		t.Fatalf("echoed %d blocks, recorded %d", len(got.Blocks), len(want.Blocks))
	}
	for i := range want.Blocks {
		g, w := got.Blocks[i], want.Blocks[i]
		if g.Type != w.Type || g.Text != w.Text || !bytes.Equal(g.Signature, w.Signature) || !bytes.Equal(g.Input, w.Input) || g.ID != w.ID {
			t.Errorf("block %d: echoed %+v\nrecorded %+v", i, g, w)
		}
	}
	if got.Blocks[0].Type != traffic.BlockThinking {
		t.Error("thinking does not lead the echoed assistant message")
	}
	// The recorded second request sent the same assistant message.
	recReq := rec[1].Request.Messages[1]
	for i := range recReq.Blocks {
		if !bytes.Equal(recReq.Blocks[i].Signature, got.Blocks[i].Signature) {
			t.Errorf("block %d differs from what pydantic-ai sent", i)
		}
	}
	if string(rawjson.Compact(reqs[1].Thinking.Raw)) != `{"type":"enabled","budget_tokens":3000}` {
		t.Errorf("thinking config %s", reqs[1].Thinking.Raw)
	}
	var text string
	for _, ev := range evs {
		if e, ok := ev.(engine.TextEvent); ok {
			text += e.Content
		}
	}
	if text == "" {
		t.Error("no text events")
	}
}
