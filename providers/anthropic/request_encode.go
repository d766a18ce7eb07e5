package anthropic

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// encodeRequest writes req in wire order (model, max_tokens, system,
// messages, tools, tool_choice, thinking, stream) and then Extra, sorted.
// Tool and Thinking Raw values win over their parsed fields when set: clear
// Raw to write the fields instead.
func encodeRequest(req *traffic.Request) ([]byte, error) {
	if req == nil {
		return nil, errors.New("request: nil")
	}
	var w objectWriter
	if req.Model != "" {
		w.str("model", req.Model)
	}
	if req.MaxTokens != 0 {
		w.raw("max_tokens", json.RawMessage(strconv.Itoa(req.MaxTokens)))
	}
	if req.System != nil {
		system, err := encodeContent("system", req.System, req.SystemString)
		if err != nil {
			return nil, err
		}
		w.raw("system", system)
	}
	if req.Messages != nil {
		msgs := make([]json.RawMessage, 0, len(req.Messages))
		for i := range req.Messages {
			m, err := encodeMessage(rawjson.Index("messages", i), &req.Messages[i])
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		}
		w.raw("messages", rawjson.ArrayOf(msgs))
	}
	if req.Tools != nil {
		w.raw("tools", encodeTools(req.Tools))
	}
	w.raw("tool_choice", req.ToolChoice)
	if t := req.Thinking; t != nil {
		w.raw("thinking", encodeThinking(t))
	}
	if req.Stream {
		w.raw("stream", json.RawMessage("true"))
	}
	w.extra(req.Extra)
	return w.bytes(), nil
}

// encodeMessage writes role, content and Extra. Content that was absent on
// the wire (Blocks nil, neither ContentString nor ContentNull) stays absent.
func encodeMessage(path string, m *traffic.Message) (json.RawMessage, error) {
	var w objectWriter
	w.str("role", string(m.Role))
	switch {
	case m.ContentNull && len(m.Blocks) == 0:
		w.raw("content", json.RawMessage("null"))
	case m.Blocks != nil:
		content, err := encodeContent(rawjson.At(path, "content"), m.Blocks, m.ContentString)
		if err != nil {
			return nil, err
		}
		w.raw("content", content)
	}
	w.extra(m.Extra)
	return w.bytes(), nil
}

// encodeContent writes blocks as a bare string when the wire had one and the
// blocks are still a single plain text block, otherwise as an array.
func encodeContent(path string, blocks []traffic.Block, asString bool) (json.RawMessage, error) {
	if asString && len(blocks) == 1 && blocks[0].Type == traffic.BlockText && len(blocks[0].Extra) == 0 {
		return rawjson.Quote(blocks[0].Text), nil
	}
	return encodeBlocks(path, blocks)
}

func encodeTools(tools []traffic.Tool) json.RawMessage {
	items := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		if len(t.Raw) > 0 {
			items = append(items, t.Raw)
			continue
		}
		var w objectWriter
		w.str("name", t.Name)
		if t.Description != "" {
			w.str("description", t.Description)
		}
		w.raw("input_schema", t.Schema)
		items = append(items, w.bytes())
	}
	return rawjson.ArrayOf(items)
}

func encodeThinking(t *traffic.Thinking) json.RawMessage {
	if len(t.Raw) > 0 {
		return t.Raw
	}
	var w objectWriter
	w.str("type", t.Type)
	if t.BudgetTokens != 0 {
		w.raw("budget_tokens", json.RawMessage(strconv.Itoa(t.BudgetTokens)))
	}
	return w.bytes()
}
