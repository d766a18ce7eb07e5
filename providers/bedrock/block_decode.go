package bedrock

import (
	"encoding/json"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Union member names of the content blocks the model interprets.
const (
	memberText       = "text"
	memberToolUse    = "toolUse"
	memberToolResult = "toolResult"
	memberReasoning  = "reasoningContent"
	memberJSON       = "json" // inside a toolResult's content
)

// decodeBlocks decodes the block array at path.
func decodeBlocks(path string, raw json.RawMessage) ([]traffic.Block, error) {
	items, err := rawjson.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	blocks := make([]traffic.Block, 0, len(items))
	for i, item := range items {
		b, err := decodeBlock(rawjson.Index(path, i), item)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// decodeBlock decodes one content block: a union with one member. A block
// with another member, or with more than one, is kept whole as BlockOther.
func decodeBlock(path string, raw json.RawMessage) (traffic.Block, error) {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil {
		return traffic.Block{}, err
	}
	other := traffic.Block{Type: traffic.BlockOther, Path: path, Raw: raw}
	if len(fields) != 1 {
		return other, nil
	}
	f := fields[0]
	other.WireType = f.Key
	if !hasMembers(f.Value, required[f.Key]...) {
		return other, nil // Bedrock refuses it; kept as sent for the checks to name
	}
	at := rawjson.At(path, f.Key)
	b := traffic.Block{WireType: f.Key, Path: path}
	switch f.Key {
	case memberText:
		b.Type = traffic.BlockText
		b.Text, err = rawjson.StringAt(at, f.Value)
		return b, err
	case memberToolUse:
		b.Type = traffic.BlockToolCall
		return b, decodeMembers(&b, at, f.Value, func(k string, v json.RawMessage, p string) (bool, error) {
			switch k {
			case "toolUseId":
				b.ID, err = rawjson.StringAt(p, v)
			case "name":
				b.Name, err = rawjson.StringAt(p, v)
			case "input":
				b.Input = v
			default:
				return false, nil
			}
			return true, err
		})
	case memberToolResult:
		b.Type = traffic.BlockToolResult
		return b, decodeMembers(&b, at, f.Value, func(k string, v json.RawMessage, p string) (bool, error) {
			switch k {
			case "toolUseId":
				b.ToolCallID, err = rawjson.StringAt(p, v)
			case "status":
				var s string
				s, err = rawjson.StringAt(p, v)
				b.IsError = s == "error"
				return false, err // kept in Extra too: "success" must come back as written
			case "content":
				b.ResultRaw = v
				b.Content, err = decodeResultContent(p, v)
			default:
				return false, nil
			}
			return true, err
		})
	case memberReasoning:
		return decodeReasoning(at, f.Value, other)
	}
	return other, nil
}

// required names the members an interpreted block cannot do without; the
// encoder writes each of them.
var required = map[string][]string{
	memberToolUse:    {"toolUseId", "name", "input"},
	memberToolResult: {"toolUseId", "content"},
}

// hasMembers reports whether raw is an object holding every key.
func hasMembers(raw json.RawMessage, keys ...string) bool {
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return len(keys) == 0
	}
	for _, k := range keys {
		if _, ok := rawjson.Lookup(fields, k); !ok {
			return false
		}
	}
	return true
}

// decodeMembers walks an interpreted member's object, giving each field to
// take; what take does not name goes to Extra.
func decodeMembers(b *traffic.Block, path string, raw json.RawMessage, take func(k string, v json.RawMessage, p string) (bool, error)) error {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil {
		return err
	}
	for _, f := range fields {
		taken, err := take(f.Key, f.Value, rawjson.At(path, f.Key))
		if err != nil {
			return err
		}
		if !taken {
			rawjson.SetExtra(&b.Extra, f.Key, f.Value)
		}
	}
	return nil
}

// decodeResultContent reads a toolResult's content: text and json blocks
// become text blocks (json as its raw JSON), others are kept whole.
func decodeResultContent(path string, raw json.RawMessage) ([]traffic.Block, error) {
	items, err := rawjson.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	out := make([]traffic.Block, 0, len(items))
	for i, item := range items {
		p := rawjson.Index(path, i)
		fields, err := rawjson.ObjectAt(p, item)
		if err != nil {
			return nil, err
		}
		b := traffic.Block{Type: traffic.BlockOther, Path: p, Raw: item}
		if len(fields) == 1 {
			switch f := fields[0]; f.Key {
			case memberText:
				text, err := rawjson.StringAt(rawjson.At(p, f.Key), f.Value)
				if err != nil {
					return nil, err
				}
				b = traffic.Block{Type: traffic.BlockText, WireType: memberText, Path: p, Text: text}
			case memberJSON:
				b = traffic.Block{Type: traffic.BlockText, WireType: memberJSON, Path: p, Text: string(rawjson.Compact(f.Value)), Raw: f.Value}
			}
		}
		out = append(out, b)
	}
	return out, nil
}

// decodeReasoning reads reasoningContent: {reasoningText: {text, signature}}
// as thinking, {redactedContent: "…"} as redacted thinking.
func decodeReasoning(path string, raw json.RawMessage, other traffic.Block) (traffic.Block, error) {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil || len(fields) != 1 {
		return other, err
	}
	f := fields[0]
	at := rawjson.At(path, f.Key)
	b := traffic.Block{WireType: memberReasoning, Path: other.Path}
	switch f.Key {
	case "reasoningText":
		if !hasMembers(f.Value, "text") {
			return other, nil
		}
		b.Type = traffic.BlockThinking
		return b, decodeMembers(&b, at, f.Value, func(k string, v json.RawMessage, p string) (bool, error) {
			switch k {
			case "text":
				b.Text, err = rawjson.StringAt(p, v)
			case "signature":
				b.Signature = v
			default:
				return false, nil
			}
			return true, err
		})
	case "redactedContent":
		b.Type = traffic.BlockRedacted
		b.Data = f.Value
		return b, nil
	}
	return other, nil
}
