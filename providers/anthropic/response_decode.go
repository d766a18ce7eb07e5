package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// decodeResponse tells a stream, a message document and an error body apart
// by their content, since recorded headers are often missing.
func decodeResponse(status int, b []byte) (*traffic.Response, error) {
	if eventstream.Looks(b) {
		return decodeStream(eventStreamEvents(b)), nil // Bedrock InvokeModelWithResponseStream
	}
	f := body.Sniff(b)
	trimmed := bytes.TrimSpace(b)
	switch {
	case f == body.EventStream:
		return decodeStream(sseEvents(b)), nil
	case f == body.JSONLines:
		return decodeStream(jsonlEvents(b)), nil
	case f == body.Document && (trimmed[0] == '{' || ok2xx(status)):
		return decodeDocument(status, trimmed)
	case ok2xx(status) || f == body.Empty || f == body.Binary:
		return nil, body.Unreadable(b, f)
	}
	// A non-2xx body that is not a JSON object (a gateway's HTML page, plain
	// text): the error is the text itself.
	return &traffic.Response{
		Wire:   traffic.WireAnthropic,
		Output: []traffic.Message{},
		Error:  &traffic.APIError{Message: fmt.Sprintf("HTTP %d: %s", status, body.Excerpt(trimmed, 200))},
	}, nil
}

// streamEventTypes are the types of stream events, as opposed to documents.
var streamEventTypes = map[string]bool{
	"message_start": true, "content_block_start": true, "content_block_delta": true,
	"content_block_stop": true, "message_delta": true, "message_stop": true, "ping": true,
}

func ok2xx(status int) bool { return status >= 200 && status < 300 }

// decodeDocument decodes a JSON response object: an error body (type
// "error", or any non-2xx body) or a message.
func decodeDocument(status int, doc []byte) (*traffic.Response, error) {
	// Sniff found doc valid JSON: only its kind is left to check.
	if rawjson.Kind(doc) != "object" {
		return nil, fmt.Errorf("expected a JSON object, found %s", rawjson.Describe(doc))
	}
	fields, err := rawjson.ValidatedObject(doc)
	if err != nil {
		return nil, err
	}
	typ := lookupString(fields, "type")
	if ok2xx(status) && streamEventTypes[typ] {
		// A one-line JSONL stream: a single event, not a document.
		return decodeStream(jsonlEvents(doc)), nil
	}
	resp := &traffic.Response{Wire: traffic.WireAnthropic, Output: []traffic.Message{}}
	if typ == "error" || !ok2xx(status) {
		resp.Error = decodeErrorBody(status, fields)
		return resp, nil
	}
	resp.ID = lookupString(fields, "id")
	resp.Model = lookupString(fields, "model")
	resp.StopReason = lookupString(fields, "stop_reason")
	if u, ok := rawjson.Lookup(fields, "usage"); ok {
		resp.Usage = mergeUsage(nil, u)
	}
	content, ok := rawjson.Lookup(fields, "content")
	if !ok {
		// Not a message (count_tokens, a model listing…): nothing to output.
		return resp, nil
	}
	items, err := rawjson.ArrayAt("content", content)
	if err != nil {
		return nil, err
	}
	msg := traffic.Message{Role: traffic.Role(lookupString(fields, "role")), Blocks: make([]traffic.Block, 0, len(items))}
	if msg.Role == "" {
		msg.Role = traffic.RoleAssistant
	}
	for i, item := range items {
		msg.Blocks = append(msg.Blocks, responseBlock(rawjson.Index("content", i), item))
	}
	resp.Output = append(resp.Output, msg)
	return resp, nil
}

// responseBlock decodes a response content block. The provider is not what
// llmtck judges, so a block the model cannot read is kept whole as
// BlockOther rather than failing the response.
func responseBlock(path string, raw json.RawMessage) traffic.Block {
	b, err := decodeBlock(path, raw)
	if err != nil {
		fields, _ := rawjson.Fields(raw)
		return traffic.Block{Type: traffic.BlockOther, WireType: lookupString(fields, "type"), Path: path, Raw: raw}
	}
	return b
}

// mergeUsage overlays the counts present in raw onto u (nil starts a new
// one). Counts are cumulative totals, so a later value replaces an earlier.
func mergeUsage(u *traffic.Usage, raw json.RawMessage) *traffic.Usage {
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return u
	}
	if u == nil {
		u = &traffic.Usage{}
	}
	set := func(dst *int, key string) {
		if n, ok := lookupInt(fields, key); ok {
			*dst = n
		}
	}
	set(&u.InputTokens, "input_tokens")
	set(&u.OutputTokens, "output_tokens")
	set(&u.CacheReadTokens, "cache_read_input_tokens")
	set(&u.CacheCreationTokens, "cache_creation_input_tokens")
	if d, ok := rawjson.Lookup(fields, "output_tokens_details"); ok {
		if details, err := rawjson.Fields(d); err == nil {
			if n, ok := lookupInt(details, "thinking_tokens"); ok {
				u.ReasoningTokens = n
			}
		}
	}
	return u
}

// decodeErrorBody reads {"type":"error","error":{"type","message"}} and the
// shapes gateways use instead: a Google-style error object with code and
// status (Vertex), or a top-level message (Bedrock).
func decodeErrorBody(status int, fields []rawjson.Field) *traffic.APIError {
	e := &traffic.APIError{}
	if raw, ok := rawjson.Lookup(fields, "error"); ok {
		if inner, err := rawjson.Fields(raw); err == nil {
			e.Type = lookupString(inner, "type")
			if e.Type == "" {
				e.Type = lookupString(inner, "status")
			}
			e.Message = lookupString(inner, "message")
			if code, ok := rawjson.Lookup(inner, "code"); ok && !rawjson.IsNull(code) {
				e.Code = string(code)
				if s, ok := rawjson.String(code); ok {
					e.Code = s
				}
			}
		} else if s, ok := rawjson.String(raw); ok {
			e.Message = s
		}
	}
	if e.Message == "" {
		e.Message = lookupString(fields, "message")
	}
	if e.Message == "" {
		e.Message = fmt.Sprintf("HTTP %d with no error message", status)
	}
	return e
}
