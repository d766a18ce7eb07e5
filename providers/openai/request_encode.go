package openai

import (
	"encoding/json"
	"strconv"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// encodeRequest writes the model back as a chat completions body: named
// fields in wire order, then Extra. A value the model names wins over an
// Extra entry of the same key.
func encodeRequest(req *traffic.Request) ([]byte, error) {
	var o rawjson.Object
	written := map[string]bool{}
	put := func(key string, v json.RawMessage) {
		if len(v) > 0 {
			o.Raw(key, v)
			written[key] = true
		}
	}
	if req.Model != "" {
		put("model", rawjson.Quote(req.Model))
	}
	if req.Messages != nil {
		items := make([]json.RawMessage, 0, len(req.Messages))
		for i := range req.Messages {
			m, err := encodeMessage(&req.Messages[i], rawjson.Index("messages", i))
			if err != nil {
				return nil, err
			}
			items = append(items, m)
		}
		put("messages", rawjson.ArrayOf(items))
	}
	if req.Tools != nil {
		items := make([]json.RawMessage, 0, len(req.Tools))
		for _, t := range req.Tools {
			items = append(items, encodeTool(t))
		}
		put("tools", rawjson.ArrayOf(items))
	}
	put("tool_choice", req.ToolChoice)
	if req.Stream {
		put("stream", json.RawMessage("true"))
	}
	// MaxTokens differs from the Extra fields only when it was set or changed
	// in code; then it is written under the key the request already uses.
	if req.MaxTokens != maxTokens(req.Extra) {
		key := maxTokensKey(req.Extra)
		written[key] = true
		if req.MaxTokens != 0 {
			o.Raw(key, json.RawMessage(strconv.Itoa(req.MaxTokens)))
		}
	}
	writeExtra(&o, req.Extra, func(k string) bool { return written[k] })
	return o.Bytes(), nil
}

// encodeTool writes a tool definition: the original bytes when it was
// decoded, a function definition when it was built in code.
func encodeTool(t traffic.Tool) json.RawMessage {
	if len(t.Raw) > 0 {
		return t.Raw
	}
	var fn rawjson.Object
	fn.String("name", t.Name)
	fn.StringNonEmpty("description", t.Description)
	fn.Raw("parameters", t.Schema)
	var o rawjson.Object
	o.String("type", "function")
	o.Raw("function", fn.Bytes())
	return o.Bytes()
}
