package openai

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Wire names of the reasoning text that OpenAI-compatible hosts put on
// assistant messages: DeepSeek and Moonshot use reasoning_content, Groq and
// OpenRouter use reasoning. Each becomes a BlockThinking with this WireType.
const (
	wireReasoningContent = "reasoning_content"
	wireReasoning        = "reasoning"
)

// functionPrefix marks tool-call Extra keys that live inside the call's
// "function" (or "custom") object rather than beside it: "function.strict".
const functionPrefix = "function."

// decodeMessage decodes one chat message at path. Requests require a role;
// response messages default to assistant.
//
// Blocks come in a fixed order: reasoning (thinking) first, then content,
// then tool calls. A tool message holds exactly one BlockToolResult.
func decodeMessage(raw json.RawMessage, path string, defaultRole traffic.Role) (traffic.Message, error) {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil {
		return traffic.Message{}, err
	}
	m := traffic.Message{Path: path, Role: defaultRole}
	var (
		content, toolCallID json.RawMessage
		hasContent, hasRole bool
		thinking, calls     []traffic.Block
	)
	// First pass: the role decides how the other fields read.
	for _, f := range fields {
		if f.Key != "role" {
			continue
		}
		s, ok := rawjson.String(f.Value)
		if !ok {
			return traffic.Message{}, rawjson.Mismatch(rawjson.At(path, "role"), "a string", f.Value)
		}
		m.Role, hasRole = traffic.Role(s), true
	}
	if !hasRole && defaultRole == "" {
		return traffic.Message{}, rawjson.Mismatch(rawjson.At(path, "role"), "a string", nil)
	}
	for _, f := range fields {
		p := rawjson.At(path, f.Key)
		switch f.Key {
		case "role":
		case "name":
			if s, ok := rawjson.String(f.Value); ok {
				m.Name = s
			} else {
				rawjson.SetExtra(&m.Extra, f.Key, f.Value)
			}
		case "content":
			content, hasContent = f.Value, true
		case "tool_call_id":
			toolCallID = f.Value
		case "tool_calls":
			if rawjson.IsNull(f.Value) {
				rawjson.SetExtra(&m.Extra, f.Key, f.Value)
				continue
			}
			items, err := rawjson.ArrayAt(p, f.Value)
			if err != nil {
				return traffic.Message{}, err
			}
			if len(items) == 0 { // kept, so an empty list (which OpenAI rejects) stays visible
				rawjson.SetExtra(&m.Extra, f.Key, f.Value)
			}
			calls = calls[:0]
			for i, it := range items {
				b, err := decodeToolCall(it, rawjson.Index(p, i))
				if err != nil {
					return traffic.Message{}, err
				}
				calls = append(calls, b)
			}
		case wireReasoningContent, wireReasoning:
			s, ok := rawjson.String(f.Value)
			if !ok || m.Role != traffic.RoleAssistant {
				rawjson.SetExtra(&m.Extra, f.Key, f.Value)
				continue
			}
			thinking = append(thinking, traffic.Block{Type: traffic.BlockThinking, WireType: f.Key, Path: p, Text: s})
		default:
			rawjson.SetExtra(&m.Extra, f.Key, f.Value)
		}
	}

	m.Blocks = append(m.Blocks, thinking...)
	if m.Role == traffic.RoleTool {
		b, err := decodeToolResult(path, content, toolCallID)
		if err != nil {
			return traffic.Message{}, err
		}
		m.ContentString = rawjson.Kind(content) == "string"
		m.ContentNull = rawjson.IsNull(content)
		m.Blocks = append(m.Blocks, b)
	} else {
		if toolCallID != nil {
			rawjson.SetExtra(&m.Extra, "tool_call_id", toolCallID)
		}
		if hasContent {
			if err := decodeContent(&m, content, rawjson.At(path, "content")); err != nil {
				return traffic.Message{}, err
			}
		}
	}
	m.Blocks = append(m.Blocks, calls...)
	if m.Blocks == nil {
		m.Blocks = []traffic.Block{}
	}
	return m, nil
}

// decodeContent reads a message's content: a string, null, or a list of parts.
func decodeContent(m *traffic.Message, content json.RawMessage, path string) error {
	switch rawjson.Kind(content) {
	case "string":
		s, _ := rawjson.String(content)
		m.ContentString = true
		m.Blocks = append(m.Blocks, traffic.Block{Type: traffic.BlockText, Path: path, Text: s})
	case "null":
		m.ContentNull = true
	case "array":
		parts, err := decodeParts(content, path)
		if err != nil {
			return err
		}
		if len(parts) == 0 { // an empty list is not the same as no content
			rawjson.SetExtra(&m.Extra, "content", content)
		}
		m.Blocks = append(m.Blocks, parts...)
	default:
		return rawjson.Mismatch(path, "a string, an array or null", content)
	}
	return nil
}

// decodeParts reads a list of content parts.
func decodeParts(raw json.RawMessage, path string) ([]traffic.Block, error) {
	items, err := rawjson.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	blocks := make([]traffic.Block, 0, len(items))
	for i, it := range items {
		b, err := decodePart(it, rawjson.Index(path, i))
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// decodePart reads one content part. Parts the model names (text, image_url,
// file) become Text/Image/Document blocks; anything else, or a known part
// whose payload has an unexpected shape, is kept whole as BlockOther.
func decodePart(raw json.RawMessage, path string) (traffic.Block, error) {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil {
		return traffic.Block{}, err
	}
	other := traffic.Block{Type: traffic.BlockOther, Path: path, Raw: raw}
	var typ string
	for _, f := range fields {
		if f.Key == "type" {
			typ, _ = rawjson.String(f.Value)
		}
	}
	other.WireType = typ
	b := traffic.Block{WireType: typ, Path: path}
	var payload string
	switch typ {
	case "text":
		b.Type, payload = traffic.BlockText, "text"
	case "image_url":
		b.Type, payload = traffic.BlockImage, "image_url"
	case "file":
		b.Type, payload = traffic.BlockDocument, "file"
	default:
		return other, nil
	}
	seen := false
	for _, f := range fields {
		switch f.Key {
		case "type":
		case payload:
			seen = true
			if typ == "text" {
				s, ok := rawjson.String(f.Value)
				if !ok {
					return other, nil
				}
				b.Text = s
				continue
			}
			b.Source = f.Value
			b.MediaType = mediaType(f.Value)
		default:
			rawjson.SetExtra(&b.Extra, f.Key, f.Value)
		}
	}
	if !seen {
		return other, nil
	}
	return b, nil
}

// mediaType reads the MIME type of a data URL inside an image_url or file
// payload ("data:image/png;base64,…" → "image/png"); "" when there is none.
func mediaType(src json.RawMessage) string {
	url, ok := rawjson.String(src)
	if !ok {
		var v struct {
			URL      string `json:"url"`
			FileData string `json:"file_data"`
		}
		if json.Unmarshal(src, &v) != nil {
			return ""
		}
		url = v.URL + v.FileData
	}
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return ""
	}
	mt, _, _ := strings.Cut(rest, ",")
	mt, _, _ = strings.Cut(mt, ";")
	return mt
}

// decodeToolCall reads one assistant tool_calls entry. Input is the raw
// arguments token exactly as sent (a JSON string on this wire); every other
// field of the call, type included, is kept in Extra.
func decodeToolCall(raw json.RawMessage, path string) (traffic.Block, error) {
	fields, err := rawjson.ObjectAt(path, raw)
	if err != nil {
		return traffic.Block{}, err
	}
	b := traffic.Block{Type: traffic.BlockToolCall, Path: path}
	for _, f := range fields {
		if f.Key == "type" {
			b.WireType, _ = rawjson.String(f.Value)
		}
	}
	payloadKey, argsKey := payloadKeys(b.WireType)
	for _, f := range fields {
		switch f.Key {
		case "id":
			if s, ok := rawjson.String(f.Value); ok {
				b.ID = s
				continue
			}
			rawjson.SetExtra(&b.Extra, f.Key, f.Value)
		case payloadKey:
			if rawjson.Kind(f.Value) != "object" {
				rawjson.SetExtra(&b.Extra, f.Key, f.Value)
				continue
			}
			inner, err := rawjson.ObjectAt(rawjson.At(path, f.Key), f.Value)
			if err != nil {
				return traffic.Block{}, err
			}
			for _, g := range inner {
				switch g.Key {
				case "name":
					if s, ok := rawjson.String(g.Value); ok {
						b.Name = s
						continue
					}
					rawjson.SetExtra(&b.Extra, functionPrefix+g.Key, g.Value)
				case argsKey:
					b.Input = g.Value
				default:
					rawjson.SetExtra(&b.Extra, functionPrefix+g.Key, g.Value)
				}
			}
		default:
			rawjson.SetExtra(&b.Extra, f.Key, f.Value)
		}
	}
	return b, nil
}

// payloadKeys names the object that holds a tool call's name and arguments:
// "function"/"arguments", or "custom"/"input" for custom tools.
func payloadKeys(callType string) (payload, args string) {
	if callType == "custom" {
		return "custom", "input"
	}
	return "function", "arguments"
}

// decodeToolResult reads a role "tool" message into one BlockToolResult.
// ResultRaw is the content exactly as sent; Text (for a string) and Content
// (for a list of parts) are read from it for the checks.
func decodeToolResult(path string, content, toolCallID json.RawMessage) (traffic.Block, error) {
	b := traffic.Block{Type: traffic.BlockToolResult, Path: path, ResultRaw: content}
	if toolCallID != nil {
		if s, ok := rawjson.String(toolCallID); ok {
			b.ToolCallID = s
		} else {
			rawjson.SetExtra(&b.Extra, "tool_call_id", toolCallID)
		}
	}
	switch rawjson.Kind(content) {
	case "string":
		b.Text, _ = rawjson.String(content)
	case "array":
		parts, err := decodeParts(content, rawjson.At(path, "content"))
		if err != nil {
			return traffic.Block{}, err
		}
		b.Content = parts
	}
	return b, nil
}
