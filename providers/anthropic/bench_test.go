package anthropic

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// genStream builds a well-formed stream of about n events: a thinking block,
// a text block and a tool_use whose input arrives in fragments, like a long
// real answer.
func genStream(n int) []byte {
	third := n / 3
	events := []string{evStart, evThinkStart}
	for i := 0; i < third; i++ {
		events = append(events, fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"step %d, "}}`, i))
	}
	events = append(events, evSigA, evStop0, `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`)
	for i := 0; i < third; i++ {
		events = append(events, fmt.Sprintf(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"word%d "}}`, i))
	}
	events = append(events, `{"type":"content_block_stop","index":1}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"items\": [0"}}`)
	for i := 1; i < third; i++ {
		events = append(events, fmt.Sprintf(`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":", %d"}}`, i))
	}
	events = append(events, `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"]}"}}`,
		`{"type":"content_block_stop","index":2}`, evMsgDelta, evMsgStop)
	return sseBody(events...)
}

func BenchmarkDecodeStream(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		body := genStream(n)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				resp, err := Codec{}.DecodeResponse(200, nil, body)
				if err != nil || !resp.Stream.Complete {
					b.Fatalf("%v %+v", err, resp.Stream)
				}
			}
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/float64(n), "ns/event")
		})
	}
}

// TestGenStream checks the benchmark's input is what it claims.
func TestGenStream(t *testing.T) {
	resp, err := Codec{}.DecodeResponse(200, nil, genStream(300))
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, resp, want{complete: true})
	b := blocks(t, resp, 3)
	eq(t, "thinking", strings.Count(b[0].Text, "step"), 100)
	eq(t, "input", strings.Count(string(b[2].Input), ","), 99)
}
