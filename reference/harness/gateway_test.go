package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// The gateway surface of docs/reference-model.md, seed 004, in one run:
// derivePermission decides the gate, tool_call comes after the decision,
// tool_progress and the tool's own events reach the consumer, the invoke
// context reaches the model, fileTime is shared, and a tool's result (for the
// application) never reaches the model, only its context does.
func TestGatewaySurface(t *testing.T) {
	p := newProvider(t,
		streamed(turn{thinking: "plan", signature: "c2ln", calls: []call{{"toolu_1", "deploy", `{"target":"staging","force":true}`}, {"toolu_2", "deploy", `{"target":"prod"}`}}}),
		streamed(turn{text: "done"}))
	var ft *engine.FileTime
	tool := engine.ToolDefinition{
		Name: "deploy",
		// Only the target decides: force is not a permission matter.
		DerivePermission: func(args json.RawMessage) (engine.ToolPermission, error) {
			var in struct{ Target string }
			err := json.Unmarshal(args, &in)
			return engine.ToolPermission{Tool: "deploy", Params: map[string]string{"env": in.Target}}, err
		},
		Execute: func(_ context.Context, args json.RawMessage, tc engine.ToolContext) (engine.ToolExecutionResult, error) {
			ft = tc.FileTime
			tc.FileTime.Record("deploy.yaml", time.Unix(1, 0))
			tc.Progress(map[string]int{"percent": 50})
			tc.Emit(engine.ReplOutputEvent{EventHeader: engine.EventHeader{RunID: tc.RunID, ParentID: tc.ParentID}, ID: "r1", Stdout: "ok", Done: true})
			return engine.ToolExecutionResult{Context: "deployed", Result: map[string]string{"secret": "APP-ONLY-7731"}}, nil
		},
	}
	h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: traffic.WireAnthropic, Model: "claude-test", Stream: true,
		Models: []string{"claude-test", "claude-other"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.SupportedModels(); len(got) != 2 {
		t.Errorf("SupportedModels = %v", got)
	}
	run, err := h.Start(context.Background(), harness.Params{
		Messages: []traffic.Message{userText("deploy")}, Tools: []engine.ToolDefinition{tool}, Context: "Deploy window: Tuesdays only.",
		Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "deploy", Params: map[string]string{"env": "staging"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	evs := collect(t, run.Events(), func(r engine.RelayEvent) {
		r.Respond(engine.PermissionResponse{Approved: false, Reason: "not prod"})
	})
	checkEvents(t, evs)
	for _, ev := range evs {
		switch e := ev.(type) {
		case engine.ToolCallEvent:
			order = append(order, "call:"+e.ID)
		case engine.RelayEvent:
			order = append(order, "relay:"+e.ToolCallID)
		case engine.ToolResultEvent:
			order = append(order, "result:"+e.ID)
		case engine.ToolProgressEvent:
			order = append(order, "progress:"+e.ToolCallID)
		case engine.ReplOutputEvent:
			order = append(order, "repl:"+e.ParentID)
		case engine.ReasoningEvent:
			order = append(order, "reasoning")
		}
	}
	want := "reasoning call:toolu_1 progress:toolu_1 repl:toolu_1 result:toolu_1 relay:toolu_2 call:toolu_2 result:toolu_2"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if ft == nil {
		t.Error("the tool got no FileTime")
	} else if _, ok := ft.Read("deploy.yaml"); !ok {
		t.Error("FileTime lost what the tool recorded")
	}
	second := string(p.bodies[1])
	if strings.Contains(second, "APP-ONLY-7731") || !strings.Contains(second, "deployed") {
		t.Errorf("the tool's result reached the model, or its context did not:\n%s", second)
	}
	if !strings.Contains(string(p.bodies[0]), "Deploy window: Tuesdays only.") {
		t.Errorf("the invoke context did not reach the model:\n%s", p.bodies[0])
	}
	if !strings.Contains(second, "Permission denied by the user: not prod") {
		t.Errorf("the refused call is not answered as refused:\n%s", second)
	}
}

func TestRegistry(t *testing.T) {
	p := newProvider(t)
	h := newHarness(t, p)
	var reg harness.Registry
	if err := reg.Register(harness.Info{ID: "ref", Name: "Reference"}, h); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(harness.Info{ID: "ref", Name: "Again"}, h); err == nil {
		t.Error("an id registered twice")
	}
	got, info, ok := reg.Get("ref")
	if !ok || got != h || info.Name != "Reference" || len(info.SupportedModels) != 1 || info.SupportedModels[0] != "claude-test" || info.RegisteredAt.IsZero() {
		t.Errorf("Get: %v %+v %v", got, info, ok)
	}
	if l := reg.List(); len(l) != 1 || l[0].ID != "ref" {
		t.Errorf("List: %+v", l)
	}
	// registeredAt is a Unix number in JSON, as the type of
	// docs/reference-model.md, seed 004 says.
	at := time.UnixMilli(1767359045123).UTC()
	data, err := json.Marshal(harness.Info{ID: "x", Name: "X", RegisteredAt: at})
	if err != nil || string(data) != `{"id":"x","name":"X","registeredAt":1767359045123}` {
		t.Errorf("Info JSON %s %v", data, err)
	}
	var back harness.Info
	if err := json.Unmarshal(data, &back); err != nil || !back.RegisteredAt.Equal(at) {
		t.Errorf("Info read back %+v %v", back, err)
	}
}

// The invoke parameters of docs/reference-model.md, seed 004: model,
// env.parentId and env.spawn(task, parentId) are the caller's to set. The request names the given model,
// every event carries the given parent id, and a tool's Spawn goes to the
// given function with the spawning call's id.
func TestInvokeParams(t *testing.T) {
	p := newProvider(t, streamed(turn{calls: []call{{"toolu_9", "delegate", `{"task":"sum it"}`}}}), streamed(turn{text: "done"}))
	tool := engine.ToolDefinition{Name: "delegate", Execute: func(ctx context.Context, args json.RawMessage, tc engine.ToolContext) (engine.ToolExecutionResult, error) {
		out, err := tc.Spawn(ctx, "sum it")
		return engine.ToolExecutionResult{Context: out}, err
	}}
	var spawned []string
	run, err := newHarness(t, p).Start(context.Background(), harness.Params{
		Model: "claude-other", ParentID: "outer-call-1",
		Spawn: func(_ context.Context, task, parentID string) (string, error) {
			spawned = append(spawned, task+"@"+parentID)
			return "42", nil
		},
		Messages: []traffic.Message{userText("go")}, Tools: []engine.ToolDefinition{tool},
		Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "delegate"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), nil)
	checkEvents(t, evs)
	for _, ev := range evs {
		if h := ev.Run(); h.ParentID != "outer-call-1" {
			t.Errorf("%T carries parentId %q", ev, h.ParentID)
		}
	}
	if len(spawned) != 1 || spawned[0] != "sum it@toolu_9" {
		t.Errorf("spawned %v", spawned)
	}
	for i, req := range p.requests() {
		if req.Model != "claude-other" {
			t.Errorf("request %d names model %q", i, req.Model)
		}
	}
	if !strings.Contains(p.body(1), "42") {
		t.Errorf("the spawn's answer did not reach the model:\n%s", p.body(1))
	}
}
