package anthropic

import (
	"encoding/json"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Wire names of the content blocks the model interprets.
const (
	wireText       = "text"
	wireImage      = "image"
	wireDocument   = "document"
	wireThinking   = "thinking"
	wireRedacted   = "redacted_thinking"
	wireToolUse    = "tool_use"
	wireToolResult = "tool_result"
)

// taker moves one named field of a wire block into b. It reports false for a
// field it does not name, which then goes to Extra.
type taker func(b *traffic.Block, f rawjson.Field, path string) (bool, error)

// kindOf returns the model type and taker of an interpreted wire type; ok
// is false for every other type.
func kindOf(wireType string) (typ traffic.BlockType, take taker, ok bool) {
	switch wireType {
	case wireText:
		return traffic.BlockText, takeText, true
	case wireThinking:
		return traffic.BlockThinking, takeThinking, true
	case wireRedacted:
		return traffic.BlockRedacted, takeRedacted, true
	case wireImage:
		return traffic.BlockImage, takeMedia, true
	case wireDocument:
		return traffic.BlockDocument, takeMedia, true
	case wireToolUse:
		return traffic.BlockToolCall, takeToolUse, true
	case wireToolResult:
		return traffic.BlockToolResult, takeToolResult, true
	}
	return traffic.BlockOther, nil, false
}

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

// decodeBlock decodes one content block. A block whose type the model does
// not interpret (server_tool_use, web_search_tool_result, search_result,
// container_upload…) or that has no string "type" becomes BlockOther with
// the whole object in Raw, so nothing is lost.
func decodeBlock(path string, raw json.RawMessage) (traffic.Block, error) {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil {
		return traffic.Block{}, err
	}
	typ := lookupString(fields, "type")
	b := traffic.Block{WireType: typ, Path: path}
	modelType, take, ok := kindOf(typ)
	if !ok {
		b.Type = traffic.BlockOther
		b.Raw = raw
		return b, nil
	}
	b.Type = modelType
	for _, f := range fields {
		if f.Key == "type" {
			continue
		}
		taken, err := take(&b, f, rawjson.At(path, f.Key))
		if err != nil {
			return traffic.Block{}, err
		}
		if !taken {
			rawjson.SetExtra(&b.Extra, f.Key, f.Value)
		}
	}
	return b, nil
}

func takeText(b *traffic.Block, f rawjson.Field, path string) (bool, error) {
	if f.Key != "text" {
		return false, nil
	}
	var err error
	b.Text, err = rawjson.StringAt(path, f.Value)
	return true, err
}

func takeThinking(b *traffic.Block, f rawjson.Field, path string) (bool, error) {
	switch f.Key {
	case "thinking":
		var err error
		b.Text, err = rawjson.StringAt(path, f.Value)
		return true, err
	case "signature":
		b.Signature = f.Value
		return true, nil
	}
	return false, nil
}

func takeRedacted(b *traffic.Block, f rawjson.Field, path string) (bool, error) {
	if f.Key != "data" {
		return false, nil
	}
	b.Data = f.Value
	return true, nil
}

// takeMedia keeps an image or document source raw; MediaType is read from it
// for the checks' convenience, the source stays the authority.
func takeMedia(b *traffic.Block, f rawjson.Field, path string) (bool, error) {
	if f.Key != "source" {
		return false, nil
	}
	b.Source = f.Value
	if src, err := rawjson.Fields(f.Value); err == nil {
		b.MediaType = lookupString(src, "media_type")
	}
	return true, nil
}

func takeToolUse(b *traffic.Block, f rawjson.Field, path string) (bool, error) {
	var err error
	switch f.Key {
	case "id":
		b.ID, err = rawjson.StringAt(path, f.Value)
	case "name":
		b.Name, err = rawjson.StringAt(path, f.Value)
	case "input":
		b.Input = f.Value
	default:
		return false, nil
	}
	return true, err
}

// takeToolResult reads a tool_result. content is a block list (Content) or,
// as a string or null, kept raw in ResultRaw. is_error:false, which IsError
// cannot tell from absent, also stays in Extra so the body encodes back the
// same.
func takeToolResult(b *traffic.Block, f rawjson.Field, path string) (bool, error) {
	var err error
	switch f.Key {
	case "tool_use_id":
		b.ToolCallID, err = rawjson.StringAt(path, f.Value)
	case "is_error":
		if rawjson.IsNull(f.Value) {
			return false, nil
		}
		b.IsError, err = rawjson.BoolAt(path, f.Value)
		return b.IsError || err != nil, err
	case "content":
		switch rawjson.Kind(f.Value) {
		case "string", "null":
			b.ResultRaw = f.Value
		case "array":
			b.Content, err = decodeBlocks(path, f.Value)
		default:
			err = rawjson.Mismatch(path, "a string or an array", f.Value)
		}
	default:
		return false, nil
	}
	return true, err
}
