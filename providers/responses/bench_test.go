package responses

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/llmtck/llmtck/internal/sse"
)

// largeStream builds a stream of n output items, each a message of k text
// deltas, ending in response.completed.
func largeStream(n, k int) []byte {
	seq := 0
	var b []byte
	add := func(data string) {
		b = sse.Write(b, "", fmt.Sprintf(`%s,"sequence_number":%d}`, data[:len(data)-1], seq))
		seq++
	}
	add(`{"type":"response.created","response":{"id":"resp_big","status":"in_progress","output":[]}}`)
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("msg_%d", i)
		add(fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"id":%q,"type":"message","status":"in_progress","content":[],"role":"assistant"}}`, i, id))
		add(fmt.Sprintf(`{"type":"response.content_part.added","output_index":%d,"item_id":%q,"content_index":0,"part":{"type":"output_text","text":""}}`, i, id))
		for j := 0; j < k; j++ {
			add(fmt.Sprintf(`{"type":"response.output_text.delta","output_index":%d,"item_id":%q,"content_index":0,"delta":"word "}`, i, id))
		}
		add(fmt.Sprintf(`{"type":"response.output_item.done","output_index":%d,"item":{"id":%q,"type":"message","status":"completed","content":[{"type":"output_text","text":"..."}],"role":"assistant"}}`, i, id))
	}
	add(`{"type":"response.completed","response":{"id":"resp_big","status":"completed"}}`)
	return b
}

// BenchmarkDecodeStream reports time per event at growing sizes; a flat
// ns/event across sizes shows reassembly is linear.
func BenchmarkDecodeStream(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		body := largeStream(n, 100)
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			var events int
			for i := 0; i < b.N; i++ {
				r, err := Codec{}.DecodeResponse(http.StatusOK, nil, body)
				if err != nil || !r.Stream.Complete || len(r.Stream.Issues) > 0 {
					b.Fatalf("%v %+v", err, r.Stream.Issues)
				}
				events = r.Stream.Events
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
		})
	}
}
