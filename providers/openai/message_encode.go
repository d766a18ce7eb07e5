package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/traffic"
)

// encodeMessage writes one message. Blocks decoded from a body are written
// back as they came; blocks built in code (no Path) get the fields the wire
// requires, such as a tool call's "type":"function".
func encodeMessage(m *traffic.Message, path string) (json.RawMessage, error) {
	var (
		o        rawjson.Object
		written  = map[string]bool{}
		thinking = map[string][]string{}
		order    []string // reasoning keys in first-seen order
		content  []traffic.Block
		calls    []json.RawMessage
		result   *traffic.Block
	)
	put := func(key string, v json.RawMessage) {
		if len(v) > 0 {
			o.Raw(key, v)
			written[key] = true
		}
	}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		switch b.Type {
		case traffic.BlockThinking:
			key := b.WireType
			if key != wireReasoning {
				key = wireReasoningContent
			}
			if _, ok := thinking[key]; !ok {
				order = append(order, key)
			}
			thinking[key] = append(thinking[key], b.Text)
		case traffic.BlockToolCall:
			calls = append(calls, encodeToolCall(b))
		case traffic.BlockToolResult:
			if result == nil {
				result = b
			}
		case traffic.BlockRedacted, traffic.BlockReasoning:
			return nil, fmt.Errorf("%s: a %s block has no form on the chat completions wire", blockPath(b, path, i), b.Type)
		default:
			content = append(content, *b)
		}
	}

	put("role", rawjson.Quote(string(m.Role)))
	if m.Name != "" {
		put("name", rawjson.Quote(m.Name))
	}
	if result != nil {
		if result.ToolCallID != "" {
			put("tool_call_id", rawjson.Quote(result.ToolCallID))
		}
		writeExtra(&o, result.Extra, func(k string) bool { return written[k] })
		for k := range result.Extra {
			written[k] = true
		}
		put("content", toolResultContent(result))
	} else {
		c, err := encodeContent(m, content, path)
		if err != nil {
			return nil, err
		}
		put("content", c)
	}
	for _, key := range order {
		put(key, rawjson.Quote(strings.Join(thinking[key], "")))
	}
	if len(calls) > 0 {
		put("tool_calls", rawjson.ArrayOf(calls))
	}
	writeExtra(&o, m.Extra, func(k string) bool { return written[k] })
	return o.Bytes(), nil
}

// blockPath names a block in an error: its own Path, or its position.
func blockPath(b *traffic.Block, msgPath string, i int) string {
	if b.Path != "" {
		return b.Path
	}
	return fmt.Sprintf("%s.blocks[%d]", msgPath, i)
}

// encodeContent writes a non-tool message's content in the shape it came in:
// a bare string, null, or a list of parts. Nothing is written when there is
// no content, unless Extra remembers the original (an empty list).
func encodeContent(m *traffic.Message, blocks []traffic.Block, path string) (json.RawMessage, error) {
	switch {
	case m.ContentString && len(blocks) == 1 && blocks[0].Type == traffic.BlockText && len(blocks[0].Extra) == 0:
		return rawjson.Quote(blocks[0].Text), nil
	case len(blocks) == 0 && m.ContentNull:
		return json.RawMessage("null"), nil
	case len(blocks) == 0:
		return nil, nil
	}
	parts := make([]json.RawMessage, 0, len(blocks))
	for i := range blocks {
		p, err := encodePart(&blocks[i], rawjson.Index(rawjson.At(path, "content"), i))
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	return rawjson.ArrayOf(parts), nil
}

// encodePart writes one content part.
func encodePart(b *traffic.Block, path string) (json.RawMessage, error) {
	var (
		o       rawjson.Object
		payload string
		value   json.RawMessage
	)
	switch b.Type {
	case traffic.BlockText:
		payload, value = "text", rawjson.Quote(b.Text)
	case traffic.BlockImage:
		payload, value = "image_url", b.Source
		if mt, data, ok := media.Neutral(b.Source); ok {
			// A neutral part: Chat takes inline images as data URLs.
			var u rawjson.Object
			u.String("url", media.DataURL(mt, data))
			value = u.Bytes()
		} else if b.Path == "" {
			value = wrapURL(b.Source)
		}
	case traffic.BlockDocument:
		payload, value = "file", b.Source
		if mt, data, ok := media.Neutral(b.Source); ok {
			var f rawjson.Object
			f.String("filename", media.Filename(mt))
			f.String("file_data", media.DataURL(mt, data))
			value = f.Bytes()
		}
	case traffic.BlockOther:
		if len(b.Raw) == 0 {
			return nil, fmt.Errorf("%s: an other block has no Raw to write", path)
		}
		return b.Raw, nil
	default:
		return nil, fmt.Errorf("%s: a %s block cannot be a content part", path, b.Type)
	}
	o.String("type", payload)
	o.Raw(payload, value)
	writeExtra(&o, b.Extra, func(k string) bool { return k == "type" || k == payload })
	return o.Bytes(), nil
}

// wrapURL turns an image source given in code as a bare URL string into the
// wire's {"url": …} object; an object is written as it is.
func wrapURL(src json.RawMessage) json.RawMessage {
	if rawjson.Kind(src) != "string" {
		return src
	}
	var o rawjson.Object
	o.Raw("url", src)
	return o.Bytes()
}

// toolResultContent is a tool message's content: the raw value when it was
// decoded (ResultRaw is the truth; Text and Content are read from it), or,
// for a block built in code, its parts or text.
func toolResultContent(b *traffic.Block) json.RawMessage {
	switch {
	case len(b.ResultRaw) > 0:
		return b.ResultRaw
	case b.Path != "":
		return nil
	case len(b.Content) > 0:
		parts := make([]json.RawMessage, 0, len(b.Content))
		for i := range b.Content {
			if p, err := encodePart(&b.Content[i], ""); err == nil {
				parts = append(parts, p)
			}
		}
		return rawjson.ArrayOf(parts)
	default:
		return rawjson.Quote(b.Text)
	}
}

// encodeToolCall writes one tool_calls entry. Extra carries the decoded
// call's own fields back (type, extra_content.google.thought_signature…);
// Extra keys with the "function." prefix go inside the function object.
func encodeToolCall(b *traffic.Block) json.RawMessage {
	var o rawjson.Object
	if b.ID != "" {
		o.String("id", b.ID)
	}
	_, hasType := b.Extra["type"]
	if !hasType && b.Path == "" {
		typ := b.WireType
		if typ == "" {
			typ = "function"
		}
		o.String("type", typ)
	}
	payloadKey, argsKey := payloadKeys(b.WireType)
	if _, kept := b.Extra[payloadKey]; !kept {
		var fn rawjson.Object
		if b.Name != "" {
			fn.String("name", b.Name)
		}
		args := arguments(b)
		fn.Raw(argsKey, args)
		inner := map[string]json.RawMessage{}
		for k, v := range b.Extra {
			name, ok := strings.CutPrefix(k, functionPrefix)
			if ok && !(name == "name" && b.Name != "") && !(name == argsKey && len(args) > 0) {
				inner[name] = v
			}
		}
		fn.Extra(inner)
		o.Raw(payloadKey, fn.Bytes())
	}
	writeExtra(&o, b.Extra, func(k string) bool {
		return k == "id" && b.ID != "" || strings.HasPrefix(k, functionPrefix)
	})
	return o.Bytes()
}

// arguments is a tool call's arguments token. Decoded calls keep theirs
// byte for byte; a call built in code with an object Input gets it wrapped
// in the JSON string this wire requires.
func arguments(b *traffic.Block) json.RawMessage {
	if b.Path == "" && rawjson.Kind(b.Input) == "object" {
		return rawjson.Quote(string(b.Input))
	}
	return b.Input
}
