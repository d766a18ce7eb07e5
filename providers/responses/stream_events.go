package responses

import (
	"github.com/llmtck/llmtck/internal/body"
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
// .chunks.txt fixtures); lines that are not JSON become stream issues.
func jsonLines(b []byte) []event {
	lines := body.Lines(b)
	out := make([]event, len(lines))
	for i, l := range lines {
		out[i] = event{data: string(l.Data), offset: l.Offset}
	}
	return out
}
