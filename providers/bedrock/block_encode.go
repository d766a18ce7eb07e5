package bedrock

import (
	"encoding/json"
	"fmt"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/traffic"
)

// encodeBlocks encodes blocks as a content array.
func encodeBlocks(blocks []traffic.Block) (json.RawMessage, error) {
	items := make([]json.RawMessage, 0, len(blocks))
	for i := range blocks {
		item, err := encodeBlock(&blocks[i])
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return rawjson.ArrayOf(items), nil
}

// encodeBlock encodes one block as its union member.
func encodeBlock(b *traffic.Block) (json.RawMessage, error) {
	var inner rawjson.Object
	member := ""
	switch b.Type {
	case traffic.BlockOther:
		if len(b.Raw) == 0 {
			return nil, fmt.Errorf("%s: a %s block without its raw value", b.Path, b.WireType)
		}
		return b.Raw, nil
	case traffic.BlockText:
		var o rawjson.Object
		o.String(memberText, b.Text)
		return o.Bytes(), nil
	case traffic.BlockToolCall:
		member = memberToolUse
		inner.String("toolUseId", b.ID)
		inner.String("name", b.Name)
		input := b.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		inner.Raw("input", input)
	case traffic.BlockToolResult:
		member = memberToolResult
		inner.String("toolUseId", b.ToolCallID)
		content := b.ResultRaw
		if s, ok := rawjson.String(content); ok {
			// A result the engine holds as a string (another wire's shape):
			// Converse takes a list of content blocks.
			var t rawjson.Object
			t.String(memberText, s)
			content = rawjson.ArrayOf([]json.RawMessage{t.Bytes()})
		}
		if len(content) == 0 {
			var err error
			if content, err = encodeResultContent(b.Content); err != nil {
				return nil, err
			}
		}
		inner.Raw("content", content)
		if _, kept := b.Extra["status"]; !kept && b.IsError {
			inner.String("status", "error")
		}
	case traffic.BlockThinking:
		var text rawjson.Object
		text.String("text", b.Text)
		if len(b.Signature) > 0 {
			text.Raw("signature", b.Signature)
		}
		text.Extra(b.Extra)
		var reasoning rawjson.Object
		reasoning.Raw("reasoningText", text.Bytes())
		var o rawjson.Object
		o.Raw(memberReasoning, reasoning.Bytes())
		return o.Bytes(), nil
	case traffic.BlockImage, traffic.BlockDocument:
		mt, data, ok := media.Neutral(b.Source)
		if !ok {
			return nil, fmt.Errorf("%s: Converse takes a %s as {format, source: {bytes}}; this one's source is another wire's", b.Path, b.Type)
		}
		member = "image"
		inner.String("format", media.Format(mt))
		if b.Type == traffic.BlockDocument {
			member = "document"
			inner.String("name", "document")
		}
		var src rawjson.Object
		src.String("bytes", data)
		inner.Raw("source", src.Bytes())
	case traffic.BlockRedacted:
		var reasoning rawjson.Object
		reasoning.Raw("redactedContent", b.Data)
		var o rawjson.Object
		o.Raw(memberReasoning, reasoning.Bytes())
		return o.Bytes(), nil
	default:
		return nil, fmt.Errorf("%s: Converse has no %s block", b.Path, b.Type)
	}
	inner.Extra(b.Extra)
	var o rawjson.Object
	o.Raw(member, inner.Bytes())
	return o.Bytes(), nil
}

// encodeResultContent writes a tool result's content blocks.
func encodeResultContent(blocks []traffic.Block) (json.RawMessage, error) {
	items := make([]json.RawMessage, 0, len(blocks))
	for _, b := range blocks {
		var o rawjson.Object
		switch {
		case b.Type == traffic.BlockText && b.WireType == memberJSON && len(b.Raw) > 0:
			o.Raw(memberJSON, b.Raw)
		case b.Type == traffic.BlockText:
			o.String(memberText, b.Text)
		case len(b.Raw) > 0:
			items = append(items, b.Raw)
			continue
		default:
			return nil, fmt.Errorf("%s: a %s block in a toolResult", b.Path, b.Type)
		}
		items = append(items, o.Bytes())
	}
	return rawjson.ArrayOf(items), nil
}
