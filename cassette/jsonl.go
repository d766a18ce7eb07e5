package cassette

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
)

// readJSONL reads stream events saved one JSON object per line with no SSE
// framing and no request (vercel/ai's .chunks.txt fixtures). Each stream
// becomes an interaction with an empty request and a 200 text/event-stream
// response whose body frames each line as an SSE event: `event: <type>`
// when the object has a string "type" (or is {"<eventType>": payload}, as
// Bedrock's ConverseStream events are saved), then `data: <line>`. A fixture may
// hold several responses back to back (the steps of a tool loop): a
// stream-opening event (message_start, response.created) after other events
// starts the next interaction, so each stream is judged on its own.
func readJSONL(name string, data []byte) ([]*Interaction, error) {
	if err := checkText(name, data); err != nil {
		return nil, err
	}
	var (
		bodies [][]byte
		stream []byte
	)
	for _, l := range body.Split(trimBOM(data)) {
		line, lineNo := l.Data, l.No
		fields, err := rawjson.Fields(line)
		if err != nil {
			var v json.RawMessage
			if jerr := json.Unmarshal(line, &v); jerr != nil {
				return nil, errorf(name, lineNo, "expected one JSON object per line (JSONL): %v", jerr)
			}
			return nil, errorf(name, lineNo, "expected one JSON object per line (JSONL), found %s", rawjson.Kind(line))
		}
		// A bare CR between JSON tokens would end the SSE line early.
		data := strings.ReplaceAll(string(line), "\r", " ")
		typ := eventType(fields)
		if streamOpeners[typ] && len(stream) > 0 {
			bodies, stream = append(bodies, stream), nil
		}
		stream = sse.Write(stream, typ, data)
	}
	bodies = append(bodies, stream)
	out := make([]*Interaction, 0, len(bodies))
	for _, b := range bodies {
		out = append(out, &Interaction{
			Request: Request{Header: http.Header{}},
			Response: Response{
				Status:     http.StatusOK,
				StatusText: statusText(http.StatusOK, ""),
				Header:     http.Header{"Content-Type": {"text/event-stream"}},
				Body:       b,
			},
		})
	}
	return out, nil
}

// streamOpeners are the event types that can only begin a response stream.
var streamOpeners = map[string]bool{"message_start": true, "response.created": true, "messageStart": true}

// eventType is the object's "type" when it is a string that fits on an
// `event:` line, or the key of an object with one member that is an object.
func eventType(fields []rawjson.Field) string {
	if len(fields) == 1 && fields[0].Key != "type" && rawjson.Kind(fields[0].Value) == "object" && !strings.ContainsAny(fields[0].Key, "\r\n") {
		return fields[0].Key
	}
	for _, f := range fields {
		if f.Key != "type" {
			continue
		}
		s, ok := rawjson.String(f.Value)
		if ok && !strings.ContainsAny(s, "\r\n") {
			return s
		}
		return ""
	}
	return ""
}
