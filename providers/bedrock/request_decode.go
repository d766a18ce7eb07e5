package bedrock

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// decodeRequest decodes a Converse request. messages and system go to the
// model; toolConfig gives Tools and ToolChoice, inferenceConfig.maxTokens
// MaxTokens and additionalModelRequestFields.thinking Thinking, while the
// objects themselves stay in Extra so encoding writes them back whole.
func decodeRequest(b []byte) (*traffic.Request, error) {
	if err := body.Object(b); err != nil {
		return nil, err
	}
	if err := body.UTF8(b); err != nil {
		return nil, err
	}
	fields, err := rawjson.ObjectAt("", b)
	if err != nil {
		return nil, err
	}
	return requestOf(fields, decodeMessages)
}

// decodeRequestMemo is decodeRequest with the messages decoded through
// memo, which validates only the messages it has not seen: a message
// already decoded at the same position is shared, not decoded again. A
// body with a fault of any kind is decoded again alone, which names the
// fault.
func decodeRequestMemo(b []byte, memo *traffic.Memo) (*traffic.Request, error) {
	fields, ok := rawjson.ValidatedExcept(b, memo.LastArray(), "messages")
	if ok && utf8.Valid(b) { // a pass much faster than the JSON's
		req, err := requestOf(rawjson.LastWins(fields), func(raw json.RawMessage) ([]traffic.Message, error) {
			return memo.DecodeMessages(raw, func(i int, item json.RawMessage) (traffic.Message, error) {
				return decodeMessage(rawjson.Index("messages", i), item)
			})
		})
		if err == nil {
			return req, nil
		}
	}
	return decodeRequest(b)
}

// requestOf reads a request from its top-level fields, the messages with
// decode.
func requestOf(fields []rawjson.Field, decode func(json.RawMessage) ([]traffic.Message, error)) (*traffic.Request, error) {
	var err error
	req := &traffic.Request{Wire: traffic.WireBedrock}
	for _, f := range fields {
		switch f.Key {
		case "messages":
			if req.Messages, err = decode(f.Value); err != nil {
				return nil, err
			}
		case "system":
			if req.System, err = decodeBlocks("system", f.Value); err != nil {
				return nil, err
			}
		case "toolConfig":
			if err := decodeToolConfig(req, f.Value); err != nil {
				return nil, err
			}
			rawjson.SetExtra(&req.Extra, f.Key, f.Value)
		case "inferenceConfig":
			if v, ok := lookup(f.Value, "maxTokens"); ok {
				if req.MaxTokens, err = rawjson.IntAt("inferenceConfig.maxTokens", v); err != nil {
					return nil, err
				}
			}
			rawjson.SetExtra(&req.Extra, f.Key, f.Value)
		case "additionalModelRequestFields":
			if v, ok := lookup(f.Value, "thinking"); ok {
				req.Thinking = decodeThinking(v)
			}
			rawjson.SetExtra(&req.Extra, f.Key, f.Value)
		default:
			rawjson.SetExtra(&req.Extra, f.Key, f.Value)
		}
	}
	return req, nil
}

// lookup is the value of key in a JSON object, if raw is one and has it.
func lookup(raw json.RawMessage, key string) (json.RawMessage, bool) {
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return nil, false
	}
	return rawjson.Lookup(fields, key)
}

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

// decodeMessage reads one message at path: role, content and any other key
// into Extra.
func decodeMessage(path string, item json.RawMessage) (traffic.Message, error) {
	fields, err := rawjson.ObjectAt(path, item)
	if err != nil {
		return traffic.Message{}, err
	}
	m := traffic.Message{Path: path}
	for _, f := range fields {
		switch f.Key {
		case "role":
			role, err := rawjson.StringAt(rawjson.At(path, "role"), f.Value)
			if err != nil {
				return traffic.Message{}, err
			}
			m.Role = traffic.Role(role)
			if role == "" { // kept, so the encoding writes it back
				rawjson.SetExtra(&m.Extra, f.Key, f.Value)
			}
		case "content":
			if m.Blocks, err = decodeBlocks(rawjson.At(path, "content"), f.Value); err != nil {
				return traffic.Message{}, err
			}
		default:
			rawjson.SetExtra(&m.Extra, f.Key, f.Value)
		}
	}
	return m, nil
}

// decodeToolConfig reads each toolSpec's name, description and input
// schema, and the tool choice.
func decodeToolConfig(req *traffic.Request, raw json.RawMessage) error {
	if rawjson.Kind(raw) == "null" {
		return nil // an unset structure, as AWS's JSON protocols read null
	}
	fields, err := rawjson.ObjectAt("toolConfig", raw)
	if err != nil {
		return err
	}
	if v, ok := rawjson.Lookup(fields, "toolChoice"); ok {
		req.ToolChoice = v
	}
	tools, ok := rawjson.Lookup(fields, "tools")
	if !ok {
		return nil
	}
	items, err := rawjson.ArrayAt("toolConfig.tools", tools)
	if err != nil {
		return err
	}
	for _, item := range items {
		t := traffic.Tool{Raw: item}
		if spec, ok := lookup(item, "toolSpec"); ok {
			if v, ok := lookup(spec, "name"); ok {
				t.Name, _ = rawjson.String(v)
			}
			if v, ok := lookup(spec, "description"); ok {
				t.Description, _ = rawjson.String(v)
			}
			if v, ok := lookup(spec, "inputSchema"); ok {
				t.Schema, _ = lookup(v, "json")
			}
		}
		req.Tools = append(req.Tools, t)
	}
	return nil
}

// decodeThinking reads Anthropic's thinking configuration as Bedrock passes
// it through additionalModelRequestFields.
func decodeThinking(raw json.RawMessage) *traffic.Thinking {
	t := &traffic.Thinking{Raw: raw}
	if v, ok := lookup(raw, "type"); ok {
		t.Type, _ = rawjson.String(v)
	}
	if v, ok := lookup(raw, "budget_tokens"); ok {
		t.BudgetTokens, _ = rawjson.IntAt("", v)
	}
	return t
}
