package openai_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/openai"
	"github.com/llmtck/llmtck/traffic"
)

// sseBody joins data payloads into an event stream, one event each.
func sseBody(payloads ...string) []byte {
	var b bytes.Buffer
	for _, p := range payloads {
		b.WriteString("data: " + p + "\n\n")
	}
	return b.Bytes()
}

// Chunks of a well-formed tool-call stream, shaped like the OpenAI ones in the corpus.
const (
	cStart  = `{"id":"c1","model":"gpt-x","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}`
	cArgs1  = `{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]},"finish_reason":null}]}`
	cArgs2  = `{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]},"finish_reason":null}]}`
	cFinish = `{"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`
	cUsage  = `{"id":"c1","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"completion_tokens_details":{"reasoning_tokens":2}}}`
	cDone   = `[DONE]`
)

type wantIssue struct {
	event int
	text  string // a substring of the message
}

func TestStreamFaults(t *testing.T) {
	tests := []struct {
		name      string
		body      []byte
		complete  bool
		truncated bool
		errMsg    string // Stream.Error.Message, "" for none
		issues    []wantIssue
		// incomplete is each tool call's Incomplete flag; nil skips it.
		incomplete []bool
		check      func(t *testing.T, r *traffic.Response)
	}{{
		name:       "well formed",
		body:       sseBody(cStart, cArgs1, cArgs2, cFinish, cUsage, cDone),
		complete:   true,
		incomplete: []bool{false},
		check: func(t *testing.T, r *traffic.Response) {
			b := onlyCall(t, r)
			if b.ID != "call_a" || b.Name != "get_weather" || string(b.Input) != `"{\"city\":\"Paris\"}"` {
				t.Errorf("call = %s %s %s", b.ID, b.Name, b.Input)
			}
			if string(b.Extra["type"]) != `"function"` {
				t.Errorf("type extra = %s", b.Extra["type"])
			}
			if r.StopReason != "tool_calls" || r.ID != "c1" || r.Model != "gpt-x" {
				t.Errorf("stop %q id %q model %q", r.StopReason, r.ID, r.Model)
			}
			if r.Usage == nil || r.Usage.InputTokens != 10 || r.Usage.OutputTokens != 5 || r.Usage.ReasoningTokens != 2 {
				t.Errorf("usage = %+v", r.Usage)
			}
			if !r.Output[0].ContentNull || r.Output[0].Path != "choices[0].message" || b.Path != "choices[0].message.tool_calls[0]" {
				t.Errorf("message = %+v", r.Output[0])
			}
		},
	}, {
		name:       "no [DONE]: truncated",
		body:       sseBody(cStart, cArgs1, cArgs2, cFinish),
		truncated:  true,
		issues:     []wantIssue{{4, "stream ended without data: [DONE]"}},
		incomplete: []bool{false}, // cut after its finish_reason: the call is whole
	}, {
		name:       "cut inside the arguments",
		body:       sseBody(cStart, cArgs1),
		truncated:  true,
		incomplete: []bool{true},
		issues: []wantIssue{
			{2, "stream ended without data: [DONE]"},
			{1, `choice 0 tool call 0 (call_a) arguments are not valid JSON: "{\"city\":"`},
		},
	}, {
		name:       "error payload inside a 200",
		body:       sseBody(cStart, `{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}`),
		errMsg:     "The server had an error",
		incomplete: []bool{true},
	}, {
		name:   "OpenRouter error chunk then [DONE]",
		body:   sseBody(`{"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}`, `{"id":"gen-1","object":"chat.completion.chunk","error":{"code":502,"message":"Provider returned error"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`, cDone),
		errMsg: "Provider returned error",
		check: func(t *testing.T, r *traffic.Response) {
			if r.Stream.Error.Code != "502" || r.Error != r.Stream.Error {
				t.Errorf("error = %+v / %+v", r.Stream.Error, r.Error)
			}
			if got := r.Output[0].Blocks[0].Text; got != "Hel" {
				t.Errorf("partial text = %q", got)
			}
		},
	}, {
		name: "fragment without index",
		body: sseBody(cStart,
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"{}"}}]},"finish_reason":null}]}`,
			cFinish, cDone),
		complete: true,
		issues:   []wantIssue{{1, "choice 0 tool_calls[0] has no index; read as tool call 0"}},
		check: func(t *testing.T, r *traffic.Response) {
			if b := onlyCall(t, r); string(b.Input) != `"{}"` {
				t.Errorf("input = %s", b.Input)
			}
		},
	}, {
		name: "first fragment without id",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}`,
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_late","function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			cDone),
		complete: true,
		issues:   []wantIssue{{0, "choice 0 tool call 0 starts without id"}},
		check: func(t *testing.T, r *traffic.Response) {
			if b := onlyCall(t, r); b.ID != "call_late" {
				t.Errorf("id = %q, want the later fragment's", b.ID)
			}
		},
	}, {
		name: "id and name change within one index",
		body: sseBody(cStart,
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_b","function":{"name":"other","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			cDone),
		complete: true,
		issues: []wantIssue{
			{1, `choice 0 tool call 0: id changes from "call_a" to "call_b"`},
			{1, `choice 0 tool call 0: name changes from "get_weather" to "other"`},
		},
		check: func(t *testing.T, r *traffic.Response) {
			if b := onlyCall(t, r); b.ID != "call_a" || b.Name != "get_weather" {
				t.Errorf("kept %q %q, want the first fragment's", b.ID, b.Name)
			}
		},
	}, {
		name: "index gap",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_x","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			cDone),
		complete: true,
		issues:   []wantIssue{{0, "choice 0 tool call index 1 skips index 0"}},
		check: func(t *testing.T, r *traffic.Response) {
			if b := onlyCall(t, r); b.Path != "choices[0].message.tool_calls[0]" {
				t.Errorf("path = %q", b.Path)
			}
		},
	}, {
		name: "index -1 (Bedrock)",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":-1,"id":"call_x","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			cDone),
		complete: true,
		issues:   []wantIssue{{0, "has index -1; openai-go reads it as 0"}},
	}, {
		name: "finish_reason tool_calls without a tool call",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}`,
			cFinish, cDone),
		complete: true,
		issues:   []wantIssue{{2, "choice 0 finished with tool_calls but streamed no tool call"}},
	}, {
		name: "[DONE] without a finish_reason",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}`,
			cDone),
		complete: true,
		issues:   []wantIssue{{1, "choice 0 ended without a finish_reason"}},
	}, {
		name: "forced tool_choice ends with stop: not an issue",
		body: sseBody(cStart, cArgs1, cArgs2,
			`{"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, cDone),
		complete: true,
	}, {
		name:     "payload that is not JSON",
		body:     sseBody(cStart, `{"id":"c1","choices":[`, cArgs1, cArgs2, cFinish, cDone),
		complete: true,
		issues:   []wantIssue{{1, `data is not a JSON object: "{\"id\":\"c1\",\"choices\":["`}},
	}, {
		name:     "chunk of the wrong shape",
		body:     sseBody(cStart, `{"id":"c1","choices":[{"index":0,"delta":{"content":5}}]}`, cArgs1, cArgs2, cFinish, cDone),
		complete: true,
		issues:   []wantIssue{{1, "delta.content: expected a string or a list of parts, found a number"}},
	}, {
		name:     "event after [DONE]",
		body:     sseBody(cStart, cArgs1, cArgs2, cFinish, cDone, cUsage),
		complete: true,
		issues:   []wantIssue{{5, "event after [DONE]"}},
	}, {
		name:     "chunk from another completion",
		body:     sseBody(cStart, strings.Replace(cArgs1, `"c1"`, `"c2"`, 1), cArgs2, cFinish, cDone),
		complete: true,
		issues: []wantIssue{
			{1, `chunk id "c2" differs from the stream's id "c1"`},
			{4, `arguments are not valid JSON: "\"Paris\"}"`},
		},
	}, {
		name: "comments, padding and obfuscation are ignored",
		body: []byte(": OPENROUTER PROCESSING\n\n" +
			"data:  { \"id\" : \"c1\", \"obfuscation\":\"x9\", \"choices\" : [ {\"index\":0, \"delta\": {\"role\":\"assistant\",\"content\":\"ok\"}, \"finish_reason\":null} ] } \n\n" +
			": keep-alive\n\n" +
			"data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\r\n\r\n" +
			"data: [DONE]"), // no final newline: a recorder trimmed it
		complete: true,
		check: func(t *testing.T, r *traffic.Response) {
			if r.Stream.Events != 3 || len(r.Stream.Offsets) != 3 || r.Stream.Offsets[0] != 25 {
				t.Errorf("events %d offsets %v", r.Stream.Events, r.Stream.Offsets)
			}
			if !r.Output[0].ContentString || r.Output[0].Blocks[0].Text != "ok" {
				t.Errorf("message = %+v", r.Output[0])
			}
		},
	}, {
		name: "parallel calls interleaved, Gemini extra_content kept byte for byte",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"a","arguments":""},"extra_content":{"google":{"thought_signature":"CiQB+/x=="}}}]},"finish_reason":null}]}`,
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"b","arguments":"{\"n\":"}}]},"finish_reason":null}]}`,
			`{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}},{"index":1,"function":{"arguments":"1}"}}]},"finish_reason":null}]}`,
			cFinish, cDone),
		complete: true,
		check: func(t *testing.T, r *traffic.Response) {
			bl := r.Output[0].Blocks
			if len(bl) != 2 || bl[0].ID != "call_0" || string(bl[0].Input) != `"{}"` || bl[1].ID != "call_1" || string(bl[1].Input) != `"{\"n\":1}"` {
				t.Fatalf("blocks = %+v", bl)
			}
			if got := string(bl[0].Extra["extra_content"]); got != `{"google":{"thought_signature":"CiQB+/x=="}}` {
				t.Errorf("extra_content = %s", got)
			}
		},
	}, {
		name: "DeepSeek reasoning_content comes first",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"Think"},"finish_reason":null}]}`,
			`{"id":"c1","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"ing."},"finish_reason":null}]}`,
			`{"id":"c1","choices":[{"index":0,"delta":{"content":"Answer","reasoning_content":null},"finish_reason":"stop"}]}`,
			cDone),
		complete: true,
		check: func(t *testing.T, r *traffic.Response) {
			bl := r.Output[0].Blocks
			if len(bl) != 2 || bl[0].Type != traffic.BlockThinking || bl[0].Text != "Thinking." || bl[0].WireType != "reasoning_content" || bl[1].Text != "Answer" {
				t.Errorf("blocks = %+v", bl)
			}
		},
	}, {
		name: "two choices, refusal and legacy function_call",
		body: sseBody(
			`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","refusal":"I can"},"finish_reason":null},{"index":1,"delta":{"role":"assistant","function_call":{"name":"f","arguments":"{\"a\""}},"finish_reason":null}]}`,
			`{"id":"c1","choices":[{"index":0,"delta":{"refusal":"not."},"finish_reason":"stop"},{"index":1,"delta":{"function_call":{"arguments":":1}"}},"finish_reason":"function_call"}]}`,
			cDone),
		complete: true,
		check: func(t *testing.T, r *traffic.Response) {
			if len(r.Output) != 2 || r.StopReason != "stop" {
				t.Fatalf("outputs %d stop %q", len(r.Output), r.StopReason)
			}
			if got := string(r.Output[0].Extra["refusal"]); got != `"I cannot."` {
				t.Errorf("refusal = %s", got)
			}
			if got := string(r.Output[1].Extra["function_call"]); got != `{"name":"f","arguments":"{\"a\":1}"}` {
				t.Errorf("function_call = %s", got)
			}
			if r.Output[1].Path != "choices[1].message" {
				t.Errorf("path = %q", r.Output[1].Path)
			}
		},
	}, {
		name:      "only comments: cut before any data",
		body:      []byte(": OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\n"),
		truncated: true,
		issues:    []wantIssue{{0, "stream ended without data: [DONE]"}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := openai.Codec{}.DecodeResponse(200, nil, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			s := r.Stream
			if s == nil {
				t.Fatal("no Stream")
			}
			if s.Complete != tc.complete || s.Truncated != tc.truncated {
				t.Errorf("complete=%v truncated=%v, want %v %v", s.Complete, s.Truncated, tc.complete, tc.truncated)
			}
			if tc.errMsg == "" && s.Error != nil || tc.errMsg != "" && (s.Error == nil || s.Error.Message != tc.errMsg) {
				t.Errorf("stream error = %+v, want %q", s.Error, tc.errMsg)
			}
			if s.Error != nil && s.Complete {
				t.Error("a stream with an error event is marked complete")
			}
			assertIssues(t, s.Issues, tc.issues)
			if tc.incomplete != nil {
				var got []bool
				for _, m := range r.Output {
					for _, b := range m.Blocks {
						if b.Type == traffic.BlockToolCall {
							got = append(got, b.Incomplete)
						}
					}
				}
				if !slices.Equal(got, tc.incomplete) {
					t.Errorf("tool calls Incomplete = %v, want %v", got, tc.incomplete)
				}
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func assertIssues(t *testing.T, got []traffic.StreamIssue, want []wantIssue) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("issues = %+v, want %d", got, len(want))
		return
	}
	for i, w := range want {
		g := got[i]
		if g.Check != "OAI-STREAM-001" || g.Event != w.event || !strings.Contains(g.Message, w.text) {
			t.Errorf("issue %d = %+v, want event %d containing %q", i, g, w.event, w.text)
		}
	}
}

// onlyCall returns the single tool call of a single-choice response.
func onlyCall(t *testing.T, r *traffic.Response) traffic.Block {
	t.Helper()
	var calls []traffic.Block
	for _, b := range r.Output[0].Blocks {
		if b.Type == traffic.BlockToolCall {
			calls = append(calls, b)
		}
	}
	if len(r.Output) != 1 || len(calls) != 1 {
		t.Fatalf("outputs %d, calls %+v", len(r.Output), calls)
	}
	return calls[0]
}

// The arguments token of a reassembled call is what the wire would carry
// in a non-streamed response, so an echo can be compared byte for byte.
func TestStreamArgumentsMatchDocument(t *testing.T) {
	doc := []byte(`{"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}]}`)
	d, err := openai.Codec{}.DecodeResponse(200, nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := openai.Codec{}.DecodeResponse(200, nil, sseBody(cStart, cArgs1, cArgs2, cFinish, cDone))
	if err != nil {
		t.Fatal(err)
	}
	a, b := d.Output[0].Blocks[0], s.Output[0].Blocks[0]
	if !bytes.Equal(a.Input, b.Input) || a.ID != b.ID || a.Name != b.Name || !rawjson.Equal(a.Extra["type"], b.Extra["type"]) {
		t.Errorf("document call %+v\nstream call   %+v", a, b)
	}
}

// Mistral streams content as a list of parts: text parts are the answer,
// thinking parts (lists of text) the reasoning. Both are read, no issue.
func TestStreamMistralContentParts(t *testing.T) {
	resp, err := openai.Codec{}.DecodeResponse(200, nil, sseBody(
		`{"id":"m1","object":"chat.completion.chunk","model":"magistral-medium-2507","choices":[{"index":0,"delta":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"2+2"}]}]},"finish_reason":null}]}`,
		`{"id":"m1","object":"chat.completion.chunk","model":"magistral-medium-2507","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":" is 4."}]}]},"finish_reason":null}]}`,
		`{"id":"m1","object":"chat.completion.chunk","model":"magistral-medium-2507","choices":[{"index":0,"delta":{"content":[{"type":"text","text":"4"}]},"finish_reason":"stop"}]}`,
		`[DONE]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Stream.Issues) != 0 {
		t.Fatalf("issues: %+v", resp.Stream.Issues)
	}
	var text, reasoning string
	for _, b := range resp.Output[0].Blocks {
		switch b.Type {
		case traffic.BlockText:
			text += b.Text
		case traffic.BlockReasoning, traffic.BlockThinking:
			reasoning += b.Text
		}
	}
	if text != "4" || reasoning != "2+2 is 4." {
		t.Errorf("text %q reasoning %q", text, reasoning)
	}
}
