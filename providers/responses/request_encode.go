package responses

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// EncodeRequest writes the model back as a Responses request body, keys in
// wire order and Extra after them, HTML escaping off. Opaque tokens
// (encrypted_content, arguments, output, Raw items) are written exactly as
// held. Messages built in code may mix block kinds: their text and media
// blocks become one message item and each reasoning, tool call or tool
// result block becomes its own item, in block order.
func (Codec) EncodeRequest(req *traffic.Request) ([]byte, error) {
	if req == nil {
		return nil, fmt.Errorf("responses: nil request")
	}
	var w writer
	w.strNonEmpty("model", req.Model)
	if len(req.System) > 0 {
		w.str("instructions", systemText(req.System))
	}
	input, err := encodeInput(req)
	if err != nil {
		return nil, err
	}
	w.raw("input", input)
	if req.Tools != nil {
		defs := make([]json.RawMessage, 0, len(req.Tools))
		for _, t := range req.Tools {
			defs = append(defs, encodeTool(t))
		}
		w.raw("tools", rawjson.ArrayOf(defs))
	}
	w.raw("tool_choice", req.ToolChoice)
	if req.Thinking != nil {
		w.raw("reasoning", encodeThinking(req.Thinking))
	}
	if req.Include != nil {
		inc, err := rawjson.Marshal(req.Include)
		if err != nil {
			return nil, fmt.Errorf("include: %w", err)
		}
		w.raw("include", inc)
	}
	if req.Store != nil {
		w.raw("store", boolJSON(*req.Store))
	}
	w.strNonEmpty("previous_response_id", req.PreviousResponseID)
	if req.MaxTokens > 0 {
		w.raw("max_output_tokens", json.RawMessage(fmt.Sprint(req.MaxTokens)))
	}
	if req.Stream {
		w.raw("stream", boolJSON(true))
	}
	w.extra(req.Extra)
	return w.bytes(), nil
}

func boolJSON(b bool) json.RawMessage {
	if b {
		return json.RawMessage("true")
	}
	return json.RawMessage("false")
}

// systemText joins the text of the system blocks: instructions is one string.
func systemText(blocks []traffic.Block) string {
	texts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == traffic.BlockText {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// encodeInput writes the history: back as a bare string when it was one,
// otherwise as the item list.
func encodeInput(req *traffic.Request) (json.RawMessage, error) {
	if req.InputString && len(req.Messages) == 1 && plainString(&req.Messages[0]) {
		return rawjson.Quote(req.Messages[0].Blocks[0].Text), nil
	}
	if req.Messages == nil {
		return nil, nil
	}
	items := make([]json.RawMessage, 0, len(req.Messages))
	for i := range req.Messages {
		its, err := encodeMessage(&req.Messages[i], i)
		if err != nil {
			return nil, err
		}
		items = append(items, its...)
	}
	return rawjson.ArrayOf(items), nil
}

// plainString reports whether m is one user text and nothing else.
func plainString(m *traffic.Message) bool {
	return m.ContentString && m.WireType == "" && (m.Role == traffic.RoleUser || m.Role == "") &&
		m.Extra == nil && len(m.Blocks) == 1 && m.Blocks[0].Type == traffic.BlockText && m.Blocks[0].Extra == nil
}

// encodeMessage writes one Message as one item, or several when a message
// built in code mixes content with reasoning or tool blocks.
func encodeMessage(m *traffic.Message, i int) ([]json.RawMessage, error) {
	path := rawjson.Index("messages", i)
	if isMessage(m) && onlyParts(m.Blocks) {
		item, err := messageItemJSON(m, m.Blocks, m.Extra, path)
		if err != nil {
			return nil, err
		}
		return []json.RawMessage{item}, nil
	}
	// The message's own fields (id, phase) belong to its message item; only
	// a message with no content parts at all puts them on its first item.
	var (
		items     []json.RawMessage
		parts     []traffic.Block
		extra     = m.Extra
		itemExtra = m.Extra
	)
	for _, b := range m.Blocks {
		if isPart(b, m) {
			itemExtra = nil
			break
		}
	}
	flush := func() error {
		if len(parts) == 0 {
			return nil
		}
		item, err := messageItemJSON(m, parts, extra, path)
		items, parts, extra = append(items, item), nil, nil
		return err
	}
	for j, b := range m.Blocks {
		bpath := rawjson.Index(rawjson.At(path, "blocks"), j)
		if isPart(b, m) {
			parts = append(parts, b)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		item, err := itemJSON(b, itemExtra, bpath)
		if err != nil {
			return nil, err
		}
		items, itemExtra = append(items, item), nil
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(items) == 0 && isMessage(m) {
		item, err := messageItemJSON(m, nil, extra, path)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return items, nil
}

// isPart reports whether b is content of a message item rather than an item
// of its own.
func isPart(b traffic.Block, m *traffic.Message) bool {
	switch b.Type {
	case traffic.BlockText, traffic.BlockImage, traffic.BlockDocument:
		return true
	case traffic.BlockOther:
		return isMessage(m)
	}
	return false
}

func onlyParts(blocks []traffic.Block) bool {
	for _, b := range blocks {
		switch b.Type {
		case traffic.BlockText, traffic.BlockImage, traffic.BlockDocument, traffic.BlockOther:
		default:
			return false
		}
	}
	return true
}

// messageItemJSON writes a message item with the given content parts.
func messageItemJSON(m *traffic.Message, parts []traffic.Block, extra map[string]json.RawMessage, path string) (json.RawMessage, error) {
	var w writer
	typ := m.WireType
	if !isMessage(m) {
		typ = "message"
	}
	w.strNonEmpty("type", typ)
	w.strNonEmpty("role", string(m.Role))
	switch {
	case m.ContentNull && len(parts) == 0:
		w.raw("content", json.RawMessage("null"))
	case parts == nil && m.Blocks == nil:
		// no content key on the wire
	case m.ContentString && len(parts) == 1 && parts[0].Type == traffic.BlockText && parts[0].Extra == nil:
		w.str("content", parts[0].Text)
	default:
		out := make([]json.RawMessage, 0, len(parts))
		for j, p := range parts {
			pj, err := partJSON(p, m.Role, rawjson.Index(rawjson.At(path, "blocks"), j))
			if err != nil {
				return nil, err
			}
			out = append(out, pj)
		}
		w.raw("content", rawjson.ArrayOf(out))
	}
	w.extra(extra)
	return w.bytes(), nil
}

// encodeTool writes a tool definition: Raw as received, or a function tool
// built from the fields for a definition made in code.
func encodeTool(t traffic.Tool) json.RawMessage {
	if len(t.Raw) > 0 {
		return t.Raw
	}
	var w writer
	w.str("type", "function")
	w.str("name", t.Name)
	w.strNonEmpty("description", t.Description)
	w.raw("parameters", t.Schema)
	return w.bytes()
}

// encodeThinking writes the reasoning configuration: Raw as received, or the
// smallest object that says the same for one made in code.
func encodeThinking(th *traffic.Thinking) json.RawMessage {
	if len(th.Raw) > 0 {
		return th.Raw
	}
	if th.Type == "disabled" {
		return json.RawMessage(`{"effort":"none"}`)
	}
	return json.RawMessage(`{}`)
}
