package openai_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/openai"
	"github.com/llmtck/llmtck/traffic"
)

// roundTrip decodes body, encodes it back and decodes again, failing unless
// the two models are equal and the encoded body is the same JSON value.
func roundTrip(t *testing.T, body []byte) *traffic.Request {
	t.Helper()
	c := openai.Codec{}
	req, err := c.DecodeRequest(body)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	enc, err := c.EncodeRequest(req)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if !rawjson.Equal(enc, body) {
		t.Errorf("encoded body is not the same JSON value\n got: %s\nwant: %s", enc, body)
	}
	again, err := c.DecodeRequest(enc)
	if err != nil {
		t.Fatalf("decode of encoded body: %v", err)
	}
	if !reflect.DeepEqual(req, again) {
		t.Errorf("decode(encode(decode(b))) differs from decode(b)\n%s", enc)
	}
	assertOpaqueKept(t, req, again)
	return req
}

// assertOpaqueKept compares every opaque token byte for byte.
func assertOpaqueKept(t *testing.T, a, b *traffic.Request) {
	t.Helper()
	for i := range a.Messages {
		for j := range a.Messages[i].Blocks {
			x, y := a.Messages[i].Blocks[j], b.Messages[i].Blocks[j]
			if !bytes.Equal(x.Input, y.Input) || !bytes.Equal(x.ResultRaw, y.ResultRaw) || !bytes.Equal(x.Source, y.Source) || !bytes.Equal(x.Raw, y.Raw) {
				t.Errorf("%s: opaque bytes changed", x.Path)
			}
			for k, v := range x.Extra {
				if !bytes.Equal(v, y.Extra[k]) {
					t.Errorf("%s: extra %s changed: %s → %s", x.Path, k, v, y.Extra[k])
				}
			}
		}
	}
}

func TestDecodeRequestShapes(t *testing.T) {
	body := []byte(`{"model":"deepseek-reasoner","messages":[
	 {"role":"developer","content":[{"type":"text","text":"Be <brief> & exact","cache_control":{"type":"ephemeral"}}]},
	 {"role":"user","name":"ann","content":[
	   {"type":"text","text":"look"},
	   {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo=","detail":"low"}},
	   {"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}},
	   {"type":"file","file":{"filename":"a.pdf","file_data":"data:application/pdf;base64,JVBERi0="}}]},
	 {"role":"assistant","content":null,"reasoning_content":"Need weather.","tool_calls":[
	   {"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":  \"Paris\", \"u\":\"\\u00b0C\"}"},"extra_content":{"google":{"thought_signature":"EjQK+/8="}}},
	   {"id":"call_2","type":"function","function":{"name":"noop","arguments":"{}","strict":true}}]},
	 {"role":"tool","tool_call_id":"call_1","content":[{"type":"text","text":"21C"}]},
	 {"role":"tool","tool_call_id":"call_2","content":"cancelled by user"},
	 {"role":"assistant","content":[{"type":"refusal","refusal":"no"}],"function_call":{"name":"old","arguments":"{}"}},
	 {"role":"function","name":"old","content":"done"}],
	"tools":[{"type":"function","function":{"name":"get_weather","description":"d","parameters":{"type":"object"}}}],
	"tool_choice":{"type":"function","function":{"name":"get_weather"}},
	"max_completion_tokens":512,"stream":false,"temperature":0.0}`)
	req := roundTrip(t, body)

	if req.Model != "deepseek-reasoner" || req.MaxTokens != 512 || req.Stream || len(req.Tools) != 1 {
		t.Errorf("request = %+v", req)
	}
	if tl := req.Tools[0]; tl.Name != "get_weather" || tl.Description != "d" || string(tl.Schema) != `{"type":"object"}` {
		t.Errorf("tool = %+v", tl)
	}
	if string(req.ToolChoice) != `{"type":"function","function":{"name":"get_weather"}}` {
		t.Errorf("tool_choice = %s", req.ToolChoice)
	}
	m := req.Messages
	if m[0].Role != traffic.RoleDeveloper || m[0].Blocks[0].Text != "Be <brief> & exact" || string(m[0].Blocks[0].Extra["cache_control"]) != `{"type":"ephemeral"}` {
		t.Errorf("developer = %+v", m[0])
	}
	user := m[1].Blocks
	wantTypes := []traffic.BlockType{traffic.BlockText, traffic.BlockImage, traffic.BlockOther, traffic.BlockDocument}
	for i, w := range wantTypes {
		if user[i].Type != w || user[i].Path != "messages[1].content["+string(rune('0'+i))+"]" {
			t.Errorf("user part %d = %s at %s, want %s", i, user[i].Type, user[i].Path, w)
		}
	}
	if user[1].MediaType != "image/png" || user[3].MediaType != "application/pdf" || user[2].WireType != "input_audio" || m[1].Name != "ann" {
		t.Errorf("media %q %q, other %q, name %q", user[1].MediaType, user[3].MediaType, user[2].WireType, m[1].Name)
	}

	a := m[2]
	if !a.ContentNull || len(a.Blocks) != 3 || a.Blocks[0].Type != traffic.BlockThinking || a.Blocks[0].Text != "Need weather." || a.Blocks[0].Path != "messages[2].reasoning_content" {
		t.Fatalf("assistant = %+v", a)
	}
	call := a.Blocks[1]
	if call.ID != "call_1" || call.Name != "get_weather" || call.Path != "messages[2].tool_calls[0]" {
		t.Errorf("call = %+v", call)
	}
	if string(call.Input) != `"{\"city\":  \"Paris\", \"u\":\"\\u00b0C\"}"` {
		t.Errorf("arguments token = %s, want the exact bytes sent", call.Input)
	}
	if string(call.Extra["extra_content"]) != `{"google":{"thought_signature":"EjQK+/8="}}` || string(call.Extra["type"]) != `"function"` {
		t.Errorf("call extra = %v", call.Extra)
	}
	if string(a.Blocks[2].Extra["function.strict"]) != "true" {
		t.Errorf("function-level extra = %v", a.Blocks[2].Extra)
	}

	r1 := m[3].Blocks[0]
	if m[3].Role != traffic.RoleTool || r1.Type != traffic.BlockToolResult || r1.ToolCallID != "call_1" || string(r1.ResultRaw) != `[{"type":"text","text":"21C"}]` || len(r1.Content) != 1 || r1.Content[0].Text != "21C" {
		t.Errorf("tool result (parts) = %+v", r1)
	}
	if r2 := m[4].Blocks[0]; r2.Text != "cancelled by user" || string(r2.ResultRaw) != `"cancelled by user"` || !m[4].ContentString || r2.Path != "messages[4]" {
		t.Errorf("tool result (string) = %+v", r2)
	}
	if m[5].Blocks[0].Type != traffic.BlockOther || m[5].Blocks[0].WireType != "refusal" || string(m[5].Extra["function_call"]) != `{"name":"old","arguments":"{}"}` {
		t.Errorf("legacy assistant = %+v", m[5])
	}
	if m[6].Role != traffic.Role("function") || m[6].Name != "old" {
		t.Errorf("function role = %+v", m[6])
	}
}

func TestDecodeRequestKeepsWireSpelling(t *testing.T) {
	for _, body := range []string{
		`{"model":"m","messages":[],"max_tokens":100}`,
		`{"model":"m","messages":[],"max_completion_tokens":100,"max_tokens":7}`,
		`{"model":"m","messages":[],"stream":true}`,
		`{"model":"m","messages":[],"stream":null}`,
		`{"messages":[{"role":"user","content":[]},{"role":"assistant","content":"","tool_calls":[]}]}`,
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":{"raw":"object"}}}]}]}`,
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"custom","custom":{"name":"grep","input":"a|b"}}]}]}`,
		`{"messages":[{"role":"tool","tool_call_id":7}]}`,
		`{"messages":[{"role":"user","content":[{"type":"text"},{"type":"image_url","detail":"x"},{"no":"type"}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":"https://x/y.png"}]}]}`,
		`{"model":"m","tools":null,"messages":[{"role":"user","content":"x","reasoning_content":"kept in extra"}]}`,
	} {
		t.Run(body, func(t *testing.T) { roundTrip(t, []byte(body)) })
	}
	req := roundTrip(t, []byte(`{"model":"m","messages":[],"max_tokens":100}`))
	if req.MaxTokens != 100 {
		t.Errorf("MaxTokens = %d", req.MaxTokens)
	}
	req.MaxTokens = 64 // changed in code: written under the key the body used
	enc, _ := openai.Codec{}.EncodeRequest(req)
	if !rawjson.Equal(enc, []byte(`{"model":"m","messages":[],"max_tokens":64}`)) {
		t.Errorf("encoded %s", enc)
	}
}

func TestDecodeRequestErrors(t *testing.T) {
	tests := []struct{ body, want string }{
		{`[]`, "expected a JSON object, found an array"},
		{`{"model":3}`, "model: expected a string, found a number"},
		{`{"messages":{}}`, "messages: expected an array, found an object"},
		{`{"messages":["hi"]}`, "messages[0]: expected an object, found a string"},
		{`{"messages":[{"content":"hi"}]}`, "messages[0].role: expected a string, found nothing"},
		{`{"messages":[{"role":"user","content":5}]}`, "messages[0].content: expected a string, an array or null, found a number"},
		{`{"messages":[{"role":"user","content":["x"]}]}`, "messages[0].content[0]: expected an object, found a string"},
		{`{"messages":[{"role":"assistant","tool_calls":{}}]}`, "messages[0].tool_calls: expected an array, found an object"},
		{`{"messages":[{"role":"assistant","tool_calls":[1]}]}`, "messages[0].tool_calls[0]: expected an object, found a number"},
		{`{"messages":[{"role":"tool","content":[true]}]}`, "messages[0].content[0]: expected an object, found a boolean"},
		{`{"tools":[1]}`, "tools[0]: expected an object, found a number"},
		{`{"model":"m"`, "invalid JSON at byte 12: unexpected end of JSON input"},
	}
	for _, tc := range tests {
		_, err := openai.Codec{}.DecodeRequest([]byte(tc.body))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

// A request built in code gets what the wire requires: a tool call type,
// arguments as a JSON string, content parts; HTML characters stay as they are.
func TestEncodeRequestBuiltInCode(t *testing.T) {
	req := &traffic.Request{
		Model:     "gpt-4o",
		Stream:    true,
		MaxTokens: 256,
		Tools:     []traffic.Tool{{Name: "get_weather", Description: "<b>weather</b>", Schema: json.RawMessage(`{"type":"object"}`)}},
		Messages: []traffic.Message{
			{Role: traffic.RoleSystem, ContentString: true, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "a < b && c"}}},
			{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "hi"}, {Type: traffic.BlockImage, Source: json.RawMessage(`"https://x/y.png"`)}}},
			{Role: traffic.RoleAssistant, Blocks: []traffic.Block{
				{Type: traffic.BlockThinking, Text: "plan"},
				{Type: traffic.BlockToolCall, ID: "call_1", Name: "get_weather", Input: json.RawMessage(`{"city":"Paris"}`)},
			}},
			{Role: traffic.RoleTool, Blocks: []traffic.Block{{Type: traffic.BlockToolResult, ToolCallID: "call_1", Text: "cancelled"}}},
		},
	}
	got, err := openai.Codec{}.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"gpt-4o","messages":[` +
		`{"role":"system","content":"a < b && c"},` +
		`{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}]},` +
		`{"role":"assistant","reasoning_content":"plan","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},` +
		`{"role":"tool","tool_call_id":"call_1","content":"cancelled"}],` +
		`"tools":[{"type":"function","function":{"name":"get_weather","description":"<b>weather</b>","parameters":{"type":"object"}}}],` +
		`"stream":true,"max_completion_tokens":256}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	req.Messages[0].Blocks = append(req.Messages[0].Blocks, traffic.Block{Type: traffic.BlockRedacted, Data: json.RawMessage(`"x"`)})
	if _, err := (openai.Codec{}).EncodeRequest(req); err == nil || !strings.Contains(err.Error(), "messages[0].blocks[1]: a redacted_thinking block has no form on the chat completions wire") {
		t.Errorf("error = %v", err)
	}
}
