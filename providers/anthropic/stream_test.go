package anthropic

import (
	"bytes"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// Hand-built stream events, modelled on the recorded ones in the corpus.
const (
	evStart      = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"cache_read_input_tokens":2,"output_tokens":1}}}`
	evThinkStart = `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`
	evThink      = `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Need the weather."}}`
	evSigA       = `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig-a"}}`
	evSigB       = `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"+b/c=="}}`
	evStop0      = `{"type":"content_block_stop","index":0}`
	evToolStart  = `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{}}}`
	evJSONEmpty  = `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`
	evJSON1      = `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Pa"}}`
	evJSON2      = `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ris\"}"}}`
	evStop1      = `{"type":"content_block_stop","index":1}`
	evMsgDelta   = `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}`
	evMsgStop    = `{"type":"message_stop"}`
	evPing       = `{"type": "ping"}`
	evOverloaded = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
)

// sseBody frames data payloads as the API does, naming each event after
// its data's type.
func sseBody(events ...string) []byte {
	var b []byte
	for _, e := range events {
		fields, _ := rawjson.Fields([]byte(e))
		b = sse.Write(b, lookupString(fields, "type"), e)
	}
	return b
}

var goodStream = []string{evStart, evThinkStart, evPing, evThink, evSigA, evSigB, evStop0,
	evToolStart, evJSONEmpty, evJSON1, evJSON2, evStop1, evMsgDelta, evMsgStop}

// want is what a table case expects of a decoded stream.
type want struct {
	issues    []string // "CHECK@EVENT: substring of the message", in order
	complete  bool
	truncated bool
	errType   string
	// incomplete is each output block's Incomplete flag; nil skips it.
	incomplete []bool
	check      func(t *testing.T, r *traffic.Response)
}

func TestStreamGrammar(t *testing.T) {
	cases := []struct {
		name   string
		events []string
		want   want
	}{
		{"well formed", goodStream, want{complete: true, incomplete: []bool{false, false}, check: func(t *testing.T, r *traffic.Response) {
			b := blocks(t, r, 2)
			eq(t, "thinking text", b[0].Text, "Need the weather.")
			eq(t, "signature", string(b[0].Signature), `"sig-a+b/c=="`)
			eq(t, "input", string(b[1].Input), `{"city": "Paris"}`)
			eq(t, "id", b[1].ID, "toolu_01A")
			eq(t, "paths", b[0].Path+" "+b[1].Path, "content[0] content[1]")
			eq(t, "stop reason", r.StopReason, "tool_use")
			eq(t, "usage", *r.Usage, traffic.Usage{InputTokens: 5, OutputTokens: 89, CacheReadTokens: 2})
			eq(t, "id", r.ID, "msg_1")
		}}},
		{"cut inside tool input", goodStream[:10], want{
			issues:     []string{"ANT-STREAM-001@9: without message_stop (10 events read); content[1] (index 1, tool_use) never stopped"},
			truncated:  true,
			incomplete: []bool{false, true},
			check: func(t *testing.T, r *traffic.Response) {
				b := blocks(t, r, 2)
				eq(t, "signature", string(b[0].Signature), `"sig-a+b/c=="`)
				eq(t, "input (the SDK's {} for input that does not parse)", string(b[1].Input), `{}`)
				eq(t, "partial", r.Stream.Partial, []int{0})
			}}},
		{"cut inside thinking", []string{evStart, evThinkStart, evThink}, want{
			issues:     []string{"ANT-STREAM-001@2: content[0] (index 0, thinking) never stopped"},
			truncated:  true,
			incomplete: []bool{true},
			check: func(t *testing.T, r *traffic.Response) {
				b := blocks(t, r, 1)
				eq(t, "thinking text", b[0].Text, "Need the weather.")
				eq(t, "signature stays empty", string(b[0].Signature), `""`)
			}}},
		{"error event in a 200", []string{evStart, evThinkStart, evThink, evOverloaded}, want{
			errType:    "overloaded_error",
			incomplete: []bool{true},
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "response error", r.Error, r.Stream.Error)
				eq(t, "message", r.Error.Message, "Overloaded")
				eq(t, "signature", string(blocks(t, r, 1)[0].Signature), `""`)
				eq(t, "partial", r.Stream.Partial, []int{0})
			}}},
		{"error event inside tool input", []string{evStart, evThinkStart, evThink, evSigA, evStop0, evToolStart, evJSON1, evOverloaded}, want{
			errType:    "overloaded_error",
			incomplete: []bool{false, true},
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "input (the SDK's {} for input that does not parse)", string(blocks(t, r, 2)[1].Input), `{}`)
			}}},
		{"error event before anything", []string{evOverloaded}, want{errType: "overloaded_error"}},
		{"events after message_stop", append(append([]string{}, goodStream...), evThinkStart, evPing), want{
			issues:   []string{"ANT-STREAM-001@14: content_block_start after message_stop; ignored"},
			complete: true,
		}},
		{"events after the error event", []string{evStart, evOverloaded, evMsgStop}, want{
			issues:  []string{"ANT-STREAM-001@2: message_stop after the error event"},
			errType: "overloaded_error",
		}},
		{"no message_start", goodStream[1:], want{
			issues:   []string{"ANT-STREAM-001@0: content_block_start before message_start"},
			complete: true,
		}},
		{"only pings", []string{evPing, evPing}, want{
			issues:    []string{"ANT-STREAM-001@1: no message_start", "ANT-STREAM-001@1: ended without message_stop (2 events read)"},
			truncated: true,
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "output", len(r.Output), 0)
			}}},
		{"index gap", []string{evStart, evThinkStart, evStop0,
			`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"hi"}}`,
			`{"type":"content_block_stop","index":2}`, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-002@3: content_block_start for index 2, expected index 1"},
			complete: true,
			check: func(t *testing.T, r *traffic.Response) {
				b := blocks(t, r, 2)
				eq(t, "text", b[1].Text, "hi")
				eq(t, "path", b[1].Path, "content[1]")
			}}},
		{"index started twice", []string{evStart, evThinkStart, evThinkStart, evStop0, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-002@2: index 0, which was already started"},
			complete: true,
		}},
		{"delta for a block never started", []string{evStart, evThink, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-002@1: content_block_delta for index 0, which was never started"},
			complete: true,
		}},
		{"stop for a block never started", []string{evStart, evStop1, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-002@1: content_block_stop for index 1, which was never started"},
			complete: true,
		}},
		{"delta after stop", []string{evStart, evThinkStart, evSigA, evStop0, evThink, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-002@4: thinking_delta for index 0 (content[0]) after its content_block_stop"},
			complete: true,
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "applied as the SDK does", blocks(t, r, 1)[0].Text, "Need the weather.")
			}}},
		{"signature_delta after stop", []string{evStart, evThinkStart, evThink, evStop0, evSigA, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-003@4: signature_delta for index 0 (content[0]) after its content_block_stop"},
			complete: true,
		}},
		{"second stop", []string{evStart, evThinkStart, evSigA, evStop0, evStop0, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-002@4: a second content_block_stop for index 0"},
			complete: true,
		}},
		{"text_delta on a thinking block", []string{evStart, evThinkStart,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`, evSigA, evStop0, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-003@2: text_delta on a thinking block (index 0, content[0]); ignored"},
			complete: true,
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "thinking text", blocks(t, r, 1)[0].Text, "")
			}}},
		{"signature_delta on a tool_use block", []string{evStart, evThinkStart, evStop0, evToolStart,
			`{"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"x"}}`, evStop1, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-003@4: signature_delta on a tool_use block"},
			complete: true,
		}},
		{"input_json_delta on a redacted_thinking block", []string{evStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwK"}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`, evStop0, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-003@2: input_json_delta on a redacted_thinking block"},
			complete: true,
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "data", string(blocks(t, r, 1)[0].Data), `"EmwK"`)
			}}},
		{"partial JSON that does not parse", []string{evStart, evThinkStart, evStop0, evToolStart, evJSON1, evStop1, evMsgDelta, evMsgStop}, want{
			issues:     []string{`ANT-STREAM-004@5: tool_use (index 1, content[1]): partial_json does not parse as JSON: "{\"city\": \"Pa"`},
			complete:   true,
			incomplete: []bool{false, true},
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "input", string(blocks(t, r, 2)[1].Input), `{}`)
			}}},
		{"partial JSON that is an array", []string{evStart, evThinkStart, evStop0, evToolStart,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"[1]"}}`, evStop1, evMsgDelta, evMsgStop}, want{
			issues:     []string{"ANT-STREAM-004@5: partial_json concatenates to an array, not an object"},
			complete:   true,
			incomplete: []bool{false, false}, // whole, only the wrong kind
		}},
		{"server_tool_use input that does not parse", []string{evStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"wea"}}`,
			evStop0, evMsgDelta, evMsgStop}, want{
			issues:     []string{"ANT-STREAM-004@3: server_tool_use (index 0, content[0]): partial_json does not parse as JSON"},
			complete:   true,
			incomplete: []bool{true},
		}},
		{"only empty partial JSON", []string{evStart, evThinkStart, evStop0, evToolStart, evJSONEmpty, evStop1, evMsgDelta, evMsgStop}, want{
			complete:   true,
			incomplete: []bool{false, false},
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "input", string(blocks(t, r, 2)[1].Input), `{}`)
			}}},
		{"no message_delta", []string{evStart, evThinkStart, evStop0, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-001@3: message_stop without a message_delta"},
			complete: true,
		}},
		{"message_stop with a block open", []string{evStart, evThinkStart, evThink, evMsgDelta, evMsgStop}, want{
			issues:     []string{"ANT-STREAM-001@4: message_stop while content[0] (index 0, thinking) never stopped"},
			incomplete: []bool{true},
			check: func(t *testing.T, r *traffic.Response) {
				eq(t, "partial", r.Stream.Partial, []int{0})
			}}},
		{"data that is not JSON", []string{evStart, `{"type":"content_block_start","index":0,`, evMsgDelta, evMsgStop}, want{
			issues:   []string{"ANT-STREAM-001@1: unnamed event: data is not a JSON object"},
			complete: true,
		}},
		{"interleaved open blocks", []string{evStart, evThinkStart, evToolStart, evJSON1, evThink, evJSON2, evSigA, evStop1, evStop0, evMsgDelta, evMsgStop}, want{
			complete:   true,
			incomplete: []bool{false, false},
			check: func(t *testing.T, r *traffic.Response) {
				b := blocks(t, r, 2)
				eq(t, "input", string(b[1].Input), `{"city": "Paris"}`)
				eq(t, "signature", string(b[0].Signature), `"sig-a"`)
			}}},
		{"unknown event and delta types", []string{evStart, `{"type":"future_event","x":1}`, evThinkStart,
			`{"type":"content_block_delta","index":0,"delta":{"type":"future_delta","x":1}}`, evSigA, evStop0, evMsgDelta, evMsgStop}, want{
			complete: true,
		}},
		{"padded data payloads", []string{`  ` + evStart + `    `, evThinkStart + "\t ", evSigA, evStop0, evMsgDelta, evMsgStop}, want{
			complete: true,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := Codec{}.DecodeResponse(200, http.Header{}, sseBody(c.events...))
			if err != nil {
				t.Fatalf("DecodeResponse: %v", err)
			}
			checkStream(t, resp, c.want)
		})
	}
}

// checkStream compares a decoded stream with want.
func checkStream(t *testing.T, resp *traffic.Response, w want) {
	t.Helper()
	st := resp.Stream
	if st == nil {
		t.Fatal("no Stream")
	}
	var got []string
	for _, is := range st.Issues {
		got = append(got, is.Check+": "+is.Message)
	}
	if len(got) != len(w.issues) {
		t.Fatalf("issues:\n got  %q\n want %q", got, w.issues)
	}
	for i, wi := range w.issues {
		where, sub, _ := strings.Cut(wi, ": ")
		check, ev, _ := strings.Cut(where, "@")
		is := st.Issues[i]
		if is.Check != check || strconv.Itoa(is.Event) != ev || !strings.Contains(is.Message, sub) {
			t.Errorf("issue %d:\n got  %s@%d: %s\n want %s", i, is.Check, is.Event, is.Message, wi)
		}
	}
	eq(t, "Complete", st.Complete, w.complete)
	eq(t, "Truncated", st.Truncated, w.truncated)
	if w.errType == "" && st.Error != nil {
		t.Errorf("unexpected stream error %+v", st.Error)
	}
	if w.errType != "" && (st.Error == nil || st.Error.Type != w.errType || resp.Error != st.Error) {
		t.Errorf("stream error = %+v, response error = %+v, want type %s on both", st.Error, resp.Error, w.errType)
	}
	if st.Complete && len(st.Partial) > 0 {
		t.Errorf("a complete stream lists partial output %v", st.Partial)
	}
	if !st.Complete && len(resp.Output) > 0 && len(st.Partial) == 0 {
		t.Error("an incomplete stream does not list its output as partial")
	}
	if w.incomplete != nil {
		var got []bool
		for _, m := range resp.Output {
			for _, b := range m.Blocks {
				got = append(got, b.Incomplete)
			}
		}
		eq(t, "Incomplete flags", got, w.incomplete)
	}
	if w.check != nil {
		w.check(t, resp)
	}
}

func blocks(t *testing.T, r *traffic.Response, n int) []traffic.Block {
	t.Helper()
	if len(r.Output) != 1 || len(r.Output[0].Blocks) != n {
		t.Fatalf("want one message with %d blocks, got %+v", n, r.Output)
	}
	return r.Output[0].Blocks
}

func eq[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

// TestStreamJSONL checks that a body of bare JSON events (the vercel
// fixtures) decodes exactly as the same events framed as SSE.
func TestStreamJSONL(t *testing.T) {
	jsonl := []byte(strings.Join(goodStream, "\n"))
	a, err := Codec{}.DecodeResponse(200, nil, jsonl)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Codec{}.DecodeResponse(200, nil, sseBody(goodStream...))
	if err != nil {
		t.Fatal(err)
	}
	a.Stream.Offsets, b.Stream.Offsets = nil, nil
	eq(t, "response", a, b)
}

// TestStreamOneLine checks that a single JSONL event is a cut stream, not
// an empty message document.
func TestStreamOneLine(t *testing.T) {
	resp, err := Codec{}.DecodeResponse(200, nil, []byte(evStart+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, resp, want{truncated: true, issues: []string{"ANT-STREAM-001@0: ended without message_stop (1 events read)"}})
	eq(t, "id", resp.ID, "msg_1")
}

// TestStreamOffsets checks that each event's offset points at its first line.
func TestStreamOffsets(t *testing.T) {
	body := sseBody(goodStream...)
	resp, err := Codec{}.DecodeResponse(200, nil, body)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "events", resp.Stream.Events, len(goodStream))
	for i, off := range resp.Stream.Offsets {
		if !bytes.HasPrefix(body[off:], []byte("event: ")) {
			t.Errorf("offset %d of event %d does not start an event: %q", off, i, body[off:off+10])
		}
	}
}

// TestStreamServerTools checks server tool blocks: input_json_delta rebuilds
// server_tool_use's input, and a result block is kept byte for byte.
func TestStreamServerTools(t *testing.T) {
	result := `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{"type":"web_search_result","title":"A <b> & c","url":"https://x","encrypted_content":"Ev8L+/==","page_age":null}]}`
	body := sseBody(evStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\": "}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"sf <weather>\"}"}}`,
		evStop0,
		`{"type":"content_block_start","index":1,"content_block":`+result+`   }`,
		evStop1,
		`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Sunny"}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"https://x"}}}`,
		`{"type":"content_block_stop","index":2}`,
		evMsgDelta, evMsgStop)
	resp, err := Codec{}.DecodeResponse(200, nil, body)
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, resp, want{complete: true})
	b := blocks(t, resp, 3)
	eq(t, "server_tool_use", string(b[0].Raw), `{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{"query": "sf <weather>"}}`)
	eq(t, "web_search_tool_result", string(b[1].Raw), result)
	eq(t, "types", []traffic.BlockType{b[0].Type, b[1].Type}, []traffic.BlockType{traffic.BlockOther, traffic.BlockOther})
	eq(t, "citations", string(b[2].Extra["citations"]), `[{"type":"web_search_result_location","url":"https://x"}]`)
}
