package engine

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestMarshalEvent(t *testing.T) {
	h := EventHeader{RunID: "run_1", ParentID: "toolu_9"}
	tests := []struct {
		ev   Event
		want string
	}{
		{StartEvent{EventHeader: EventHeader{RunID: "run_1"}, MaxIterations: 5},
			`{"type":"harness_start","runId":"run_1","maxIterations":5}`},
		{ToolCallEvent{EventHeader: h, ID: "toolu_1", Name: "read", Input: json.RawMessage(`{"q":"a<b && c>d","s":"\u00e9"}`)},
			`{"type":"tool_call","runId":"run_1","parentId":"toolu_9","id":"toolu_1","name":"read","input":{"q":"a<b && c>d","s":"\u00e9"}}`},
		{ToolResultEvent{EventHeader: h, ID: "toolu_1", Name: "read", Context: "<ok>", Result: map[string]int{"n": 2}, IsError: true},
			`{"type":"tool_result","runId":"run_1","parentId":"toolu_9","id":"toolu_1","name":"read","context":"<ok>","result":{"n":2},"isError":true,"output":{"n":2}}`},
		{ToolResultEvent{EventHeader: h, ID: "toolu_2", Name: "read", Context: "<ok>"},
			`{"type":"tool_result","runId":"run_1","parentId":"toolu_9","id":"toolu_2","name":"read","context":"<ok>","output":"<ok>"}`},
		{ReplInputEvent{EventHeader: h, ID: "r1", Code: "print(1<2)", Iteration: 2},
			`{"type":"repl_input","runId":"run_1","parentId":"toolu_9","id":"r1","code":"print(1<2)","iteration":2}`},
		{ReplProgressEvent{EventHeader: h, ID: "r1", Chunk: "Tr", Stream: "stdout"},
			`{"type":"repl_progress","runId":"run_1","parentId":"toolu_9","id":"r1","chunk":"Tr","stream":"stdout"}`},
		{ReplOutputEvent{EventHeader: h, ID: "r1", Stdout: "True\n", Done: true, DurationMs: 12},
			`{"type":"repl_output","runId":"run_1","parentId":"toolu_9","id":"r1","stdout":"True\n","done":true,"durationMs":12}`},
		{UsageEvent{EventHeader: h, TokenUsage: TokenUsage{InputTokens: 3, OutputTokens: 4}},
			`{"type":"usage","runId":"run_1","parentId":"toolu_9","inputTokens":3,"outputTokens":4}`},
		{EndEvent{EventHeader: h, Reason: EndMaxIterations, Iterations: 5, TotalUsage: TokenUsage{InputTokens: 3}},
			`{"type":"harness_end","runId":"run_1","parentId":"toolu_9","reason":"max_iterations","iterations":5,"totalUsage":{"inputTokens":3,"outputTokens":0}}`},
		{ErrorEvent{EventHeader: h, Err: errors.New("HTTP 400: <bad>")},
			`{"type":"error","runId":"run_1","parentId":"toolu_9","error":"HTTP 400: <bad>"}`},
		{NewRelayEvent(h, "relay-1", "toolu_1", "write", json.RawMessage(`{"path":"src/a.go"}`), nil),
			`{"type":"relay","runId":"run_1","parentId":"toolu_9","id":"relay-1","kind":"permission","toolCallId":"toolu_1","tool":"write","params":{"path":"src/a.go"}}`},
	}
	for _, tt := range tests {
		got, err := MarshalEvent(tt.ev)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tt.ev.Type(), got, err, tt.want)
		}
	}
}

func TestRelayRespond(t *testing.T) {
	var got []PermissionResponse
	ev := NewRelayEvent(EventHeader{}, "r", "c", "t", nil, func(r PermissionResponse) { got = append(got, r) })
	ev.Respond(PermissionResponse{Approved: true})
	if len(got) != 1 || !got[0].Approved {
		t.Errorf("responses %+v", got)
	}
	RelayEvent{}.Respond(PermissionResponse{}) // no responder: no panic
}
