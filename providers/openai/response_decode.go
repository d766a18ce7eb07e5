package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// decodeResponse picks the body's form from its content — cassettes often
// lose headers — and decodes it.
func decodeResponse(status int, b []byte) (*traffic.Response, error) {
	trimmed := bytes.TrimSpace(b)
	switch f := body.Sniff(b); {
	case f == body.EventStream:
		return decodeStream(sse.Parse(b), true), nil
	case f == body.Document:
		return decodeDocument(status, trimmed)
	case f == body.JSONLines:
		return decodeStream(jsonLines(b), false), nil
	case !ok2xx(status) && (f == body.Text || f == body.BadJSON):
		return &traffic.Response{Wire: traffic.WireOpenAI, Output: []traffic.Message{}, Error: statusError(status, trimmed)}, nil
	default:
		return nil, body.Unreadable(b, f)
	}
}

func ok2xx(status int) bool { return status >= 200 && status < 300 }

// jsonLines reads a body of one JSON object per line (stream chunks saved
// as JSONL) as events, so it reassembles like the stream it came from.
func jsonLines(b []byte) []sse.Event {
	lines := body.Lines(b)
	events := make([]sse.Event, len(lines))
	for i, l := range lines {
		events[i] = sse.Event{Data: string(l.Data), Offset: l.Offset, End: l.End}
	}
	return events
}

// decodeDocument decodes a JSON body: a chat.completion, or an error body.
func decodeDocument(status int, body []byte) (*traffic.Response, error) {
	resp := &traffic.Response{Wire: traffic.WireOpenAI, Output: []traffic.Message{}}
	if rawjson.Kind(body) != "object" {
		if ok2xx(status) {
			return nil, fmt.Errorf("expected a JSON object, found %s", rawjson.Describe(body))
		}
		resp.Error = statusError(status, body)
		return resp, nil
	}
	fields, err := rawjson.ShallowObject(body) // Sniff validated it
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		switch f.Key {
		case "error":
			if !rawjson.IsNull(f.Value) {
				resp.Error = decodeAPIError(f.Value)
			}
		case "id":
			resp.ID, _ = rawjson.String(f.Value)
		case "model":
			resp.Model, _ = rawjson.String(f.Value)
		case "usage":
			resp.Usage = decodeUsage(f.Value)
		case "choices":
			if err := decodeChoices(resp, f.Value); err != nil {
				return nil, err
			}
		}
	}
	if resp.Error == nil && !ok2xx(status) {
		resp.Error = statusError(status, body)
	}
	return resp, nil
}

// decodeChoices reads one Output message per choice; StopReason is the first
// choice's finish_reason.
func decodeChoices(resp *traffic.Response, raw json.RawMessage) error {
	if rawjson.IsNull(raw) {
		return nil
	}
	items, err := rawjson.ArrayAt("choices", raw)
	if err != nil {
		return err
	}
	for i, it := range items {
		path := rawjson.Index("choices", i)
		fields, err := rawjson.ObjectAt(path, it)
		if err != nil {
			return err
		}
		for _, f := range fields {
			switch f.Key {
			case "message":
				m, err := decodeMessage(f.Value, rawjson.At(path, "message"), traffic.RoleAssistant)
				if err != nil {
					return err
				}
				resp.Output = append(resp.Output, m)
			case "finish_reason":
				if i == 0 {
					resp.StopReason, _ = rawjson.String(f.Value)
				}
			}
		}
	}
	return nil
}

// decodeUsage reads token counts; nil when the value is null or unreadable.
// DeepSeek reports cache hits as prompt_cache_hit_tokens.
func decodeUsage(v json.RawMessage) *traffic.Usage {
	var u struct {
		Prompt       json.Number `json:"prompt_tokens"`
		Completion   json.Number `json:"completion_tokens"`
		CacheHit     json.Number `json:"prompt_cache_hit_tokens"`
		PromptDetail *struct {
			Cached json.Number `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionDetail *struct {
			Reasoning json.Number `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	}
	if rawjson.Kind(v) != "object" || json.Unmarshal(v, &u) != nil {
		return nil
	}
	out := &traffic.Usage{
		InputTokens:     count(u.Prompt),
		OutputTokens:    count(u.Completion),
		CacheReadTokens: count(u.CacheHit),
	}
	if u.PromptDetail != nil && u.PromptDetail.Cached != "" {
		out.CacheReadTokens = count(u.PromptDetail.Cached)
	}
	if u.CompletionDetail != nil {
		out.ReasoningTokens = count(u.CompletionDetail.Reasoning)
	}
	return out
}

// count reads a token count; 0 when it is not an integer.
func count(n json.Number) int {
	i, err := n.Int64()
	if err != nil {
		return 0
	}
	return int(i)
}
