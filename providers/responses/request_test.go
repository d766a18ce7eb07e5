package responses

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// A stateless tool loop as a harness sends it: every item kind the model
// interprets, plus one it does not, with escapes inside the opaque tokens.
const loopBody = `{
 "model": "gpt-5",
 "instructions": "Be brief <b>&</b>",
 "input": [
  {"role": "system", "content": [{"type": "input_text", "text": "sys"}]},
  {"role": "user", "content": "What is the weather in Paris?"},
  {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Plan"}, {"type": "summary_text", "text": "Call"}],
   "encrypted_content": "gAAAA\u002Bb/c==", "content": [{"type": "reasoning_text", "text": "raw"}], "status": "completed"},
  {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "phase": "commentary",
   "content": [{"type": "output_text", "text": "Checking.", "annotations": []}, {"type": "refusal", "refusal": "no"}]},
  {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\",\"n\":1.50}", "status": "completed"},
  {"type": "function_call_output", "call_id": "call_1", "output": "{\"temp_c\":21}"},
  {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "x"}},
  {"type": "item_reference", "id": "msg_0"},
  {"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,iVBOR", "detail": "low"},
   {"type": "input_file", "file_data": "data:application/pdf;base64,JVBER", "filename": "a.pdf"}]}
 ],
 "tools": [{"type": "function", "name": "get_weather", "description": null, "parameters": {"type": "object"}, "strict": true},
           {"type": "web_search"}],
 "tool_choice": "auto",
 "reasoning": {"effort": "low", "summary": "detailed"},
 "include": ["reasoning.encrypted_content"],
 "store": false,
 "max_output_tokens": 1000,
 "stream": false,
 "temperature": 1.0,
 "previous_response_id": null
}`

func TestDecodeRequestItems(t *testing.T) {
	req, err := Codec{}.DecodeRequest([]byte(loopBody))
	if err != nil {
		t.Fatal(err)
	}
	if req.Model != "gpt-5" || req.Stream || req.MaxTokens != 1000 || req.Store == nil || *req.Store {
		t.Errorf("top level: model=%q stream=%t max=%d store=%v", req.Model, req.Stream, req.MaxTokens, req.Store)
	}
	if !req.SystemString || len(req.System) != 1 || req.System[0].Text != "Be brief <b>&</b>" {
		t.Errorf("system: %+v", req.System)
	}
	if req.Thinking == nil || req.Thinking.Type != "enabled" || string(req.Thinking.Raw) != `{"effort": "low", "summary": "detailed"}` {
		t.Errorf("thinking: %+v", req.Thinking)
	}
	if diff := cmp.Diff([]string{"reasoning.encrypted_content"}, req.Include); diff != "" {
		t.Errorf("include: %s", diff)
	}
	for _, k := range []string{"stream", "temperature", "previous_response_id"} {
		if req.Extra[k] == nil {
			t.Errorf("Extra lacks %q: %v", k, req.Extra)
		}
	}
	if len(req.Tools) != 2 || req.Tools[0].Name != "get_weather" || string(req.Tools[0].Schema) != `{"type": "object"}` || req.Tools[1].Name != "" {
		t.Errorf("tools: %+v", req.Tools)
	}

	want := []struct {
		role      traffic.Role
		wire      string
		blocks    []traffic.BlockType
		path      string
		firstPath string
	}{
		{traffic.RoleSystem, "", []traffic.BlockType{traffic.BlockText}, "input[0]", "input[0].content[0]"},
		{traffic.RoleUser, "", []traffic.BlockType{traffic.BlockText}, "input[1]", "input[1].content"},
		{traffic.RoleAssistant, "reasoning", []traffic.BlockType{traffic.BlockReasoning}, "input[2]", "input[2]"},
		{traffic.RoleAssistant, "message", []traffic.BlockType{traffic.BlockText, traffic.BlockOther}, "input[3]", "input[3].content[0]"},
		{traffic.RoleAssistant, "function_call", []traffic.BlockType{traffic.BlockToolCall}, "input[4]", "input[4]"},
		{traffic.RoleTool, "function_call_output", []traffic.BlockType{traffic.BlockToolResult}, "input[5]", "input[5]"},
		{traffic.RoleAssistant, "web_search_call", []traffic.BlockType{traffic.BlockOther}, "input[6]", "input[6]"},
		{"", "item_reference", []traffic.BlockType{traffic.BlockOther}, "input[7]", "input[7]"},
		{traffic.RoleUser, "", []traffic.BlockType{traffic.BlockImage, traffic.BlockDocument}, "input[8]", "input[8].content[0]"},
	}
	if len(req.Messages) != len(want) {
		t.Fatalf("%d messages, want %d", len(req.Messages), len(want))
	}
	for i, w := range want {
		m := req.Messages[i]
		var types []traffic.BlockType
		for _, b := range m.Blocks {
			types = append(types, b.Type)
		}
		if m.Role != w.role || m.WireType != w.wire || m.Path != w.path || !cmp.Equal(types, w.blocks) || m.Blocks[0].Path != w.firstPath {
			t.Errorf("input[%d] = role %q wire %q path %q blocks %v first %q; want %+v", i, m.Role, m.WireType, m.Path, types, m.Blocks[0].Path, w)
		}
	}

	rs := req.Messages[2].Blocks[0]
	if rs.ItemID != "rs_1" || string(rs.EncryptedContent) != `"gAAAA\u002Bb/c=="` || rs.Text != "Plan\n\nCall" || len(rs.Content) != 2 ||
		rs.Content[1].Path != "input[2].summary[1]" || rs.Extra["content"] == nil || string(rs.Extra["status"]) != `"completed"` {
		t.Errorf("reasoning block: %+v", rs)
	}
	if ItemID(req.Messages[3]) != "msg_1" || string(req.Messages[3].Extra["phase"]) != `"commentary"` {
		t.Errorf("message item id/extra: %v", req.Messages[3].Extra)
	}
	if b := req.Messages[3].Blocks[0]; b.WireType != "output_text" || b.Extra["annotations"] == nil {
		t.Errorf("output_text part: %+v", b)
	}
	fc := req.Messages[4].Blocks[0]
	if fc.ItemID != "fc_1" || fc.ID != "call_1" || fc.Name != "get_weather" || string(fc.Input) != `"{\"city\":\"Paris\",\"n\":1.50}"` || string(fc.Extra["status"]) != `"completed"` {
		t.Errorf("function_call block: %+v", fc)
	}
	out := req.Messages[5].Blocks[0]
	if out.ToolCallID != "call_1" || string(out.ResultRaw) != `"{\"temp_c\":21}"` {
		t.Errorf("function_call_output block: %+v", out)
	}
	if ItemID(req.Messages[6]) != "ws_1" {
		t.Errorf("other item id: %q", ItemID(req.Messages[6]))
	}
	img, doc := req.Messages[8].Blocks[0], req.Messages[8].Blocks[1]
	if img.MediaType != "image/png" || string(img.Source) != `"data:image/png;base64,iVBOR"` || doc.MediaType != "application/pdf" || string(doc.Extra["filename"]) != `"a.pdf"` {
		t.Errorf("media: %+v %+v", img, doc)
	}
}

func TestRequestRoundTrip(t *testing.T) {
	bodies := map[string]string{
		"loop":          loopBody,
		"string input":  `{"model":"gpt-5","input":"hi <there>","stream":true}`,
		"null content":  `{"input":[{"type":"message","role":"assistant","content":null},{"role":"user","content":[]},{"type":"message","role":"user"}]}`,
		"empty summary": `{"input":[{"type":"reasoning","id":"rs_2","summary":[],"encrypted_content":null}]}`,
		"no summary":    `{"input":[{"type":"reasoning","id":"rs_3"}]}`,
		"odd shapes":    `{"model":"","store":null,"include":[1],"max_output_tokens":1.5,"input":[{"type":"function_call","arguments":{"a":1}},{"type":"message","role":"user","content":[{"type":"input_text","text":5}]},{"x":1},{"type":7}],"reasoning":null,"tools":null,"instructions":null}`,
		"effort none":   `{"reasoning":{"effort":"none"},"input":[]}`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			first, second, encoded := roundTrip(t, []byte(body))
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("decode(encode(decode(b))) differs (-first +second):\n%s", diff)
			}
			if !rawjson.Equal(encoded, []byte(body)) {
				t.Errorf("encoded body is not the same JSON value:\n got %s\nwant %s", encoded, body)
			}
		})
	}
}

// roundTrip decodes body, encodes it and decodes the result.
func roundTrip(t testing.TB, body []byte) (first, second *traffic.Request, encoded []byte) {
	t.Helper()
	first, err := Codec{}.DecodeRequest(body)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	encoded, err = Codec{}.EncodeRequest(first)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	second, err = Codec{}.DecodeRequest(encoded)
	if err != nil {
		t.Fatalf("decode of encoded body: %v\n%s", err, encoded)
	}
	return first, second, encoded
}

func TestEncodeKeepsOpaqueBytes(t *testing.T) {
	req, err := Codec{}.DecodeRequest([]byte(loopBody))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := Codec{}.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{`"gAAAA\u002Bb/c=="`, `"{\"city\":\"Paris\",\"n\":1.50}"`, `"{\"temp_c\":21}"`, `"Be brief <b>&</b>"`} {
		if !bytes.Contains(enc, []byte(tok)) {
			t.Errorf("encoded body lacks %s:\n%s", tok, enc)
		}
	}
	if bytes.Contains(enc, []byte(`\u003c`)) {
		t.Errorf("encoded body escapes HTML: %s", enc)
	}
}

func TestDecodeRequestErrors(t *testing.T) {
	cases := map[string]string{
		``:                  "empty",
		`{"input": [1, 2`:   "invalid JSON at byte",
		`[1]`:               "expected a JSON object, found an array",
		`{"input": ["hi"]}`: "input[0]: expected an object, found a string",
		`{"input": [{"role":"user","content":[{"type":"input_text","text":"a"}, 3]}]}`: "input[0].content[1]: expected an object, found a number",
		`{"input": [{"type":"reasoning","summary":[null]}]}`:                           "input[0].summary[0]: expected an object, found null",
		`{"tools": [true]}`: "tools[0]: expected an object, found a boolean",
	}
	for body, want := range cases {
		_, err := Codec{}.DecodeRequest([]byte(body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeRequest(%s) error = %v, want %q", body, err, want)
		}
	}
}

// Messages built in code (or decoded from another wire) may mix block kinds;
// encoding splits them into items in block order.
func TestEncodeMixedMessage(t *testing.T) {
	req := &traffic.Request{
		Model:  "gpt-5",
		System: []traffic.Block{{Type: traffic.BlockText, Text: "a"}, {Type: traffic.BlockText, Text: "b"}},
		Messages: []traffic.Message{
			{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "hi"}}},
			{Role: traffic.RoleAssistant, Blocks: []traffic.Block{
				{Type: traffic.BlockReasoning, ItemID: "rs_9", Text: "why", EncryptedContent: json.RawMessage(`"enc"`)},
				{Type: traffic.BlockText, Text: "ok"},
				{Type: traffic.BlockToolCall, ItemID: "fc_9", ID: "call_9", Name: "f", Input: json.RawMessage(`{"a": 1}`)},
			}},
			{Role: traffic.RoleTool, Blocks: []traffic.Block{{Type: traffic.BlockToolResult, ToolCallID: "call_9", Content: []traffic.Block{{Type: traffic.BlockText, Text: "done"}}}}},
		},
	}
	got, err := Codec{}.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"gpt-5","instructions":"a\nb","input":[` +
		`{"role":"user","content":[{"type":"input_text","text":"hi"}]},` +
		`{"type":"reasoning","id":"rs_9","summary":[{"type":"summary_text","text":"why"}],"encrypted_content":"enc"},` +
		`{"role":"assistant","content":[{"type":"output_text","text":"ok"}]},` +
		`{"type":"function_call","id":"fc_9","call_id":"call_9","name":"f","arguments":"{\"a\":1}"},` +
		`{"type":"function_call_output","call_id":"call_9","output":"done"}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	req.Messages[1].Blocks = append(req.Messages[1].Blocks, traffic.Block{Type: traffic.BlockThinking, Text: "x"})
	if _, err := (Codec{}).EncodeRequest(req); err == nil || !strings.Contains(err.Error(), "messages[1].blocks[3]: a thinking block cannot be sent") {
		t.Errorf("thinking block: err = %v", err)
	}
}

// A reasoning thought routed back by the engine becomes an input item the
// API accepts: summary is required even when empty.
func TestEncodeThoughtBlock(t *testing.T) {
	th := engine.Thought{ID: "rs_7", ReplayCompatibility: engine.ReplayResponsesReasoning, Payload: json.RawMessage(`"gAAAA=="`)}
	b, ok := engine.ThoughtBlock(th)
	if !ok {
		t.Fatal("no block")
	}
	got, err := Codec{}.EncodeRequest(&traffic.Request{Messages: []traffic.Message{{Role: traffic.RoleAssistant, Blocks: []traffic.Block{b}}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"input":[{"type":"reasoning","id":"rs_7","summary":[],"encrypted_content":"gAAAA=="}]}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A message built in code that mixes reasoning with text keeps its own id
// and phase on its message item, not on the reasoning item written first.
func TestEncodeMixedMessageKeepsMessageFields(t *testing.T) {
	req := &traffic.Request{Wire: traffic.WireResponses, Model: "gpt-5", Messages: []traffic.Message{{
		Role:  traffic.RoleAssistant,
		Extra: map[string]json.RawMessage{"id": json.RawMessage(`"msg_1"`), "phase": json.RawMessage(`"final_answer"`)},
		Blocks: []traffic.Block{
			{Type: traffic.BlockReasoning, ItemID: "rs_1", EncryptedContent: json.RawMessage(`"gAAA"`)},
			{Type: traffic.BlockText, Text: "done"},
		},
	}}}
	body, err := Codec{}.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Codec{}.DecodeRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 2 {
		t.Fatalf("%d items, want reasoning + message:\n%s", len(got.Messages), body)
	}
	if r := got.Messages[0]; r.WireType != "reasoning" || r.Extra["phase"] != nil || r.Extra["id"] != nil {
		t.Errorf("reasoning item took the message's fields: %s", body)
	}
	if m := got.Messages[1]; string(m.Extra["id"]) != `"msg_1"` || string(m.Extra["phase"]) != `"final_answer"` {
		t.Errorf("message item lost its id/phase: %s", body)
	}
}
