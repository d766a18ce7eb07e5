package anthropic

import (
	"encoding/json"
	"sort"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/traffic"
)

// mediaSource is a media block's source on this wire: a neutral
// {mediaType, data} becomes a base64 source block; a wire source is kept.
func mediaSource(src json.RawMessage) json.RawMessage {
	mt, data, ok := media.Neutral(src)
	if !ok {
		return src
	}
	var o rawjson.Object
	o.String("type", "base64")
	o.String("media_type", mt)
	o.String("data", data)
	return o.Bytes()
}

// objectWriter builds a JSON object in wire order and remembers which keys it
// wrote, so Extra never repeats a named key.
type objectWriter struct {
	obj  rawjson.Object
	seen map[string]bool
}

func (w *objectWriter) raw(key string, v json.RawMessage) {
	if len(v) == 0 {
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.obj.Raw(key, v)
	w.seen[key] = true
}

func (w *objectWriter) str(key, v string) { w.raw(key, rawjson.Quote(v)) }

// extra writes the keys of m not written yet, sorted.
func (w *objectWriter) extra(m map[string]json.RawMessage) {
	keys := make([]string, 0, len(m))
	for k := range m {
		if !w.seen[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.raw(k, m[k])
	}
}

func (w *objectWriter) bytes() json.RawMessage { return w.obj.Bytes() }

// encodeBlocks encodes blocks as a JSON array; path names them in errors.
func encodeBlocks(path string, blocks []traffic.Block) (json.RawMessage, error) {
	items := make([]json.RawMessage, 0, len(blocks))
	for i := range blocks {
		item, err := encodeBlock(rawjson.Index(path, i), &blocks[i])
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return rawjson.ArrayOf(items), nil
}

// encodeBlock encodes one block. Fields the wire requires for the type are
// always written; opaque tokens only when present; Extra after them.
func encodeBlock(path string, b *traffic.Block) (json.RawMessage, error) {
	var w objectWriter
	switch b.Type {
	case traffic.BlockOther:
		if len(b.Raw) == 0 {
			return nil, rawjson.Errorf(path, "block of type %q (wire type %q) has no Raw to write", b.Type, b.WireType)
		}
		return b.Raw, nil
	case traffic.BlockText:
		w.str("type", wireText)
		w.str("text", b.Text)
	case traffic.BlockThinking:
		w.str("type", wireThinking)
		w.str("thinking", b.Text)
		w.raw("signature", b.Signature)
	case traffic.BlockRedacted:
		w.str("type", wireRedacted)
		w.raw("data", b.Data)
	case traffic.BlockImage:
		w.str("type", wireImage)
		w.raw("source", mediaSource(b.Source))
	case traffic.BlockDocument:
		w.str("type", wireDocument)
		w.raw("source", mediaSource(b.Source))
	case traffic.BlockToolCall:
		w.str("type", wireToolUse)
		w.str("id", b.ID)
		w.str("name", b.Name)
		w.raw("input", b.Input)
	case traffic.BlockToolResult:
		if err := encodeToolResult(&w, path, b); err != nil {
			return nil, err
		}
	default:
		return nil, rawjson.Errorf(path, "block type %q cannot be written on the Anthropic wire", b.Type)
	}
	w.extra(b.Extra)
	return w.bytes(), nil
}

// encodeToolResult writes content from ResultRaw when set, else from Content
// when it is not nil (an empty list is written as []).
func encodeToolResult(w *objectWriter, path string, b *traffic.Block) error {
	w.str("type", wireToolResult)
	w.str("tool_use_id", b.ToolCallID)
	if b.IsError {
		w.raw("is_error", json.RawMessage("true"))
	}
	switch {
	case len(b.ResultRaw) > 0:
		w.raw("content", b.ResultRaw)
	case b.Content != nil:
		content, err := encodeBlocks(rawjson.At(path, "content"), b.Content)
		if err != nil {
			return err
		}
		w.raw("content", content)
	}
	return nil
}
