package anthropic

import (
	"bytes"
	"encoding/json"

	"github.com/llmtck/llmtck/internal/sse"
)

// event is one stream event before it is interpreted: an SSE event, or one
// line of a JSONL fixture (the data payloads without SSE framing).
type event struct {
	offset int    // byte offset in the body
	name   string // the SSE event name; "" for JSONL
	data   []byte
	// cut is true when the body ended inside this event.
	cut bool
}

// sseEvents splits an event-stream body.
func sseEvents(body []byte) []event {
	parsed := sse.Parse(body)
	events := make([]event, 0, len(parsed))
	for _, e := range parsed {
		events = append(events, event{offset: e.Offset, name: e.Event, data: []byte(e.Data), cut: e.Unterminated})
	}
	return events
}

// jsonlEvents splits a body of one JSON event per line. ok is false unless
// the first non-blank line is a JSON object; later lines that are not JSON
// become events that the reassembler reports.
func jsonlEvents(body []byte) (events []event, ok bool) {
	for pos := 0; pos < len(body); {
		end := bytes.IndexByte(body[pos:], '\n')
		next := pos + end + 1
		if end < 0 {
			end, next = len(body)-pos, len(body)
		}
		line := bytes.TrimSpace(body[pos : pos+end])
		if len(line) > 0 {
			if len(events) == 0 && (line[0] != '{' || !json.Valid(line)) {
				return nil, false
			}
			events = append(events, event{offset: pos, data: line, cut: next == len(body) && body[len(body)-1] != '\n'})
		}
		pos = next
	}
	return events, len(events) > 0
}
