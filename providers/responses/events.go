package responses

import (
	"bytes"
	"encoding/json"

	"github.com/llmtck/llmtck/internal/sse"
)

// event is one stream event's data and where it starts in the body. The
// `event:` name is not kept: payloads name their own type, and streams
// converted from JSON lines have nothing else.
type event struct {
	data   string
	offset int
}

func sseEvents(body []byte) []event {
	parsed := sse.Parse(body)
	out := make([]event, 0, len(parsed))
	for _, e := range parsed {
		out = append(out, event{data: e.Data, offset: e.Offset})
	}
	return out
}

// jsonLines splits a body of one JSON event per line (the vercel/ai
// .chunks.txt fixtures). It accepts the body only when its first line is a
// JSON object; later lines that are not JSON become stream issues.
func jsonLines(body []byte) ([]event, bool) {
	var out []event
	for pos := 0; pos < len(body); {
		end := bytes.IndexByte(body[pos:], '\n')
		next := pos + end + 1
		if end < 0 {
			end, next = len(body)-pos, len(body)
		}
		line := bytes.TrimSpace(body[pos : pos+end])
		if len(line) > 0 {
			if len(out) == 0 && (line[0] != '{' || !json.Valid(line)) {
				return nil, false
			}
			out = append(out, event{data: string(line), offset: pos + bytes.Index(body[pos:pos+end], line)})
		}
		pos = next
	}
	return out, len(out) > 0
}
