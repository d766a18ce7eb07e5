package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

func TestDecodeRequestErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{``, "empty"},
		{`{"model":`, "invalid JSON at byte 9"},
		{`[]`, "expected a JSON object, found an array"},
		{`{"model":5}`, "model: expected a string, found a number"},
		{`{"max_tokens":"10"}`, "max_tokens: expected an integer, found a string"},
		{`{"max_tokens":1.5}`, "max_tokens: expected an integer, found 1.5"},
		{`{"stream":"yes"}`, "stream: expected a boolean, found a string"},
		{`{"system":5}`, "system: expected a string or an array, found a number"},
		{`{"system":[{"type":"text","text":true}]}`, "system[0].text: expected a string, found a boolean"},
		{`{"messages":{}}`, "messages: expected an array, found an object"},
		{`{"messages":["hi"]}`, "messages[0]: expected an object, found a string"},
		{`{"messages":[{"role":5}]}`, "messages[0].role: expected a string, found a number"},
		{`{"messages":[{"role":"user","content":{}}]}`, "messages[0].content: expected a string or an array, found an object"},
		{`{"messages":[{"role":"user","content":[1]}]}`, "messages[0].content[0]: expected an object, found a number"},
		{`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"thinking","thinking":null}]}]}`,
			"messages[0].content[1].thinking: expected a string, found null"},
		{`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":7}]}]}`, "messages[0].content[0].id: expected a string, found a number"},
		{`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":{}}]}]}`,
			"messages[0].content[0].content: expected a string or an array, found an object"},
		{`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"ok"},"x"]}]}]}`,
			"messages[0].content[0].content[1]: expected an object, found a string"},
		{`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":"yes"}]}]}`,
			"messages[0].content[0].is_error: expected a boolean, found a string"},
		{`{"tools":[1]}`, "tools[0]: expected an object, found a number"},
		{`{"thinking":"on"}`, "thinking: expected an object, found a string"},
	}
	for _, c := range cases {
		_, err := Codec{}.DecodeRequest([]byte(c.body))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("DecodeRequest(%s)\n got  %v\n want %s…", c.body, err, c.want)
		}
	}
}

// shapes is a request with every wire shape the decoder remembers: bare and
// null content, absent content, is_error false, stream false, a Bedrock
// body without model, server-tool blocks, untyped blocks, unknown keys.
const shapes = `{
  "anthropic_version": "bedrock-2023-05-31",
  "max_tokens": 2048,
  "stream": false,
  "temperature": 0,
  "system": [{"type":"text","text":"Be brief <b> & kind.","cache_control":{"type":"ephemeral"}}],
  "thinking": {"type":"enabled","budget_tokens":1024,"display":"summarized"},
  "tool_choice": {"type":"auto"},
  "tools": [{"name":"get_weather","description":"","input_schema":{"type":"object"}},
            {"type":"web_search_20250305","name":"web_search","max_uses":null}],
  "metadata": null,
  "messages": [
    {"role":"user","content":"What is the weather in Paris?"},
    {"role":"assistant","content":[
      {"type":"thinking","thinking":"","signature":"EqQBCkYIBx\u002b\/=="},
      {"type":"redacted_thinking","data":"EmwKAhgBEgy3va3p"},
      {"type":"text","text":"Checking.","citations":null},
      {"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{"city": "Paris", "n": 1.50},"cache_control":{"type":"ephemeral"},"caller":{"type":"direct"}},
      {"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{"query":"x"}},
      {"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{"type":"web_search_result","encrypted_content":"Ev8L+/\u003d="}]},
      {"text":"untyped"}
    ]},
    {"role":"user","content":[
      {"type":"tool_result","tool_use_id":"toolu_01A","is_error":false,"content":"21C"},
      {"type":"tool_result","tool_use_id":"toolu_01B","is_error":true,"content":[{"type":"text","text":"denied"}]},
      {"type":"tool_result","tool_use_id":"toolu_01C"},
      {"type":"tool_result","tool_use_id":"toolu_01D","content":null,"is_error":null},
      {"type":"tool_result","tool_use_id":"toolu_01E","content":[]},
      {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
      {"type":"document","source":{"type":"url","url":"https://x/a.pdf"},"title":"A"}
    ]},
    {"role":"assistant","content":null},
    {"role":"user","content":[]},
    {"role":"assistant"}
  ]
}`

func TestDecodeRequestShapes(t *testing.T) {
	req := roundTrip(t, []byte(shapes))
	eq(t, "model", req.Model, "")
	eq(t, "extra", sortedKeys(req.Extra), []string{"anthropic_version", "metadata", "stream", "temperature"})
	eq(t, "stream", req.Stream, false)
	eq(t, "max_tokens", req.MaxTokens, 2048)
	eq(t, "system", req.System[0].Text, "Be brief <b> & kind.")
	eq(t, "system string", req.SystemString, false)
	eq(t, "thinking", *req.Thinking, traffic.Thinking{Type: "enabled", BudgetTokens: 1024, Raw: req.Thinking.Raw})
	eq(t, "tools", []string{req.Tools[0].Name, req.Tools[1].Name}, []string{"get_weather", "web_search"})
	eq(t, "tool schema", string(req.Tools[0].Schema), `{"type":"object"}`)

	m := req.Messages
	eq(t, "messages", len(m), 6)
	eq(t, "bare content", m[0].ContentString, true)
	eq(t, "bare text", m[0].Blocks[0].Text, "What is the weather in Paris?")
	eq(t, "bare path", m[0].Blocks[0].Path, "messages[0].content")

	a := m[1].Blocks
	eq(t, "types", blockTypes(a), []string{"thinking/thinking", "redacted_thinking/redacted_thinking", "text/text",
		"tool_call/tool_use", "other/server_tool_use", "other/web_search_tool_result", "other/"})
	eq(t, "signature", string(a[0].Signature), `"EqQBCkYIBx\u002b\/=="`)
	eq(t, "data", string(a[1].Data), `"EmwKAhgBEgy3va3p"`)
	eq(t, "citations kept", string(a[2].Extra["citations"]), `null`)
	eq(t, "tool input", string(a[3].Input), `{"city": "Paris", "n": 1.50}`)
	eq(t, "tool extra", sortedKeys(a[3].Extra), []string{"cache_control", "caller"})
	eq(t, "path", a[5].Path, "messages[1].content[5]")

	u := m[2].Blocks
	eq(t, "result string", string(u[0].ResultRaw), `"21C"`)
	eq(t, "is_error false kept", string(u[0].Extra["is_error"]), `false`)
	eq(t, "is_error true", u[1].IsError && u[1].Extra == nil, true)
	eq(t, "result blocks", u[1].Content[0].Text, "denied")
	eq(t, "result block path", u[1].Content[0].Path, "messages[2].content[1].content[0]")
	eq(t, "absent result", u[2].ResultRaw == nil && u[2].Content == nil, true)
	eq(t, "null result", string(u[3].ResultRaw), `null`)
	eq(t, "empty result list", u[4].Content != nil && len(u[4].Content) == 0, true)
	eq(t, "media type", u[5].MediaType, "image/png")
	eq(t, "document title", string(u[6].Extra["title"]), `"A"`)

	eq(t, "null content", m[3].ContentNull, true)
	eq(t, "empty content", m[4].Blocks != nil && len(m[4].Blocks) == 0, true)
	eq(t, "absent content", m[5].Blocks == nil, true)
}

// TestEncodeRequestBytes pins the exact bytes written for requests built in
// code (not decoded): required fields always, no HTML escaping.
func TestEncodeRequestBytes(t *testing.T) {
	req := &traffic.Request{
		Model: "claude-x", MaxTokens: 100, Stream: true, SystemString: true,
		System: []traffic.Block{{Type: traffic.BlockText, Text: "a < b && c > d"}},
		Messages: []traffic.Message{
			{Role: traffic.RoleUser, ContentString: true, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "hi"}}},
			{Role: traffic.RoleAssistant, Blocks: []traffic.Block{
				{Type: traffic.BlockThinking, Signature: json.RawMessage(`"sig"`)},
				{Type: traffic.BlockToolCall, ID: "toolu_1", Name: "f", Input: json.RawMessage(`{"x":"<y>"}`)},
			}},
			{Role: traffic.RoleUser, Ephemeral: true, Blocks: []traffic.Block{
				{Type: traffic.BlockToolResult, ToolCallID: "toolu_1", IsError: true, ResultRaw: json.RawMessage(`"no"`)},
				{Type: traffic.BlockToolResult, ToolCallID: "toolu_2"},
			}},
		},
		Thinking: &traffic.Thinking{Type: "enabled", BudgetTokens: 1024},
		Tools:    []traffic.Tool{{Name: "f", Schema: json.RawMessage(`{"type":"object"}`)}},
	}
	got, err := Codec{}.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"claude-x","max_tokens":100,"system":"a < b && c > d","messages":[` +
		`{"role":"user","content":"hi"},` +
		`{"role":"assistant","content":[{"type":"thinking","thinking":"","signature":"sig"},{"type":"tool_use","id":"toolu_1","name":"f","input":{"x":"<y>"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"no"},{"type":"tool_result","tool_use_id":"toolu_2"}]}],` +
		`"tools":[{"name":"f","input_schema":{"type":"object"}}],"thinking":{"type":"enabled","budget_tokens":1024},"stream":true}`
	eq(t, "body", string(got), want)
}

func TestEncodeRequestErrors(t *testing.T) {
	cases := []struct {
		req  traffic.Request
		want string
	}{
		{traffic.Request{Messages: []traffic.Message{{Role: "user", Blocks: []traffic.Block{{Type: traffic.BlockText}, {Type: traffic.BlockReasoning}}}}},
			`messages[0].content[1]: block type "reasoning" cannot be written on the Anthropic wire`},
		{traffic.Request{Messages: []traffic.Message{{Role: "assistant", Blocks: []traffic.Block{{Type: traffic.BlockOther, WireType: "server_tool_use"}}}}},
			`messages[0].content[0]: block of type "other" (wire type "server_tool_use") has no Raw to write`},
		{traffic.Request{Messages: []traffic.Message{{Role: "user", Blocks: []traffic.Block{{Type: traffic.BlockToolResult, Content: []traffic.Block{{Type: "bogus"}}}}}}},
			`messages[0].content[0].content[0]: block type "bogus" cannot be written`},
	}
	for _, c := range cases {
		_, err := Codec{}.EncodeRequest(&c.req)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %s…", err, c.want)
		}
	}
	if _, err := (Codec{}).EncodeRequest(nil); err == nil {
		t.Error("nil request encoded")
	}
}

// TestDecodeRequestRepeatedKeys checks that a repeated key means its last
// value, as in encoding/json, and that the model still encodes stably.
func TestDecodeRequestRepeatedKeys(t *testing.T) {
	req := roundTripStable(t, []byte(`{"stream":false,"stream":true,"system":"a","system":[{"type":"text","text":"b"}],`+
		`"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x","content":[],"is_error":false,"is_error":true}]}]}`))
	eq(t, "stream", req.Stream, true)
	eq(t, "extra", req.Extra == nil, true)
	eq(t, "system string", req.SystemString, false)
	b := req.Messages[0].Blocks[0]
	eq(t, "tool result", b.ResultRaw == nil && b.Content != nil && b.IsError && b.Extra == nil, true)
}

// roundTrip checks the identity requirements on body and returns the
// decoded request: Decode(Encode(Decode(b))) equals Decode(b), the encoded
// body is the same JSON value as b, and every opaque token is byte-identical.
func roundTrip(t *testing.T, body []byte) *traffic.Request {
	t.Helper()
	req := roundTripStable(t, body)
	enc, _ := Codec{}.EncodeRequest(req)
	if !rawjson.Equal(enc, body) {
		t.Errorf("encoded body is not the same JSON value\n got  %s\n want %s", enc, rawjson.Compact(body))
	}
	return req
}

// roundTripStable checks Decode(Encode(Decode(b))) == Decode(b) and that
// opaque tokens keep their bytes, without requiring the same JSON value
// (bodies with repeated keys or missing required fields change).
func roundTripStable(t *testing.T, body []byte) *traffic.Request {
	t.Helper()
	first, err := Codec{}.DecodeRequest(body)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	enc, err := Codec{}.EncodeRequest(first)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	second, err := Codec{}.DecodeRequest(enc)
	if err != nil {
		t.Fatalf("decode of the encoded body: %v\n%s", err, enc)
	}
	if !reflect.DeepEqual(first, second) {
		a, _ := json.MarshalIndent(first, "", " ")
		b, _ := json.MarshalIndent(second, "", " ")
		t.Fatalf("decode → encode → decode changed the request:\n first  %s\n second %s", a, b)
	}
	ta, tb := opaqueTokens(first), opaqueTokens(second)
	if len(ta) != len(tb) {
		t.Fatalf("opaque tokens: %d before, %d after", len(ta), len(tb))
	}
	for i := range ta {
		if ta[i].path != tb[i].path || !bytes.Equal(ta[i].raw, tb[i].raw) {
			t.Errorf("opaque token %s changed: %s → %s", ta[i].path, ta[i].raw, tb[i].raw)
		}
	}
	return first
}

type token struct {
	path string
	raw  json.RawMessage
}

// opaqueTokens lists every raw token of req that must survive byte for byte.
func opaqueTokens(req *traffic.Request) []token {
	var out []token
	var walk func(blocks []traffic.Block)
	walk = func(blocks []traffic.Block) {
		for _, b := range blocks {
			for _, tk := range []token{{"signature", b.Signature}, {"data", b.Data}, {"input", b.Input},
				{"source", b.Source}, {"result", b.ResultRaw}, {"raw", b.Raw}, {"encrypted", b.EncryptedContent}} {
				if tk.raw != nil {
					out = append(out, token{b.Path + "." + tk.path, tk.raw})
				}
			}
			walk(b.Content)
		}
	}
	walk(req.System)
	for _, m := range req.Messages {
		walk(m.Blocks)
	}
	for i, tl := range req.Tools {
		out = append(out, token{fmt.Sprintf("tools[%d]", i), tl.Raw})
	}
	if req.Thinking != nil {
		out = append(out, token{"thinking", req.Thinking.Raw})
	}
	return out
}

func blockTypes(blocks []traffic.Block) []string {
	var out []string
	for _, b := range blocks {
		out = append(out, string(b.Type)+"/"+b.WireType)
	}
	return out
}

func sortedKeys(m map[string]json.RawMessage) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
