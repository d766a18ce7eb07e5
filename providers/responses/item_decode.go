package responses

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Every input or output item becomes its own Message, so item boundaries and
// order survive: a reasoning item, the message after it and a function call
// are three messages, not one. Where the item's own id lives:
//   - reasoning, function_call, function_call_output and items the model
//     does not interpret: Block.ItemID of the item's single block;
//   - message items: Message.Extra["id"], raw, because a message may have no
//     content part to carry it. ItemID reads both.

// summarySeparator joins a reasoning item's summary texts into Block.Text.
const summarySeparator = "\n\n"

// decodeItem maps one item of input[] or output[] found at path.
func decodeItem(raw json.RawMessage, path string) (traffic.Message, error) {
	o, err := parseObject(raw, path)
	if err != nil {
		return traffic.Message{}, err
	}
	typ, typed := o.str("type")
	if o.get("type") != nil && !typed {
		return otherItem(raw, o, path, ""), nil
	}
	switch typ {
	case "message":
		return messageItem(o, path, typ)
	case "":
		if role, _ := o.str("role"); role != "" {
			return messageItem(o, path, "")
		}
	case "reasoning":
		return reasoningItem(o, path)
	case "function_call":
		if args := o.get("arguments"); args == nil || rawjson.Kind(args) == "string" {
			return functionCallItem(o, path), nil
		}
	case "function_call_output":
		return functionOutputItem(o, path), nil
	}
	return otherItem(raw, o, path, typ), nil
}

// messageItem decodes a message item, typed or an easy-input {role, content}.
func messageItem(o *object, path, typ string) (traffic.Message, error) {
	if typ != "" {
		o.take("type")
	}
	m := traffic.Message{Path: path, WireType: typ, Role: traffic.Role(o.takeString("role"))}
	content := o.get("content")
	cpath := rawjson.At(path, "content")
	switch rawjson.Kind(content) {
	case "string":
		o.take("content")
		s, _ := rawjson.String(content)
		m.ContentString = true
		m.Blocks = []traffic.Block{{Type: traffic.BlockText, Text: s, Path: cpath}}
	case "null":
		o.take("content")
		m.ContentNull = true
	case "array":
		o.take("content")
		parts, err := rawjson.Array(content)
		if err != nil {
			return m, rawjson.Mismatch(cpath, "an array of content parts", content)
		}
		m.Blocks = make([]traffic.Block, 0, len(parts))
		for j, p := range parts {
			b, err := decodePart(p, rawjson.Index(cpath, j))
			if err != nil {
				return m, err
			}
			m.Blocks = append(m.Blocks, b)
		}
	}
	m.Extra = o.rest()
	return m, nil
}

// decodePart maps one content part of a message.
func decodePart(raw json.RawMessage, path string) (traffic.Block, error) {
	o, err := parseObject(raw, path)
	if err != nil {
		return traffic.Block{}, err
	}
	typ, _ := o.str("type")
	b := traffic.Block{WireType: typ, Path: path}
	switch typ {
	case "input_text", "output_text":
		text, ok := o.str("text")
		if !ok {
			break
		}
		o.take("type")
		o.take("text")
		b.Type, b.Text, b.Extra = traffic.BlockText, text, o.rest()
		return b, nil
	case "input_image", "input_file":
		o.take("type")
		b.Type = traffic.BlockImage
		key := "image_url"
		if typ == "input_file" {
			b.Type, key = traffic.BlockDocument, "file_data"
		}
		if src := o.get(key); rawjson.Kind(src) == "string" {
			o.take(key)
			b.Source = src
			s, _ := rawjson.String(src)
			b.MediaType = dataURLType(s)
		}
		b.Extra = o.rest()
		return b, nil
	}
	return traffic.Block{Type: traffic.BlockOther, WireType: typ, Path: path, Raw: raw}, nil
}

// dataURLType returns the media type of a data: URL, or "".
func dataURLType(s string) string {
	rest, ok := strings.CutPrefix(s, "data:")
	if !ok {
		return ""
	}
	mt, _, _ := strings.Cut(rest, ";")
	mt, _, _ = strings.Cut(mt, ",")
	return mt
}

// reasoningItem decodes a reasoning item into one BlockReasoning: the
// encrypted_content token raw, the summary parts as Content and their texts
// joined as Text. Raw reasoning `content` and status stay in Extra.
func reasoningItem(o *object, path string) (traffic.Message, error) {
	o.take("type")
	b := traffic.Block{Type: traffic.BlockReasoning, WireType: "reasoning", Path: path}
	b.ItemID = o.takeString("id")
	if ec := o.get("encrypted_content"); ec != nil && rawjson.Kind(ec) != "null" {
		b.EncryptedContent = o.take("encrypted_content")
	}
	if sum := o.get("summary"); rawjson.Kind(sum) == "array" {
		o.take("summary")
		spath := rawjson.At(path, "summary")
		parts, err := rawjson.Array(sum)
		if err != nil {
			return traffic.Message{}, rawjson.Mismatch(spath, "an array of summary parts", sum)
		}
		b.Content = make([]traffic.Block, 0, len(parts))
		var texts []string
		for k, p := range parts {
			sb, err := summaryPart(p, rawjson.Index(spath, k))
			if err != nil {
				return traffic.Message{}, err
			}
			if sb.Type == traffic.BlockText {
				texts = append(texts, sb.Text)
			}
			b.Content = append(b.Content, sb)
		}
		b.Text = strings.Join(texts, summarySeparator)
	}
	b.Extra = o.rest()
	return traffic.Message{Role: traffic.RoleAssistant, Path: path, WireType: "reasoning", Blocks: []traffic.Block{b}}, nil
}

// summaryPart maps one summary part: summary_text becomes a text block.
func summaryPart(raw json.RawMessage, path string) (traffic.Block, error) {
	o, err := parseObject(raw, path)
	if err != nil {
		return traffic.Block{}, err
	}
	typ, _ := o.str("type")
	if text, ok := o.str("text"); ok && typ == "summary_text" {
		o.take("type")
		o.take("text")
		return traffic.Block{Type: traffic.BlockText, WireType: typ, Path: path, Text: text, Extra: o.rest()}, nil
	}
	return traffic.Block{Type: traffic.BlockOther, WireType: typ, Path: path, Raw: raw}, nil
}

// functionCallItem decodes a function_call: ItemID is the fc_ id, ID the
// call_id, Input the arguments string token exactly as received.
func functionCallItem(o *object, path string) traffic.Message {
	o.take("type")
	b := traffic.Block{Type: traffic.BlockToolCall, WireType: "function_call", Path: path}
	b.ItemID = o.takeString("id")
	b.ID = o.takeString("call_id")
	b.Name = o.takeString("name")
	b.Input = o.take("arguments")
	b.Extra = o.rest()
	return traffic.Message{Role: traffic.RoleAssistant, Path: path, WireType: "function_call", Blocks: []traffic.Block{b}}
}

// functionOutputItem decodes a function_call_output: ResultRaw is the output
// token (a string or a list of parts) exactly as received.
func functionOutputItem(o *object, path string) traffic.Message {
	o.take("type")
	b := traffic.Block{Type: traffic.BlockToolResult, WireType: "function_call_output", Path: path}
	b.ItemID = o.takeString("id")
	b.ToolCallID = o.takeString("call_id")
	b.ResultRaw = o.take("output")
	b.Extra = o.rest()
	return traffic.Message{Role: traffic.RoleTool, Path: path, WireType: "function_call_output", Blocks: []traffic.Block{b}}
}

// otherItem keeps an item the model does not interpret as one BlockOther.
func otherItem(raw json.RawMessage, o *object, path, typ string) traffic.Message {
	b := traffic.Block{Type: traffic.BlockOther, WireType: typ, Path: path, Raw: raw}
	b.ItemID, _ = o.str("id")
	return traffic.Message{Role: otherRole(typ), Path: path, WireType: typ, Blocks: []traffic.Block{b}}
}

// otherRole says who authored an item the model does not interpret: calls
// come from the model, *_output items answer them, item_reference and
// unknown kinds have no author.
func otherRole(typ string) traffic.Role {
	switch {
	case typ == "mcp_approval_response":
		return traffic.RoleUser
	case strings.HasSuffix(typ, "_output"):
		return traffic.RoleTool
	case strings.HasSuffix(typ, "_call"), strings.HasPrefix(typ, "mcp_"), typ == "compaction":
		return traffic.RoleAssistant
	}
	return ""
}

// isMessage reports whether m is a message item (typed or easy-input), whose
// BlockOther blocks are content parts rather than whole items.
func isMessage(m *traffic.Message) bool {
	return m.WireType == "message" || (m.WireType == "" && m.Role != "")
}

// ItemID returns the Responses item id (msg_…, rs_…, fc_…) of a decoded
// message, wherever the item kind keeps it, or "".
func ItemID(m traffic.Message) string {
	if s, ok := rawjson.String(m.Extra["id"]); ok {
		return s
	}
	for _, b := range m.Blocks {
		if b.ItemID != "" {
			return b.ItemID
		}
	}
	return ""
}
