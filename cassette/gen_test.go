package cassette

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// genCassette builds a cassette shaped like the proxy's recordings: n
// Anthropic-style streamed interactions whose SSE bodies are about
// bodySize bytes, with event offsets. The text is varied so no two bodies
// are the same.
func genCassette(n, bodySize int) *Cassette {
	c := &Cassette{Format: FormatGoVCRv1}
	for i := range n {
		var body strings.Builder
		var offsets []time.Duration
		for e := 0; body.Len() < bodySize; e++ {
			fmt.Fprintf(&body, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"chunk %d of reply %d: the quick brown fox \\\"jumps\\\" over the lazy dog\"}}\n\n", e, i)
			offsets = append(offsets, time.Duration(e)*1500*time.Microsecond)
		}
		c.Interactions = append(c.Interactions, &Interaction{
			Request: Request{
				Method: "POST",
				URL:    "https://api.anthropic.com/v1/messages",
				Header: http.Header{
					"Anthropic-Version": {"2023-06-01"},
					"Content-Type":      {"application/json"},
					"X-Api-Key":         {"REDACTED"},
				},
				Body: []byte(fmt.Sprintf(`{"model":"claude-sonnet-4-5","max_tokens":1024,"stream":true,"messages":[{"role":"user","content":"question %d"}]}`, i)),
			},
			Response: Response{
				Status:       200,
				StatusText:   "200 OK",
				Header:       http.Header{"Content-Type": {"text/event-stream; charset=utf-8"}, "Request-Id": {fmt.Sprintf("req_%08d", i)}},
				Body:         []byte(body.String()),
				Duration:     time.Duration(i+1) * time.Millisecond,
				EventOffsets: offsets,
			},
		})
	}
	return c
}

func encoded(tb testing.TB, c *Cassette) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// parseSlow reads data the general way, skipping the fast reader.
func parseSlow(name string, data []byte) (*Cassette, error) {
	f, doc, err := detect(name, data)
	if err != nil {
		return nil, err
	}
	return parseDetected(name, data, f, doc)
}
