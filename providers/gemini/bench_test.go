package gemini_test

import (
	"fmt"
	"strings"
	"testing"
)

// bigStream builds a Gemini 3 stream of n chunks: thought text, answer
// text, a functionCall with its signature, and the trailing signature part.
func bigStream(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		part := fmt.Sprintf(`{"text": "word %d of the answer, with some more text "}`, i)
		if i < n/4 {
			part = fmt.Sprintf(`{"text": "thinking step %d ", "thought": true}`, i)
		}
		fmt.Fprintf(&b, `data: {"candidates": [{"content": {"parts": [%s],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 10,"candidatesTokenCount": %d}}`+"\r\n\r\n", part, i)
	}
	b.WriteString(`data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f","args": {"a": 1}},"thoughtSignature": "c2lnbmF0dXJl"},{"text": "","thoughtSignature": "c2lnbmF0dXJl"}],"role": "model"},"finishReason": "STOP","index": 0}]}` + "\r\n\r\n")
	return []byte(b.String())
}

// BenchmarkDecodeStream reassembles streams of growing length; the time
// per chunk stays flat when reassembly is linear.
func BenchmarkDecodeStream(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		body := bigStream(n)
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				resp, err := codec.DecodeResponse(200, nil, body)
				if err != nil || !resp.Stream.Complete || len(resp.Output[0].Blocks) != 4 {
					b.Fatalf("bad decode: %v", err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/chunk")
		})
	}
}

// TestDecodeStreamLinear guards the benchmark's claim in plain go test: ten
// times the chunks may not cost much more than ten times the time.
func TestDecodeStreamLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	small, large := bigStream(2000), bigStream(20000)
	per := func(body []byte, chunks int) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				if _, err := codec.DecodeResponse(200, nil, body); err != nil {
					b.Fatal(err)
				}
			}
		})
		return float64(r.NsPerOp()) / float64(chunks)
	}
	s, l := per(small, 2000), per(large, 20000)
	if l > 3*s {
		t.Errorf("%.0f ns/chunk at 20000 chunks against %.0f at 2000: reassembly is not linear", l, s)
	}
}
