package responses

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// DecodeRequest decodes a POST /v1/responses body. Each input item becomes
// its own Message (see decodeItem); `instructions` becomes System; every
// field the model does not name is kept raw in Extra. A field whose value has
// an unexpected shape (a null store, an empty model) also stays in Extra, so
// that encoding writes it back unchanged.
func (Codec) DecodeRequest(b []byte) (*traffic.Request, error) {
	if err := body.Object(b); err != nil {
		return nil, err
	}
	o, err := parseObject(bytes.TrimSpace(b), "request body")
	if err != nil {
		return nil, err
	}
	return requestOf(o, decodeItems)
}

// DecodeRequestMemo is DecodeRequest with the input items decoded through
// memo, which validates only the items it has not seen: a message already
// decoded at the same position is shared, not decoded again. A body with a
// fault of any kind is decoded again alone, which names the fault.
func (c Codec) DecodeRequestMemo(b []byte, memo *traffic.Memo) (*traffic.Request, error) {
	fields, ok := rawjson.ValidatedExcept(b, memo.LastArray(), "input")
	if ok {
		o := &object{path: "request body", fields: fields, taken: map[string]bool{}}
		req, err := requestOf(o, func(raw json.RawMessage) ([]traffic.Message, error) {
			return memo.DecodeMessages(raw, func(i int, item json.RawMessage) (traffic.Message, error) {
				return decodeItem(item, rawjson.Index("input", i))
			})
		})
		if err == nil {
			return req, nil
		}
	}
	return c.DecodeRequest(b)
}

// requestOf reads a request from its top-level object, an array of input
// items with decode.
func requestOf(o *object, decode func(json.RawMessage) ([]traffic.Message, error)) (*traffic.Request, error) {
	req := &traffic.Request{Wire: traffic.WireResponses}
	req.Model = o.takeString("model")
	if s, ok := o.str("instructions"); ok {
		o.take("instructions")
		req.System = []traffic.Block{{Type: traffic.BlockText, Text: s, Path: "instructions"}}
		req.SystemString = true
	}
	if err := decodeInput(o, req, decode); err != nil {
		return nil, err
	}
	if err := decodeTools(o, req); err != nil {
		return nil, err
	}
	req.ToolChoice = o.take("tool_choice")
	if r := o.get("reasoning"); rawjson.Kind(r) == "object" {
		req.Thinking = thinkingOf(o.take("reasoning"))
	}
	if inc, ok := stringList(o.get("include")); ok {
		o.take("include")
		req.Include = inc
	}
	if v := o.get("store"); rawjson.Kind(v) == "boolean" {
		o.take("store")
		b := string(v) == "true"
		req.Store = &b
	}
	req.PreviousResponseID = o.takeString("previous_response_id")
	if n, ok := intValue(o.get("max_output_tokens")); ok && n > 0 {
		o.take("max_output_tokens")
		req.MaxTokens = n
	}
	// stream:false stays in Extra: the model's bool cannot tell it from absent.
	if string(o.get("stream")) == "true" {
		o.take("stream")
		req.Stream = true
	}
	req.Extra = o.rest()
	return req, nil
}

// decodeInput reads `input`: a bare string (one user message) or a list of
// items, one Message each.
func decodeInput(o *object, req *traffic.Request, decode func(json.RawMessage) ([]traffic.Message, error)) error {
	input := o.get("input")
	switch rawjson.Kind(input) {
	case "string":
		o.take("input")
		s, _ := rawjson.String(input)
		req.InputString = true
		req.Messages = []traffic.Message{{
			Role: traffic.RoleUser, Path: "input", ContentString: true,
			Blocks: []traffic.Block{{Type: traffic.BlockText, Text: s, Path: "input"}},
		}}
	case "array":
		o.take("input")
		msgs, err := decode(input)
		if err != nil {
			return err
		}
		req.Messages = msgs
	}
	return nil
}

// decodeItems reads an array of input items, one Message each.
func decodeItems(input json.RawMessage) ([]traffic.Message, error) {
	items, err := rawjson.Array(input)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	msgs := make([]traffic.Message, 0, len(items))
	for i, it := range items {
		m, err := decodeItem(it, rawjson.Index("input", i))
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// decodeTools reads `tools`. Function tools carry name, description and
// parameters at the top level of the definition (not nested under
// "function" as in Chat Completions); other tool kinds keep only Raw.
func decodeTools(o *object, req *traffic.Request) error {
	tools := o.get("tools")
	if rawjson.Kind(tools) != "array" {
		return nil
	}
	o.take("tools")
	defs, err := rawjson.Array(tools)
	if err != nil {
		return fmt.Errorf("tools: %w", err)
	}
	req.Tools = make([]traffic.Tool, 0, len(defs))
	for i, d := range defs {
		t, err := parseObject(d, rawjson.Index("tools", i))
		if err != nil {
			return err
		}
		tool := traffic.Tool{Raw: d}
		tool.Name, _ = t.str("name")
		if typ, _ := t.str("type"); typ == "function" {
			tool.Description, _ = t.str("description")
			tool.Schema = t.get("parameters")
		}
		req.Tools = append(req.Tools, tool)
	}
	return nil
}

// thinkingOf normalises `reasoning: {effort, summary}`: present means
// enabled, except effort "none", which turns reasoning off.
func thinkingOf(raw json.RawMessage) *traffic.Thinking {
	th := &traffic.Thinking{Type: "enabled", Raw: raw}
	if o, err := parseObject(raw, "reasoning"); err == nil {
		if effort, _ := o.str("effort"); effort == "none" {
			th.Type = "disabled"
		}
	}
	return th
}

// stringList reads a JSON array of strings.
func stringList(raw json.RawMessage) ([]string, bool) {
	if rawjson.Kind(raw) != "array" {
		return nil, false
	}
	elems, err := rawjson.Array(raw)
	if err != nil {
		return nil, false
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		s, ok := rawjson.String(e)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
