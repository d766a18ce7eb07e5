package providers_test

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/providers"
)

// bigCassette encodes n streamed Anthropic interactions of about bodySize
// bytes each, thinking and text deltas interleaved as real streams are.
func bigCassette(tb testing.TB, n, bodySize int) []byte {
	c := &cassette.Cassette{}
	for i := range n {
		var body strings.Builder
		body.WriteString(`event: message_start` + "\n" + `data: {"type":"message_start","message":{"id":"msg_` + fmt.Sprint(i) + `","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}` + "\n\n")
		body.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n")
		for e := 0; body.Len() < bodySize/2; e++ {
			fmt.Fprintf(&body, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"step %d of %d: weigh the \\\"options\\\"\"}}\n\n", e, i)
		}
		body.WriteString("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"EqQBCkYIBxgCKkA+/==\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
		body.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
		for e := 0; body.Len() < bodySize; e++ {
			fmt.Fprintf(&body, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"chunk %d of reply %d \"}}\n\n", e, i)
		}
		body.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":900}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
		c.Interactions = append(c.Interactions, &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages",
				Header: http.Header{"Anthropic-Version": {"2023-06-01"}},
				Body:   []byte(fmt.Sprintf(`{"model":"claude-sonnet-4-5","max_tokens":4096,"stream":true,"thinking":{"type":"enabled","budget_tokens":2048},"messages":[{"role":"user","content":"question %d"}]}`, i))},
			Response: cassette.Response{Status: 200, StatusText: "200 OK", Header: http.Header{"Content-Type": {"text/event-stream"}},
				Body: []byte(body.String()), Duration: time.Second},
		})
	}
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkDecode50MB: a 50 MB cassette of 1,000 streamed interactions,
// parsed and decoded into the model. The bar is under 1 s per op on one core
// (go test -bench Decode50MB -cpu 1) with peak heap under 4x the file,
// reported as peak-heap/file.
func BenchmarkDecode50MB(b *testing.B) {
	data := bigCassette(b, 1000, 50_000)
	b.SetBytes(int64(len(data)))
	var peak uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		c, err := cassette.Parse("big.yaml", data)
		if err != nil {
			b.Fatal(err)
		}
		exs := providers.DecodeCassette(c, "")
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if grown := after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc); grown > peak {
			peak = grown
		}
		if len(exs) != 1000 || exs[999].Response == nil || !exs[999].Response.Stream.Complete {
			b.Fatal("decode lost interactions")
		}
	}
	b.ReportMetric(float64(len(data))/1e6, "MB-file")
	b.ReportMetric(float64(peak)/float64(len(data)), "live-heap/file")
}

// TestDecodeIsLinear: decoding twice the traffic costs about twice the
// allocations, never four times.
func TestDecodeIsLinear(t *testing.T) {
	allocs := func(n int) float64 {
		data := bigCassette(t, n, 5_000)
		return testing.AllocsPerRun(2, func() {
			c, err := cassette.Parse("x.yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			providers.DecodeCassette(c, "")
		})
	}
	a, b := allocs(50), allocs(200)
	if ratio := b / a; ratio > 5 {
		t.Errorf("4x the interactions cost %.1fx the allocations; decoding is not linear", ratio)
	}
}
