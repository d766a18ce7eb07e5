package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/reference/store/memstore"
	"github.com/llmtck/llmtck/traffic"
)

// Thoughts are routed as each request is compiled and never persisted
// (docs/reference-model.md, seed 003): every request of a run carries the
// given thoughts once, in the same place; the store holds none of them;
// and a resumed run given the first run's thoughts sends each once (the
// reply's own thinking, already in the history, is not added again).
func TestThoughtsRoutedPerRequestNeverStored(t *testing.T) {
	const (
		given   = `"QU5ULWdpdmVu"` // an Anthropic thought handed to the run
		foreign = `"R0VNLWZvcmVpZ24="`
		own     = "T1dOLXJlcGx5" // the run's own reply thinks
	)
	now := time.Now()
	mk := func(id, tag, payload, content string) engine.Thought {
		raw := engine.RawThought{ID: id, Content: content, CreatedAt: now, UpdatedAt: now, ReplayCompatibility: tag}
		if payload != "" {
			raw.Payload = json.RawMessage(payload)
		}
		th, err := engine.NewThought(raw)
		if err != nil {
			t.Fatal(err)
		}
		return th
	}
	thoughts := []engine.Thought{
		mk("t-ant", engine.ReplayAnthropicThinking, given, "earlier reasoning"),
		mk("t-gem", engine.ReplayGeminiSignature, foreign, "gemini reasoning"),
		mk("t-plain", "", "", "a plain note"),
	}
	p := newProvider(t,
		streamed(turn{thinking: "look first", signature: own, calls: []call{{"toolu_1", "write", `{"path":"a"}`}}}),
		streamed(turn{text: "done"}),
		streamed(turn{text: "again"}))
	tool := engine.ToolDefinition{Name: "write", Execute: func(context.Context, json.RawMessage, engine.ToolContext) (engine.ToolExecutionResult, error) {
		return engine.ToolExecutionResult{Context: "ok"}, nil
	}}
	perms := engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "write"}}}
	st := memstore.New()
	history := []traffic.Message{userText("q"), {Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "a"}}}, userText("q2")}
	run, err := newHarness(t, p).Start(context.Background(), harness.Params{Messages: history, Thoughts: thoughts,
		Tools: []engine.ToolDefinition{tool}, Permissions: perms, Store: st, ConversationID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, run.Events(), nil))

	once := func(i int, what, s string) {
		t.Helper()
		if n := strings.Count(p.body(i), s); n != 1 {
			t.Errorf("request %d carries %s %d times, want once:\n%s", i, what, n, p.body(i))
		}
	}
	for i := range 2 {
		once(i, "the given signature", `"signature":`+given)
		once(i, "the plain thought", "<thought>a plain note</thought>")
		if strings.Contains(p.body(i), foreign) {
			t.Errorf("request %d carries the Gemini signature on the Anthropic wire", i)
		}
		// Same place every time: the assistant message the run started with.
		if a := p.requests()[i].Messages[1]; string(a.Blocks[0].Signature) != given {
			t.Errorf("request %d: the given thought does not lead messages[1]: %+v", i, a.Blocks)
		}
	}

	rows, err := st.List("c", store.Filter{IncludeRemoved: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		payload, _ := st.Payload(row.ID)
		for _, s := range []string{given, foreign, "<thought>", "earlier reasoning"} {
			if strings.Contains(row.Content, s) || strings.Contains(string(payload), s) {
				t.Errorf("stored row %s holds the routed thought %s: %s %s", row.ID, s, row.Content, payload)
			}
		}
	}

	resumed, err := harness.Resume(st, "c")
	if err != nil {
		t.Fatal(err)
	}
	run2, err := newHarness(t, p).Start(context.Background(), harness.Params{Messages: append(resumed, userText("q3")),
		Thoughts: run.Thoughts(), Store: st, ConversationID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, run2.Events(), nil))
	once(2, "the given signature", `"signature":`+given)
	once(2, "the reply's own signature", `"signature":"`+own+`"`)
	once(2, "the plain thought", "<thought>a plain note</thought>")
	if strings.Contains(p.body(2), foreign) {
		t.Error("the resumed request carries the Gemini signature on the Anthropic wire")
	}
	if d := run2.Dispatch(); len(d.Present) != 1 || len(d.Elided) != 1 || d.Elided[0].ID != "t-gem" {
		t.Errorf("resumed dispatch: present %d, elided %+v", len(d.Present), d.Elided)
	}
}
