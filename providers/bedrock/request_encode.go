package bedrock

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// encodeRequest writes a Converse request: messages, system, and the
// configuration objects — kept whole from a decoded request, or built from
// MaxTokens, Tools, ToolChoice and Thinking for a request the engine made.
func encodeRequest(req *traffic.Request) ([]byte, error) {
	if req == nil {
		return nil, fmt.Errorf("nil request")
	}
	var o rawjson.Object
	items := make([]json.RawMessage, 0, len(req.Messages))
	for i := range req.Messages {
		m := &req.Messages[i]
		content, err := encodeBlocks(m.Blocks)
		if err != nil {
			return nil, err
		}
		var mo rawjson.Object
		if m.Role != "" { // a request without one is kept as it was sent
			mo.String("role", string(m.Role))
		}
		if m.Blocks != nil {
			mo.Raw("content", content)
		}
		mo.Extra(m.Extra)
		items = append(items, mo.Bytes())
	}
	if req.Messages != nil {
		o.Raw("messages", rawjson.ArrayOf(items))
	}
	if req.System != nil {
		system, err := encodeBlocks(req.System)
		if err != nil {
			return nil, err
		}
		o.Raw("system", system)
	}
	extra := map[string]json.RawMessage{}
	for k, v := range req.Extra {
		extra[k] = v
	}
	if _, ok := extra["inferenceConfig"]; !ok && req.MaxTokens > 0 {
		var ic rawjson.Object
		ic.Int("maxTokens", req.MaxTokens)
		extra["inferenceConfig"] = ic.Bytes()
	}
	if _, ok := extra["toolConfig"]; !ok && len(req.Tools) > 0 {
		tools := make([]json.RawMessage, 0, len(req.Tools))
		for _, t := range req.Tools {
			tools = append(tools, toolSpec(t))
		}
		var tc rawjson.Object
		tc.Raw("tools", rawjson.ArrayOf(tools))
		if len(req.ToolChoice) > 0 {
			tc.Raw("toolChoice", req.ToolChoice)
		}
		extra["toolConfig"] = tc.Bytes()
	}
	if _, ok := extra["additionalModelRequestFields"]; !ok && req.Thinking != nil {
		// Claude's thinking goes through as the Anthropic field, as the
		// AWS SDKs document it.
		thinking := req.Thinking.Raw
		if len(thinking) == 0 {
			var t rawjson.Object
			t.String("type", req.Thinking.Type)
			if req.Thinking.BudgetTokens > 0 {
				t.Int("budget_tokens", req.Thinking.BudgetTokens)
			}
			thinking = t.Bytes()
		}
		var am rawjson.Object
		am.Raw("thinking", thinking)
		extra["additionalModelRequestFields"] = am.Bytes()
	}
	// The configuration objects in a stable order, then anything else.
	for _, k := range []string{"inferenceConfig", "toolConfig", "additionalModelRequestFields"} {
		if v, ok := extra[k]; ok {
			o.Raw(k, v)
			delete(extra, k)
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		o.Raw(k, extra[k])
	}
	return o.Bytes(), nil
}

// toolSpec writes a tool the engine registered: a decoded tool keeps its
// raw entry.
func toolSpec(t traffic.Tool) json.RawMessage {
	if len(t.Raw) > 0 {
		return t.Raw
	}
	var schema rawjson.Object
	s := t.Schema
	if len(s) == 0 {
		s = json.RawMessage(`{"type":"object"}`)
	}
	schema.Raw("json", s)
	var spec rawjson.Object
	spec.String("name", t.Name)
	spec.StringNonEmpty("description", t.Description)
	spec.Raw("inputSchema", schema.Bytes())
	var o rawjson.Object
	o.Raw("toolSpec", spec.Bytes())
	return o.Bytes()
}
