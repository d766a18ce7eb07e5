package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/rawjson"
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

// jsonlEvents are the lines of a body of one JSON event per line, as
// events; lines that are not JSON are events the reassembler reports.
func jsonlEvents(b []byte) []event {
	lines := body.Lines(b)
	events := make([]event, len(lines))
	for i, l := range lines {
		events[i] = event{offset: l.Offset, data: l.Data, cut: l.Cut}
	}
	return events
}

// wireEvent is the union of the stream events' shapes, decoded once per
// event; payloads that are kept or read rarely stay raw.
type wireEvent struct {
	Type         string          `json:"type"`
	Index        json.RawMessage `json:"index"`
	Message      json.RawMessage `json:"message"`
	ContentBlock json.RawMessage `json:"content_block"`
	Delta        *wireDelta      `json:"delta"`
	Usage        json.RawMessage `json:"usage"`
}

// wireDelta is the union of content_block_delta's and message_delta's delta.
type wireDelta struct {
	Type             string          `json:"type"`
	Text             string          `json:"text"`
	Thinking         string          `json:"thinking"`
	Signature        string          `json:"signature"`
	PartialJSON      string          `json:"partial_json"`
	Citation         json.RawMessage `json:"citation"`
	Content          string          `json:"content"`
	EncryptedContent string          `json:"encrypted_content"`
	StopReason       string          `json:"stop_reason"`
}

// decodeEvent decodes one data payload. A field of the wrong JSON type is
// left empty (encoding/json skips it and goes on); only data that is not a
// JSON object fails.
func decodeEvent(data []byte) (*wireEvent, error) {
	if rawjson.Kind(data) != "object" {
		return nil, fmt.Errorf("expected a JSON object, found %s", rawjson.Describe(data))
	}
	var ev wireEvent
	err := json.Unmarshal(data, &ev)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) {
		return nil, err
	}
	return &ev, nil
}

// eventStreamEvents unwraps Bedrock InvokeModelWithResponseStream: AWS
// event-stream frames of type "chunk" whose payload {"bytes": "<base64>"}
// holds one Anthropic stream event. An exception frame becomes an error
// event; a frame that does not decode ends the events with what it says.
func eventStreamEvents(b []byte) []event {
	msgs, err := eventstream.Decode(b)
	offsets, end := eventstream.Offsets(b)
	events := make([]event, 0, len(msgs)+1)
	for i, m := range msgs {
		ev := event{offset: offsets[i], name: m.String(":event-type")}
		if m.String(":message-type") == "exception" {
			ev.name = "error"
			ev.data = exceptionEvent(m.String(":exception-type"), m.Payload)
			events = append(events, ev)
			continue
		}
		var chunk struct {
			Bytes []byte `json:"bytes"` // base64 in the JSON, as AWS sends it
		}
		if json.Unmarshal(m.Payload, &chunk) == nil && chunk.Bytes != nil {
			ev.name, ev.data = "", chunk.Bytes
		} else {
			ev.data = m.Payload
		}
		events = append(events, ev)
	}
	if err != nil {
		events = append(events, event{offset: end, name: "frame", data: []byte(err.Error()), cut: true})
	}
	return events
}

// exceptionEvent writes a Bedrock exception frame as an Anthropic error
// event: {"type":"error","error":{"type":…,"message":…}}.
func exceptionEvent(typ string, payload []byte) []byte {
	var p struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(payload, &p)
	var inner, o rawjson.Object
	inner.String("type", typ)
	inner.String("message", p.Message)
	o.String("type", "error")
	o.Raw("error", inner.Bytes())
	return o.Bytes()
}
