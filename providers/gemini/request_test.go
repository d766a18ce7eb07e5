package gemini_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/gemini"
	"github.com/llmtck/llmtck/traffic"
)

// roundTrip decodes body, encodes it, and fails unless the encoding is the
// same JSON value and decodes to the same model.
func roundTrip(t *testing.T, body string) (*traffic.Request, []byte) {
	t.Helper()
	req, err := codec.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	enc, err := codec.EncodeRequest(req)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if !rawjson.Equal(enc, []byte(body)) {
		t.Fatalf("encoded body is another JSON value\nwant %s\ngot  %s", body, enc)
	}
	again, err := codec.DecodeRequest(enc)
	if err != nil {
		t.Fatalf("decode again: %v", err)
	}
	if d := cmp.Diff(req, again); d != "" {
		t.Fatalf("second decode differs (-first +second):\n%s", d)
	}
	return req, enc
}

// TestSnakeCase: the proto spelling is read and written back as read.
func TestSnakeCase(t *testing.T) {
	body := `{"contents":[{"role":"user","parts":[{"text":"hi"}]},` +
		`{"role":"model","parts":[{"function_call":{"name":"f","args":{"a":1}},"thought_signature":"c2ln"}]},` +
		`{"role":"user","parts":[{"function_response":{"name":"f","response":{"output":1},"will_continue":false}},` +
		`{"inline_data":{"mime_type":"image/png","data":"iVBO"}}]}],` +
		`"system_instruction":{"parts":[{"text":"sys"}]},"tool_config":{"function_calling_config":{"mode":"AUTO"}},` +
		`"generation_config":{"max_output_tokens":100,"thinking_config":{"include_thoughts":true,"thinking_budget":1024}},` +
		`"safety_settings":[]}`
	req, enc := roundTrip(t, body)
	for _, camel := range []string{"functionCall", "thoughtSignature", "functionResponse", "inlineData", "systemInstruction", "toolConfig", "generationConfig"} {
		if bytes.Contains(enc, []byte(`"`+camel+`"`)) {
			t.Errorf("encoded body says %s: %s", camel, enc)
		}
	}
	call := req.Messages[1].Blocks[0]
	if call.Type != traffic.BlockToolCall || call.Name != "f" || string(call.Signature) != `"c2ln"` || call.WireType != "function_call" {
		t.Errorf("call: %+v", call)
	}
	if img := req.Messages[2].Blocks[1]; img.Type != traffic.BlockImage || img.MediaType != "image/png" {
		t.Errorf("image: %+v", img)
	}
	if req.MaxTokens != 100 || req.Thinking == nil || req.Thinking.Type != "enabled" || req.Thinking.BudgetTokens != 1024 {
		t.Errorf("max %d thinking %+v", req.MaxTokens, req.Thinking)
	}
	if len(req.System) != 1 || req.System[0].Text != "sys" || req.System[0].Path != "system_instruction.parts[0]" {
		t.Errorf("system: %+v", req.System)
	}
}

// TestNestedSignature: a signature inside functionCall (GEM-SIG-001) stays
// where it was, is not the part's signature, and is found by
// NestedSignature.
func TestNestedSignature(t *testing.T) {
	wrong := `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{},"thoughtSignature":"c2ln"}}]}]}`
	req, _ := roundTrip(t, wrong)
	b := req.Messages[0].Blocks[0]
	if b.Signature != nil {
		t.Errorf("a nested signature must not count as the part's: %s", b.Signature)
	}
	if sig, ok := gemini.NestedSignature(&b); !ok || string(sig) != `"c2ln"` {
		t.Errorf("NestedSignature = %s, %t", sig, ok)
	}

	right := `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{}},"thoughtSignature":"c2ln"}]}]}`
	req, _ = roundTrip(t, right)
	b = req.Messages[0].Blocks[0]
	if string(b.Signature) != `"c2ln"` || b.Extra != nil {
		t.Errorf("sibling signature: %+v", b)
	}
	if _, ok := gemini.NestedSignature(&b); ok {
		t.Error("no nested signature expected")
	}
}

// TestPartKinds decodes every kind of part and round-trips each.
func TestPartKinds(t *testing.T) {
	cases := []struct {
		part     string
		typ      traffic.BlockType
		wireType string
		check    func(t *testing.T, b traffic.Block)
	}{
		{`{"text":"hi"}`, traffic.BlockText, "text", nil},
		{`{"text":"hm","thought":true,"thoughtSignature":"c2ln"}`, traffic.BlockThinking, "text", func(t *testing.T, b traffic.Block) {
			if !b.Thought || b.Text != "hm" || string(b.Signature) != `"c2ln"` {
				t.Errorf("%+v", b)
			}
		}},
		{`{"text":"x","thought":false}`, traffic.BlockText, "text", func(t *testing.T, b traffic.Block) {
			if b.Thought || string(b.Extra["thought"]) != "false" {
				t.Errorf("%+v", b)
			}
		}},
		{`{"thoughtSignature":"c2ln"}`, traffic.BlockText, "thoughtSignature", func(t *testing.T, b traffic.Block) {
			if b.Text != "" || string(b.Signature) != `"c2ln"` {
				t.Errorf("%+v", b)
			}
		}},
		{`{"text":"v","videoMetadata":{"startOffset":"1s"}}`, traffic.BlockText, "text", func(t *testing.T, b traffic.Block) {
			if string(b.Extra["videoMetadata"]) != `{"startOffset":"1s"}` {
				t.Errorf("%+v", b)
			}
		}},
		{`{"functionCall":{"id":"c1","name":"f","args":{"b":2,"a":1.50}}}`, traffic.BlockToolCall, "functionCall", func(t *testing.T, b traffic.Block) {
			if b.ID != "c1" || string(b.Input) != `{"b":2,"a":1.50}` || b.Extra != nil {
				t.Errorf("%+v", b)
			}
		}},
		{`{"functionResponse":{"id":"c1","name":"f","response":{"error":"cancelled"},"parts":[{"inlineData":{"mimeType":"application/pdf","data":"JVBE"}}]}}`, traffic.BlockToolResult, "functionResponse", func(t *testing.T, b traffic.Block) {
			if b.ToolCallID != "c1" || string(b.ResultRaw) != `{"error":"cancelled"}` || len(b.Content) != 1 ||
				b.Content[0].Type != traffic.BlockDocument || b.Content[0].Path != "contents[0].parts[0].functionResponse.parts[0]" {
				t.Errorf("%+v", b)
			}
		}},
		{`{"functionResponse":{"name":"f","response":{},"parts":[{"functionCall":{"name":"g"}}]}}`, traffic.BlockToolResult, "functionResponse", func(t *testing.T, b traffic.Block) {
			if len(b.Content) != 1 || b.Content[0].Type != traffic.BlockOther || b.Content[0].WireType != "functionCall" {
				t.Errorf("a call inside a function response's parts is not interpreted: %+v", b.Content)
			}
		}},
		{`{"inlineData":{"mimeType":"image/jpeg","data":"/9j/"}}`, traffic.BlockImage, "inlineData", func(t *testing.T, b traffic.Block) {
			if b.MediaType != "image/jpeg" || string(b.Source) != `{"mimeType":"image/jpeg","data":"/9j/"}` {
				t.Errorf("%+v", b)
			}
		}},
		{`{"fileData":{"mimeType":"video/mp4","fileUri":"gs://x"},"videoMetadata":{}}`, traffic.BlockOther, "fileData", nil},
		{`{"executableCode":{"language":"PYTHON","code":"1"},"thoughtSignature":"c2ln"}`, traffic.BlockOther, "executableCode", func(t *testing.T, b traffic.Block) {
			if string(b.Signature) != `"c2ln"` {
				t.Errorf("a signature on any part is surfaced: %+v", b)
			}
		}},
		{`{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1"}}`, traffic.BlockOther, "codeExecutionResult", nil},
		{`{"text":"a","functionCall":{"name":"f"}}`, traffic.BlockOther, "", nil},
		{`{"text":"a","text":"b"}`, traffic.BlockOther, "", nil},
		{`{"thoughtSignature":"a","thought_signature":"b"}`, traffic.BlockOther, "", nil},
		{`{}`, traffic.BlockOther, "", nil},
		{`{"text":5}`, traffic.BlockOther, "text", nil},
		{`{"functionCall":"f"}`, traffic.BlockOther, "functionCall", nil},
		{`{"text":"a","thoughtSignature":null}`, traffic.BlockText, "text", func(t *testing.T, b traffic.Block) {
			if b.Signature != nil || string(b.Extra["thoughtSignature"]) != "null" {
				t.Errorf("a non-string signature stays in Extra: %+v", b)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.part, func(t *testing.T) {
			req, _ := roundTrip(t, `{"contents":[{"role":"model","parts":[`+tc.part+`]}]}`)
			b := req.Messages[0].Blocks[0]
			if b.Type != tc.typ || b.WireType != tc.wireType || b.Path != "contents[0].parts[0]" {
				t.Errorf("type %s wire %q path %q, want %s %q", b.Type, b.WireType, b.Path, tc.typ, tc.wireType)
			}
			if b.Type == traffic.BlockOther && string(b.Raw) != tc.part {
				t.Errorf("raw %s", b.Raw)
			}
			if tc.check != nil {
				tc.check(t, b)
			}
		})
	}
}

// TestRoles keeps every role spelling the wire used.
func TestRoles(t *testing.T) {
	req, _ := roundTrip(t, `{"contents":[{"parts":[{"text":"a"}]},{"role":"function","parts":[]},{"role":"assistant","parts":[]},{"role":7},{"role":"model","parts":null}]}`)
	want := []traffic.Role{"", "function", traffic.RoleAssistant, "", traffic.RoleAssistant}
	for i, m := range req.Messages {
		if m.Role != want[i] {
			t.Errorf("contents[%d]: role %q, want %q", i, m.Role, want[i])
		}
	}
	if !req.Messages[4].ContentNull || req.Messages[3].Blocks != nil || req.Messages[1].Blocks == nil {
		t.Errorf("parts shapes: %+v", req.Messages)
	}
}

// TestRequestErrors: bad bodies fail with the JSON path and what was
// expected.
func TestRequestErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{``, "empty"},
		{`{"contents": [`, "invalid JSON at byte 14: unexpected end of JSON input"},
		{"{\"sy\x83tem\": 1}", "invalid UTF-8 at byte 4"},
		{`[]`, "expected a JSON object, found an array"},
		{`{"contents": "hi"}`, "contents: expected an array (or one content), found a string"},
		{`{"contents": [1]}`, "contents[0]: expected an object, found a number"},
		{`{"contents": [{"parts": 7}]}`, "contents[0].parts: expected an array of parts (or one part), found a number"},
		{`{"contents": [{"role": "user", "parts": ["x"]}]}`, "contents[0].parts[0]: expected an object, found a string"},
		{`{"contents": [{"role": "user", "role": "model"}]}`, `contents[0]: duplicate key "role"`},
		{`{"contents": [], "contents": []}`, `duplicate key "contents"`},
		{`{"systemInstruction": {}, "system_instruction": {}}`, `duplicate key "system_instruction"`},
		{`{"systemInstruction": 5}`, "systemInstruction: expected an object, found a number"},
		{`{"systemInstruction": {"parts": [null]}}`, "systemInstruction.parts[0]: expected an object, found null"},
		{`{"tools": "t"}`, "tools: expected an array (or one tool), found a string"},
		{`{"tools": [true]}`, "tools[0]: expected an object, found a boolean"},
	}
	for _, tc := range cases {
		_, err := codec.DecodeRequest([]byte(tc.body))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

// TestThinkingConfig normalises thinkingConfig.
func TestThinkingConfig(t *testing.T) {
	cases := []struct {
		config string
		typ    string
		budget int
	}{
		{`{"includeThoughts":true}`, "enabled", 0},
		{`{"thinkingBudget":0}`, "disabled", 0},
		{`{"includeThoughts":false,"thinkingBudget":0}`, "disabled", 0},
		{`{"thinkingBudget":-1}`, "enabled", -1},
		{`{"thinkingBudget":2048}`, "enabled", 2048},
		{`{"thinkingLevel":"LOW"}`, "enabled", 0},
		{`{}`, "", 0},
	}
	for _, tc := range cases {
		req, _ := roundTrip(t, `{"contents":[],"generationConfig":{"temperature":0.5,"thinkingConfig":`+tc.config+`}}`)
		th := req.Thinking
		if th == nil || th.Type != tc.typ || th.BudgetTokens != tc.budget || string(th.Raw) != tc.config {
			t.Errorf("%s: %+v", tc.config, th)
		}
	}
}

// TestTools keeps how declarations were grouped and other tool kinds.
func TestTools(t *testing.T) {
	body := `{"tools":[{"functionDeclarations":[{"name":"a","parameters":{"type":"object"}}]},` +
		`{"functionDeclarations":[{"name":"b","description":"B","parametersJsonSchema":{"type":"object"}}],"codeExecution":{}},` +
		`{"googleSearch":{}}]}`
	req, _ := roundTrip(t, body)
	var names []string
	for _, tl := range req.Tools {
		names = append(names, tl.Name+"|"+string(tl.Raw))
	}
	want := []string{
		`a|{"name":"a","parameters":{"type":"object"}}`,
		`b|{"name":"b","description":"B","parametersJsonSchema":{"type":"object"}}`,
		`|{"codeExecution":{}}`,
		`|{"googleSearch":{}}`,
	}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	if string(req.Tools[1].Schema) != `{"type":"object"}` || req.Tools[1].Description != "B" {
		t.Errorf("declaration b: %+v", req.Tools[1])
	}

	// A changed tool list is rebuilt, declarations grouped together.
	req.Tools = append(req.Tools[:1], traffic.Tool{Name: "c", Schema: json.RawMessage(`{"type":"object"}`)})
	enc, err := codec.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"tools":[{"functionDeclarations":[{"name":"a","parameters":{"type":"object"}},{"name":"c","parameters":{"type":"object"}}]}]}`; string(enc) != want {
		t.Errorf("rebuilt tools\n got %s\nwant %s", enc, want)
	}
}

// TestEncodeFromCode encodes a request built in code, with no wire memory.
func TestEncodeFromCode(t *testing.T) {
	req := &traffic.Request{
		System: []traffic.Block{{Type: traffic.BlockText, Text: "Be <brief> & exact."}},
		Messages: []traffic.Message{
			{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "Weather in Paris?"}}},
			{Role: traffic.RoleAssistant, Blocks: []traffic.Block{
				{Type: traffic.BlockThinking, Text: "Use the tool."},
				{Type: traffic.BlockToolCall, Name: "get_weather", Input: json.RawMessage(`{"city":"Paris"}`), Signature: json.RawMessage(`"CiQB"`)},
			}},
			{Role: traffic.RoleUser, Blocks: []traffic.Block{
				{Type: traffic.BlockToolResult, Name: "get_weather", ResultRaw: json.RawMessage(`{"output":{"temp_c":21}}`)},
			}},
		},
		Tools:      []traffic.Tool{{Name: "get_weather", Description: "Weather", Schema: json.RawMessage(`{"type":"object"}`)}},
		ToolChoice: json.RawMessage(`{"functionCallingConfig":{"mode":"AUTO"}}`),
		Thinking:   &traffic.Thinking{Type: "enabled", BudgetTokens: 512},
		MaxTokens:  64,
	}
	enc, err := codec.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"contents":[` +
		`{"role":"user","parts":[{"text":"Weather in Paris?"}]},` +
		`{"role":"model","parts":[{"text":"Use the tool.","thought":true},{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQB"}]},` +
		`{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"output":{"temp_c":21}}}}]}],` +
		`"systemInstruction":{"parts":[{"text":"Be <brief> & exact."}]},` +
		`"tools":[{"functionDeclarations":[{"name":"get_weather","description":"Weather","parameters":{"type":"object"}}]}],` +
		`"toolConfig":{"functionCallingConfig":{"mode":"AUTO"}},` +
		`"generationConfig":{"maxOutputTokens":64,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":512}}}`
	if string(enc) != want {
		t.Errorf("encoded\n got %s\nwant %s", enc, want)
	}
	if _, err := codec.EncodeRequest(&traffic.Request{Messages: []traffic.Message{{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockRedacted}}}}}); err == nil ||
		!strings.Contains(err.Error(), "contents[0]: parts[0]: a redacted_thinking block has no Gemini part") {
		t.Errorf("unencodable block: %v", err)
	}
}

// TestEncodeAfterEdit: the model's values win over the raw values kept
// for spelling and order.
func TestEncodeAfterEdit(t *testing.T) {
	body := `{"model":"models/gemini-2.0-flash","contents":[{"role":"model","parts":[{"function_call":{"name":"f","args":{}},"thought_signature":"c2ln"}]}],` +
		`"systemInstruction":{"role":"user","parts":[{"text":"old"}]},` +
		`"generationConfig":{"temperature":0,"thinkingConfig":{"thinkingBudget":0},"maxOutputTokens":10}}`
	req, err := codec.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Model = "gemini-2.5-pro"
	req.Messages[0].Blocks[0].Signature = json.RawMessage(`"bmV3"`)
	req.System[0].Text = "new"
	req.Thinking = &traffic.Thinking{Type: "enabled", BudgetTokens: 256}
	req.MaxTokens = 0
	enc, err := codec.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"models/gemini-2.5-pro","contents":[{"role":"model","parts":[{"function_call":{"name":"f","args":{}},"thought_signature":"bmV3"}]}],` +
		`"systemInstruction":{"role":"user","parts":[{"text":"new"}]},` +
		`"generationConfig":{"temperature":0,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":256}}}`
	if string(enc) != want {
		t.Errorf("encoded\n got %s\nwant %s", enc, want)
	}

	req.System, req.Thinking = nil, nil
	enc, err = codec.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(enc, []byte("systemInstruction")) || bytes.Contains(enc, []byte("thinkingConfig")) {
		t.Errorf("removed fields still written: %s", enc)
	}
}

// TestNulls: proto JSON reads null as an absent field; it is kept and
// written back, and surfaces nothing in the model.
func TestNulls(t *testing.T) {
	req, _ := roundTrip(t, `{"contents":null,"systemInstruction":null,"tools":null,"toolConfig":null,"generationConfig":null,"model":null,"cachedContent":null}`)
	if req.Messages != nil || req.System != nil || req.Tools != nil || req.ToolChoice != nil || req.Thinking != nil || req.Model != "" {
		t.Errorf("nulls surfaced: %+v", req)
	}
	resp, err := codec.DecodeResponse(200, nil, []byte(`{"candidates":null,"promptFeedback":null,"usageMetadata":null}`))
	if err != nil || len(resp.Output) != 0 || resp.Usage != nil {
		t.Errorf("null response fields: %+v, %v", resp, err)
	}
}

// TestRequestLenient: what Google's JSON parser accepts decodes, says how it
// was read as a note, encodes back to the same JSON, and keeps the paths
// the checks report.
func TestRequestLenient(t *testing.T) {
	cases := []struct {
		name, body string
		notes      []string
		system     int    // blocks in System
		blockPath  string // path of the first block of the last message, when there is one
	}{
		{
			name:  "systemInstruction.parts as one part (answered 200)",
			body:  `{"systemInstruction":{"parts":{"text":"be brief"}},"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
			notes: []string{"systemInstruction.parts is one value, not an array: read as a list of one, as the API does"}, system: 1,
			blockPath: "contents[0].parts[0]",
		},
		{
			name:  "snake_case system_instruction with one part",
			body:  `{"system_instruction":{"role":"user","parts":{"text":"be brief"}},"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
			notes: []string{"system_instruction.parts is one value, not an array: read as a list of one, as the API does"}, system: 1,
			blockPath: "contents[0].parts[0]",
		},
		{
			name:      "a content's parts as one part",
			body:      `{"contents":[{"role":"user","parts":{"text":"hi"}},{"role":"model","parts":{"functionCall":{"name":"f","args":{}}}}]}`,
			notes:     []string{"contents[0].parts is one value, not an array: read as a list of one, as the API does", "contents[1].parts is one value, not an array: read as a list of one, as the API does"},
			blockPath: "contents[1].parts",
		},
		{
			name:  "contents as one content",
			body:  `{"contents":{"role":"user","parts":[{"text":"hi"}]}}`,
			notes: []string{"contents is one value, not an array: read as a list of one, as the API does"}, blockPath: "contents.parts[0]",
		},
		{
			name:      "a functionResponse's parts as one part",
			body:      `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{},"parts":{"inlineData":{"mimeType":"image/png","data":"aGk="}}}}]}]}`,
			notes:     []string{"contents[0].parts[0].functionResponse.parts is one value, not an array: read as a list of one, as the API does"},
			blockPath: "contents[0].parts[0]",
		},
		{
			name:  "tools and functionDeclarations as one value",
			body:  `{"tools":{"functionDeclarations":{"name":"f","parameters":{"type":"object"}}},"contents":[]}`,
			notes: []string{"tools is one value, not an array: read as a list of one, as the API does", "tools.functionDeclarations is one value, not an array: read as a list of one, as the API does"},
		},
		{
			name: "numbers as strings, nulls and unknown fields, padded with whitespace",
			body: " \n\t{\"contents\":null,\"systemInstruction\":null,\"tools\":null,\"cachedContent\":\"c/1\",\"someFutureField\":{\"a\":1},\"generationConfig\":{\"maxOutputTokens\":\"256\",\"thinkingConfig\":{\"thinkingBudget\":\"1024\"}}}\r\n ",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := codec.DecodeRequest([]byte(tc.body))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if d := cmp.Diff(tc.notes, req.Notes); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
			if len(req.System) != tc.system {
				t.Errorf("system blocks: %d, want %d", len(req.System), tc.system)
			}
			if tc.blockPath != "" {
				last := req.Messages[len(req.Messages)-1]
				if len(last.Blocks) == 0 || last.Blocks[0].Path != tc.blockPath {
					t.Errorf("block path: %+v, want %q", last.Blocks, tc.blockPath)
				}
			}
			enc, err := codec.EncodeRequest(req)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if !rawjson.Equal(enc, []byte(tc.body)) {
				t.Errorf("encoding changed the JSON value\nin:  %s\nout: %s", tc.body, enc)
			}
		})
	}
	req, err := codec.DecodeRequest([]byte(cases[len(cases)-1].body))
	if err != nil {
		t.Fatal(err)
	}
	if req.MaxTokens != 256 || req.Thinking == nil || req.Thinking.BudgetTokens != 1024 || req.Thinking.Type != "enabled" {
		t.Errorf("numbers as strings: max %d, thinking %+v", req.MaxTokens, req.Thinking)
	}
}
