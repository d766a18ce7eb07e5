package anthropic

import (
	"encoding/json"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// decodeRequest decodes a Messages request body. Named top-level fields go
// to the model; a named field that is null, or whose value the model cannot
// tell from absent ("stream": false, "max_tokens": 0, "model": ""), is also
// kept in Extra so that encoding gives the same JSON value back.
func decodeRequest(b []byte, memo *traffic.Memo) (*traffic.Request, error) {
	fields, err := requestFields(b, memo)
	if err != nil {
		return nil, err
	}
	req := &traffic.Request{Wire: traffic.WireAnthropic}
	for _, f := range fields {
		if f.Key == "messages" && memo != nil && !rawjson.IsNull(f.Value) {
			if req.Messages, err = decodeMessagesValidating(f.Value, memo); err != nil {
				return nil, invalidBody(b, err)
			}
			continue
		}
		if err := decodeRequestField(req, f); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// requestFields validates body and reads its top-level fields. With a
// memo, the messages are left to decodeMessagesValidating, which validates
// only those the memo has not seen: the requests of a growing conversation
// are then validated in time linear in their new content.
func requestFields(b []byte, memo *traffic.Memo) ([]rawjson.Field, error) {
	if memo != nil {
		if fields, ok := rawjson.ValidatedExcept(b, memo.LastArray(), "messages"); ok {
			return rawjson.LastWins(fields), nil
		}
	}
	if err := body.Object(b); err != nil {
		return nil, err
	}
	return rawjson.ValidatedObject(b)
}

// invalidBody is the error for a body that did not validate: the first
// fault encoding/json finds in it, or err when it finds none.
func invalidBody(b []byte, err error) error {
	if verr := body.Object(b); verr != nil {
		return verr
	}
	return err
}

// decodeMessagesValidating is decodeMessages for a messages array whose
// items were not validated: an item the memo has decoded before was valid
// then; any other is validated before it is decoded.
func decodeMessagesValidating(raw json.RawMessage, memo *traffic.Memo) ([]traffic.Message, error) {
	if rawjson.Kind(raw) != "array" {
		return nil, rawjson.Mismatch("messages", "an array", raw)
	}
	return memo.DecodeMessages(raw, func(i int, item json.RawMessage) (traffic.Message, error) {
		return decodeMessage(rawjson.Index("messages", i), item)
	})
}

func decodeRequestField(req *traffic.Request, f rawjson.Field) error {
	named := true
	var err error
	switch f.Key {
	case "model", "max_tokens", "stream", "system", "messages", "tools", "tool_choice", "thinking":
	default:
		named = false
	}
	if !named || rawjson.IsNull(f.Value) {
		rawjson.SetExtra(&req.Extra, f.Key, f.Value)
		return nil
	}
	keep := false // also keep the raw value in Extra
	switch f.Key {
	case "model":
		req.Model, err = rawjson.StringAt(f.Key, f.Value)
		keep = req.Model == ""
	case "max_tokens":
		req.MaxTokens, err = rawjson.IntAt(f.Key, f.Value)
		keep = req.MaxTokens == 0
	case "stream":
		req.Stream, err = rawjson.BoolAt(f.Key, f.Value)
		keep = !req.Stream
	case "system":
		err = decodeSystem(req, f.Value)
	case "messages":
		req.Messages, err = decodeMessages(f.Value)
	case "tools":
		req.Tools, err = decodeTools(f.Value)
	case "tool_choice":
		req.ToolChoice = f.Value
	case "thinking":
		req.Thinking, err = decodeThinking(f.Value)
	}
	if keep {
		rawjson.SetExtra(&req.Extra, f.Key, f.Value)
	}
	return err
}

// decodeSystem reads the top-level system prompt: a bare string (one text
// block, SystemString set) or a block array.
func decodeSystem(req *traffic.Request, raw json.RawMessage) error {
	switch rawjson.Kind(raw) {
	case "string":
		s, _ := rawjson.String(raw)
		req.SystemString = true
		req.System = []traffic.Block{{Type: traffic.BlockText, WireType: wireText, Path: "system", Text: s}}
		return nil
	case "array":
		blocks, err := decodeBlocks("system", raw)
		req.System = blocks
		return err
	}
	return rawjson.Mismatch("system", "a string or an array", raw)
}

// decodeMessages reads the messages array. An empty array stays a non-nil
// empty slice so it encodes back as [] rather than being left out.
func decodeMessages(raw json.RawMessage) ([]traffic.Message, error) {
	items, err := rawjson.ArrayAt("messages", raw)
	if err != nil {
		return nil, err
	}
	msgs := make([]traffic.Message, 0, len(items))
	for i, item := range items {
		m, err := decodeMessage(rawjson.Index("messages", i), item)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// decodeMessage reads one message: role, content (string, block array or
// null) and any other key into Extra.
func decodeMessage(path string, raw json.RawMessage) (traffic.Message, error) {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil {
		return traffic.Message{}, err
	}
	m := traffic.Message{Path: path}
	for _, f := range fields {
		p := rawjson.At(path, f.Key)
		switch f.Key {
		case "role":
			role, err := rawjson.StringAt(p, f.Value)
			if err != nil {
				return traffic.Message{}, err
			}
			m.Role = traffic.Role(role)
		case "content":
			if err := decodeContent(&m, p, f.Value); err != nil {
				return traffic.Message{}, err
			}
		default:
			rawjson.SetExtra(&m.Extra, f.Key, f.Value)
		}
	}
	return m, nil
}

func decodeContent(m *traffic.Message, path string, raw json.RawMessage) error {
	switch rawjson.Kind(raw) {
	case "string":
		s, _ := rawjson.String(raw)
		m.ContentString = true
		m.Blocks = []traffic.Block{{Type: traffic.BlockText, WireType: wireText, Path: path, Text: s}}
	case "null":
		m.ContentNull = true
	case "array":
		blocks, err := decodeBlocks(path, raw)
		if err != nil {
			return err
		}
		m.Blocks = blocks
	default:
		return rawjson.Mismatch(path, "a string or an array", raw)
	}
	return nil
}

// decodeTools reads tool definitions; Raw keeps each whole definition
// (server tools such as web_search carry their own fields).
func decodeTools(raw json.RawMessage) ([]traffic.Tool, error) {
	items, err := rawjson.ArrayAt("tools", raw)
	if err != nil {
		return nil, err
	}
	tools := make([]traffic.Tool, 0, len(items))
	for i, item := range items {
		fields, err := rawjson.ObjectAt(rawjson.Index("tools", i), item)
		if err != nil {
			return nil, err
		}
		schema, _ := rawjson.Lookup(fields, "input_schema")
		tools = append(tools, traffic.Tool{
			Name:        lookupString(fields, "name"),
			Description: lookupString(fields, "description"),
			Schema:      schema,
			Raw:         item,
		})
	}
	return tools, nil
}

// decodeThinking reads the thinking configuration; Raw keeps the value.
func decodeThinking(raw json.RawMessage) (*traffic.Thinking, error) {
	fields, err := rawjson.ObjectAt("thinking", raw)
	if err != nil {
		return nil, err
	}
	budget, _ := lookupInt(fields, "budget_tokens")
	return &traffic.Thinking{Type: lookupString(fields, "type"), BudgetTokens: budget, Raw: raw}, nil
}
