package openai

import (
	"encoding/json"
	"strconv"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Keys of the output-token limit: max_completion_tokens is current,
// max_tokens is the older name that compatible hosts still read.
const (
	keyMaxCompletionTokens = "max_completion_tokens"
	keyMaxTokens           = "max_tokens"
)

// decodeRequest decodes a chat completions request body.
//
// Two fields stay in Extra as well as being read into the model, because
// their wire spelling matters and the model cannot hold it: the token limit
// (max_tokens or max_completion_tokens, read into MaxTokens) and a stream
// flag that is present but not true.
func decodeRequest(b []byte) (*traffic.Request, error) {
	if err := body.Object(b); err != nil {
		return nil, err
	}
	fields, err := rawjson.ValidatedObject(b)
	if err != nil {
		return nil, err
	}
	return requestOf(fields, decodeMessages)
}

// decodeRequestMemo is decodeRequest with the messages decoded through
// memo, which validates only the messages it has not seen: the requests of
// a growing conversation are read in time linear in what they add. A body
// with a fault of any kind is decoded again alone, which names the fault.
func decodeRequestMemo(b []byte, memo *traffic.Memo) (*traffic.Request, error) {
	fields, ok := rawjson.ValidatedExcept(b, memo.LastArray(), "messages")
	if ok {
		req, err := requestOf(rawjson.LastWins(fields), func(raw json.RawMessage) ([]traffic.Message, error) {
			return memo.DecodeMessages(raw, func(i int, item json.RawMessage) (traffic.Message, error) {
				return decodeMessage(item, rawjson.Index("messages", i), "")
			})
		})
		if err == nil {
			return req, nil
		}
	}
	return decodeRequest(b)
}

// requestOf reads a request from its top-level fields, the messages with
// decode.
func requestOf(fields []rawjson.Field, decode func(json.RawMessage) ([]traffic.Message, error)) (*traffic.Request, error) {
	req := &traffic.Request{Wire: traffic.WireOpenAI}
	for _, f := range fields {
		switch f.Key {
		case "model":
			s, ok := rawjson.String(f.Value)
			if !ok {
				return nil, rawjson.Mismatch("model", "a string", f.Value)
			}
			req.Model = s
		case "messages":
			msgs, err := decode(f.Value)
			if err != nil {
				return nil, err
			}
			req.Messages = msgs
		case "tools":
			if rawjson.IsNull(f.Value) {
				rawjson.SetExtra(&req.Extra, f.Key, f.Value)
				continue
			}
			tools, err := decodeTools(f.Value)
			if err != nil {
				return nil, err
			}
			req.Tools = tools
		case "tool_choice":
			req.ToolChoice = f.Value
		case "stream":
			req.Stream = string(f.Value) == "true"
			if !req.Stream { // false, null…: kept as sent
				rawjson.SetExtra(&req.Extra, f.Key, f.Value)
			}
		default:
			rawjson.SetExtra(&req.Extra, f.Key, f.Value)
		}
	}
	req.MaxTokens = maxTokens(req.Extra)
	return req, nil
}

// decodeMessages reads the messages array.
func decodeMessages(raw json.RawMessage) ([]traffic.Message, error) {
	items, err := rawjson.ArrayAt("messages", raw)
	if err != nil {
		return nil, err
	}
	msgs := make([]traffic.Message, 0, len(items))
	for i, it := range items {
		m, err := decodeMessage(it, rawjson.Index("messages", i), "")
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// decodeTools reads tool definitions; Raw keeps each whole definition.
func decodeTools(raw json.RawMessage) ([]traffic.Tool, error) {
	items, err := rawjson.ArrayAt("tools", raw)
	if err != nil {
		return nil, err
	}
	tools := make([]traffic.Tool, 0, len(items))
	for i, it := range items {
		path := rawjson.Index("tools", i)
		if rawjson.Kind(it) != "object" {
			return nil, rawjson.Mismatch(path, "an object", it)
		}
		var def struct {
			Type     string `json:"type"`
			Function *struct {
				Name        json.RawMessage `json:"name"`
				Description json.RawMessage `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
			Custom *struct {
				Name        json.RawMessage `json:"name"`
				Description json.RawMessage `json:"description"`
			} `json:"custom"`
		}
		t := traffic.Tool{Raw: it}
		// A definition of an unexpected shape is still kept whole in Raw.
		if json.Unmarshal(it, &def) == nil {
			switch {
			case def.Function != nil:
				t.Name, _ = rawjson.String(def.Function.Name)
				t.Description, _ = rawjson.String(def.Function.Description)
				t.Schema = def.Function.Parameters
			case def.Custom != nil:
				t.Name, _ = rawjson.String(def.Custom.Name)
				t.Description, _ = rawjson.String(def.Custom.Description)
			}
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// maxTokens reads the output-token limit from the wire fields kept in Extra,
// preferring max_completion_tokens; 0 when neither is an integer.
func maxTokens(extra map[string]json.RawMessage) int {
	for _, k := range []string{keyMaxCompletionTokens, keyMaxTokens} {
		if v, ok := extra[k]; ok {
			if n, err := strconv.Atoi(string(v)); err == nil {
				return n
			}
		}
	}
	return 0
}

// maxTokensKey is the wire key that carries MaxTokens for a request whose
// Extra holds the given fields.
func maxTokensKey(extra map[string]json.RawMessage) string {
	if _, ok := extra[keyMaxCompletionTokens]; !ok {
		if _, ok := extra[keyMaxTokens]; ok {
			return keyMaxTokens
		}
	}
	return keyMaxCompletionTokens
}
