package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/providers/responses"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

func newResponsesHarness(t *testing.T, p *provider, stream bool) *harness.Harness {
	t.Helper()
	h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: traffic.WireResponses, Model: "gpt-test", Stream: stream, APIKey: "sk-test",
		Thinking: &traffic.Thinking{Type: "enabled", Raw: json.RawMessage(`{"effort":"low","summary":"auto"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Opaque tokens with escapes a re-encoder would change.
const (
	encA  = `"gAAAAABo\/x+y\u003d=_-"`
	encB  = `"gAAAAABpSECOND\/=="`
	argsA = `"{\"path\": \"src/<a>.go\"}"`
	argsB = `"{\"path\":\"src/b.go\"}"`
)

var responsesToolTurn = rTurn{id: "resp_1", in: 40, out: 30, items: []rItem{
	{kind: "reasoning", id: "rs_1", text: "Plan: read both files.", enc: encA},
	{kind: "message", id: "msg_1", text: "Reading them now.", phase: "commentary"},
	{kind: "function_call", id: "fc_1", callID: "call_a", name: "read", args: argsA},
	{kind: "function_call", id: "fc_2", callID: "call_b", name: "read", args: argsB},
}}

var responsesFinalTurn = rTurn{id: "resp_2", in: 90, out: 8, items: []rItem{
	{kind: "reasoning", id: "rs_2", enc: encB},
	{kind: "message", id: "msg_2", text: "Both hold Go code.", phase: "final_answer"},
}}

// The loop runs on the Responses wire, streamed and not: each output item
// stays its own history item, in order, and the next stateless request
// resends them exactly — reasoning with its encrypted_content byte for
// byte, message items with their id and phase, function calls with their
// fc_ id, call_id and arguments — followed by one function_call_output per
// call.
func TestResponsesLoop(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "streamed", false: "document"}[stream], func(t *testing.T) {
			reply := rDocument
			if stream {
				reply = rStream
			}
			p := newWireProvider(t, traffic.WireResponses, reply(responsesToolTurn), reply(responsesFinalTurn))
			var ran []string
			run, err := newResponsesHarness(t, p, stream).Start(context.Background(), harness.Params{
				Messages:    []traffic.Message{{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "be brief"}}}, userText("what is in src?")},
				Tools:       []engine.ToolDefinition{echoTool("read", &ran)},
				Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "read", Params: map[string]string{"path": "src/**"}}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			evs := collect(t, run.Events(), func(r engine.RelayEvent) { t.Errorf("relay %+v", r) })
			checkEvents(t, evs)
			if e := end(evs); e.Reason != engine.EndFinal || e.Iterations != 2 || e.TotalUsage.InputTokens != 130 || e.TotalUsage.OutputTokens != 38 {
				t.Fatalf("end %+v (%s)", e, types(evs))
			}
			if strings.Join(ran, ",") != "call_a,call_b" {
				t.Errorf("ran %v", ran)
			}
			msgs := run.Transcript().Messages()
			if got := wireTypes(msgs); got != "system user reasoning message function_call function_call tool tool reasoning message" {
				t.Errorf("history %s", got)
			}
			if err := engine.Validate(msgs); err != nil {
				t.Error(err)
			}

			reqs := p.requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			for i, req := range reqs {
				if req.Store == nil || *req.Store || strings.Join(req.Include, ",") != "reasoning.encrypted_content" || req.Stream != stream {
					t.Errorf("request %d: store %v include %v stream %v", i, req.Store, req.Include, req.Stream)
				}
				if string(req.Thinking.Raw) != `{"effort":"low","summary":"auto"}` || systemOf(req) != "be brief" {
					t.Errorf("request %d: reasoning %s instructions %q", i, req.Thinking.Raw, systemOf(req))
				}
			}
			in := reqs[1].Messages
			if got := wireTypes(in); got != "user reasoning message function_call function_call function_call_output function_call_output" {
				t.Fatalf("second input %s", got)
			}
			rs, msg, fc1, fc2 := in[1].Blocks[0], in[2], in[3].Blocks[0], in[4].Blocks[0]
			if rs.ItemID != "rs_1" || string(rs.EncryptedContent) != encA || rs.Text != "Plan: read both files." {
				t.Errorf("echoed reasoning %+v", rs)
			}
			if responses.ItemID(msg) != "msg_1" || string(msg.Extra["phase"]) != `"commentary"` || msg.Blocks[0].Text != "Reading them now." {
				t.Errorf("echoed message %+v", msg)
			}
			if fc1.ItemID != "fc_1" || fc1.ID != "call_a" || string(fc1.Input) != argsA || fc2.ItemID != "fc_2" || string(fc2.Input) != argsB {
				t.Errorf("echoed calls %+v %+v", fc1, fc2)
			}
			for k, id := range []string{"call_a", "call_b"} {
				out := in[5+k].Blocks[0]
				if out.ToolCallID != id || !strings.HasPrefix(string(out.ResultRaw), `"read src/`) {
					t.Errorf("output %d: %s %s", k, out.ToolCallID, out.ResultRaw)
				}
			}
			body := p.body(1)
			for _, raw := range []string{`"encrypted_content":` + encA, `"arguments":` + argsA, `"id":"fc_1","call_id":"call_a"`} {
				if !strings.Contains(body, raw) {
					t.Errorf("second body lacks %s:\n%s", raw, body)
				}
			}
		})
	}
}

// Cancelling while the reply streams keeps only the text received so far
// as a truncated assistant message; the finished reasoning item is not
// echoed without the item it produced, and a later request built from the
// transcript is valid on the wire.
func TestResponsesCancelDuringStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tu := rTurn{id: "resp_1", items: []rItem{
		{kind: "reasoning", id: "rs_1", text: "thinking", enc: encA},
		{kind: "message", id: "msg_1", text: "The answer is forty-two", partial: true},
	}}
	p := newWireProvider(t, traffic.WireResponses, rStream(tu), rStream(responsesFinalTurn))
	h := newResponsesHarness(t, p, true)
	cut, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: traffic.WireResponses, Model: "gpt-test", Stream: true, APIKey: "sk-test",
		HTTPClient: cancelOnRead(`"delta":"The answer "`, cancel)})
	if err != nil {
		t.Fatal(err)
	}
	run, err := cut.Start(ctx, harness.Params{Messages: []traffic.Message{userText("q")}})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), nil)
	checkEvents(t, evs)
	if e := end(evs); e.Reason != engine.EndCancelled {
		t.Fatalf("end %+v (%s)", e, types(evs))
	}
	tr := run.Transcript()
	msgs := tr.Messages()
	last := msgs[len(msgs)-1]
	if len(msgs) != 2 || last.Blocks[0].Text != "The answer " || !tr.Note(1).Truncated {
		t.Fatalf("history %+v", msgs)
	}
	if err := engine.Validate(msgs); err != nil {
		t.Fatal(err)
	}
	next := continueRun(t, p, h, msgs)
	if got := wireTypes(next.Messages); got != "user assistant user" {
		t.Errorf("next input %s", got)
	}
}

// Cancelling while a tool runs answers it and every later call with a
// function_call_output saying so; the reasoning item stays, and the next
// request pairs every call.
func TestResponsesCancelDuringTool(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tu := rTurn{id: "resp_1", items: []rItem{
		{kind: "reasoning", id: "rs_1", enc: encA},
		{kind: "function_call", id: "fc_1", callID: "call_1", name: "fast", args: `"{}"`},
		{kind: "function_call", id: "fc_2", callID: "call_2", name: "slow", args: `"{}"`},
		{kind: "function_call", id: "fc_3", callID: "call_3", name: "fast", args: `"{}"`},
	}}
	p := newWireProvider(t, traffic.WireResponses, rStream(tu), rStream(responsesFinalTurn))
	h := newResponsesHarness(t, p, true)
	run, err := h.Start(ctx, harness.Params{Messages: []traffic.Message{userText("q")}, Tools: cancellingTools(cancel),
		Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), nil)
	checkEvents(t, evs)
	if end(evs).Reason != engine.EndCancelled {
		t.Fatalf("end %+v", end(evs))
	}
	msgs := run.Transcript().Messages()
	if err := engine.Validate(msgs); err != nil {
		t.Fatal(err)
	}
	next := continueRun(t, p, h, msgs)
	if got := wireTypes(next.Messages); got != "user reasoning function_call function_call function_call function_call_output function_call_output function_call_output user" {
		t.Fatalf("next input %s", got)
	}
	if rs := next.Messages[1].Blocks[0]; string(rs.EncryptedContent) != encA {
		t.Errorf("reasoning %+v", rs)
	}
	for k, want := range []string{`"fast done"`, "cancelled", "cancelled"} {
		out := next.Messages[5+k].Blocks[0]
		if out.ToolCallID != []string{"call_1", "call_2", "call_3"}[k] || !strings.Contains(string(out.ResultRaw), want) {
			t.Errorf("output %d: %s %s", k, out.ToolCallID, out.ResultRaw)
		}
	}
}

// A reasoning item without encrypted_content cannot be resent statelessly
// (R3): it is left out, and the function_call it produced loses its fc_ id
// (R2) but keeps its call_id, so its output still pairs.
func TestResponsesReasoningWithoutPayload(t *testing.T) {
	tu := rTurn{id: "resp_1", items: []rItem{
		{kind: "reasoning", id: "rs_1", text: "summary only"},
		{kind: "function_call", id: "fc_1", callID: "call_1", name: "read", args: `"{\"path\":\"a\"}"`},
	}}
	p := newWireProvider(t, traffic.WireResponses, rDocument(tu), rDocument(responsesFinalTurn))
	var ran []string
	run, err := newResponsesHarness(t, p, false).Start(context.Background(), harness.Params{Messages: []traffic.Message{userText("q")},
		Tools: []engine.ToolDefinition{echoTool("read", &ran)}, Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "read"}}}})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, run.Events(), nil))
	if got := wireTypes(run.Transcript().Messages()); got != "user reasoning function_call tool reasoning message" {
		t.Errorf("history %s (the transcript keeps what the model said)", got)
	}
	in := p.requests()[1].Messages
	if got := wireTypes(in); got != "user function_call function_call_output" {
		t.Fatalf("second input %s", got)
	}
	if fc := in[1].Blocks[0]; fc.ItemID != "" || fc.ID != "call_1" {
		t.Errorf("call %+v", fc)
	}
	if strings.Contains(p.body(1), "fc_1") || strings.Contains(p.body(1), "rs_1") {
		t.Errorf("second body %s", p.body(1))
	}
}

// cancellingTools are "fast", which answers, and "slow", which cancels the
// run's context and waits for it.
func cancellingTools(cancel func()) []engine.ToolDefinition {
	fast := engine.ToolDefinition{Name: "fast", Execute: func(context.Context, json.RawMessage, engine.ToolContext) (engine.ToolExecutionResult, error) {
		return engine.ToolExecutionResult{Context: "fast done"}, nil
	}}
	slow := engine.ToolDefinition{Name: "slow", Execute: func(ctx context.Context, _ json.RawMessage, _ engine.ToolContext) (engine.ToolExecutionResult, error) {
		cancel()
		<-ctx.Done()
		return engine.ToolExecutionResult{}, ctx.Err()
	}}
	return []engine.ToolDefinition{fast, slow}
}

// continueRun starts a run on h from a finished run's history plus a new
// user message, and returns the request p received for it: p has checked
// it with the codec and the validator.
func continueRun(t *testing.T, p *provider, h *harness.Harness, history []traffic.Message) *traffic.Request {
	t.Helper()
	run, err := h.Start(context.Background(), harness.Params{Messages: append(history, userText("go on")),
		Tools: cancellingTools(func() {})})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, run.Events(), nil))
	if run.EndReason() != engine.EndFinal {
		t.Fatalf("continued run ended %s", run.EndReason())
	}
	reqs := p.requests()
	return reqs[len(reqs)-1]
}

// wireTypes renders messages by item type, or role when they have none.
func wireTypes(msgs []traffic.Message) string {
	var s []string
	for _, m := range msgs {
		switch {
		case m.WireType != "":
			s = append(s, m.WireType)
		case len(m.Blocks) == 1 && m.Blocks[0].Type == traffic.BlockToolResult && m.Role == traffic.RoleTool:
			s = append(s, "tool")
		default:
			s = append(s, string(m.Role))
		}
	}
	return strings.Join(s, " ")
}

func systemOf(req *traffic.Request) string {
	var b bytes.Buffer
	for _, s := range req.System {
		b.WriteString(s.Text)
	}
	return b.String()
}

// A routed Responses thought goes on the reasoning channel as its own item
// before the message item it leads, which keeps its own id and phase.
func TestResponsesThoughtRouted(t *testing.T) {
	now := time.Now()
	th, err := engine.NewThought(engine.RawThought{ID: "rs_0", Content: "earlier", CreatedAt: now, UpdatedAt: now,
		Payload: json.RawMessage(encA), ReplayCompatibility: engine.ReplayResponsesReasoning})
	if err != nil {
		t.Fatal(err)
	}
	answer := traffic.Message{Role: traffic.RoleAssistant, WireType: "message", Blocks: []traffic.Block{{Type: traffic.BlockText, WireType: "output_text", Text: "a"}},
		Extra: map[string]json.RawMessage{"id": json.RawMessage(`"msg_0"`), "phase": json.RawMessage(`"final_answer"`)}}
	p := newWireProvider(t, traffic.WireResponses, rDocument(responsesFinalTurn))
	run, err := newResponsesHarness(t, p, false).Start(context.Background(), harness.Params{
		Messages: []traffic.Message{userText("q"), answer, userText("q2")}, Thoughts: []engine.Thought{th}})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, run.Events(), nil))
	want := `{"type":"reasoning","id":"rs_0","summary":[{"type":"summary_text","text":"earlier"}],"encrypted_content":` + encA + `},` +
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}],"id":"msg_0","phase":"final_answer"}`
	if !strings.Contains(p.body(0), want) {
		t.Errorf("first body %s", p.body(0))
	}
}
