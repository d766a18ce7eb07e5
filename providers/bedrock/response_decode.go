package bedrock

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

func ok2xx(status int) bool { return status >= 200 && status < 300 }

// decodeResponse tells an event stream, JSON lines of events, a Converse
// document and an error body apart by their content.
func decodeResponse(status int, header http.Header, b []byte) (*traffic.Response, error) {
	if eventstream.Looks(b) {
		return decodeEventStream(b), nil
	}
	trimmed := bytes.TrimSpace(b)
	switch f := body.Sniff(b); {
	case f == body.JSONLines:
		return decodeLines(b), nil
	case f == body.EventStream:
		return decodeSSE(b), nil
	case f == body.Document && trimmed[0] == '{':
		if !ok2xx(status) {
			return errorResponse(status, header, trimmed), nil
		}
		if isEvent(trimmed) {
			return decodeLines(b), nil // a one-event stream saved as one line
		}
		return decodeDocument(trimmed)
	case !ok2xx(status) && f != body.Empty && f != body.Binary:
		return errorResponse(status, header, trimmed), nil
	default:
		return nil, body.Unreadable(b, f)
	}
}

// decodeDocument reads a Converse response: output.message, stopReason,
// usage.
func decodeDocument(doc []byte) (*traffic.Response, error) {
	fields, err := rawjson.ObjectAt("", doc)
	if err != nil {
		return nil, err
	}
	resp := &traffic.Response{Wire: traffic.WireBedrock, Output: []traffic.Message{}}
	for _, f := range fields {
		switch f.Key {
		case "output":
			msg, ok := lookup(f.Value, "message")
			if !ok {
				continue
			}
			m := traffic.Message{Role: traffic.RoleAssistant, Path: "output.message"}
			if content, ok := lookup(msg, "content"); ok {
				if m.Blocks, err = decodeBlocks("output.message.content", content); err != nil {
					return nil, err
				}
			}
			if role, ok := lookup(msg, "role"); ok {
				if s, ok := rawjson.String(role); ok {
					m.Role = traffic.Role(s)
				}
			}
			resp.Output = append(resp.Output, m)
		case "stopReason":
			resp.StopReason, _ = rawjson.String(f.Value)
		case "usage":
			resp.Usage = decodeUsage(f.Value)
		}
	}
	return resp, nil
}

func decodeUsage(raw json.RawMessage) *traffic.Usage {
	var u struct {
		Input      int `json:"inputTokens"`
		Output     int `json:"outputTokens"`
		CacheRead  int `json:"cacheReadInputTokens"`
		CacheWrite int `json:"cacheWriteInputTokens"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return nil
	}
	return &traffic.Usage{InputTokens: u.Input, OutputTokens: u.Output, CacheReadTokens: u.CacheRead, CacheCreationTokens: u.CacheWrite}
}

// errorResponse reads an error body: {"message": …} (or "Message"), the
// exception named by x-amzn-ErrorType ("ValidationException:http://…").
func errorResponse(status int, header http.Header, doc []byte) *traffic.Response {
	e := &traffic.APIError{Code: strconv.Itoa(status)}
	if t := header.Get("X-Amzn-Errortype"); t != "" {
		e.Type, _, _ = strings.Cut(t, ":")
	}
	var m struct {
		Message  string `json:"message"`
		Message2 string `json:"Message"`
		Type     string `json:"__type"`
	}
	if json.Unmarshal(doc, &m) == nil {
		e.Message = m.Message + m.Message2
		if e.Type == "" && m.Type != "" {
			e.Type = m.Type[strings.LastIndex(m.Type, "#")+1:]
		}
	}
	if e.Message == "" {
		e.Message = body.Excerpt(doc, 200)
	}
	return &traffic.Response{Wire: traffic.WireBedrock, Output: []traffic.Message{}, Error: e}
}

// streamEvents are ConverseStream's event types.
var streamEvents = map[string]bool{
	"messageStart": true, "contentBlockStart": true, "contentBlockDelta": true,
	"contentBlockStop": true, "messageStop": true, "metadata": true,
}

// IsStreamEvent reports whether a JSON object is one ConverseStream event
// saved as a line or an SSE data field: {"<eventType>": {…}}.
func IsStreamEvent(doc []byte) bool { return isEvent(doc) }

// isEvent reports whether a JSON object is one stream event saved as a line:
// {"<eventType>": {…}}.
func isEvent(doc []byte) bool {
	fields, err := rawjson.Fields(doc)
	return err == nil && len(fields) == 1 && streamEvents[fields[0].Key]
}
