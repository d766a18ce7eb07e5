package redact

import (
	"bytes"
	"testing"
)

// BenchmarkScanner scans an event stream of English-like text, as the
// recorder does every byte of a response.
func BenchmarkScanner(b *testing.B) {
	event := []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"the quick brown fox jumps over the lazy dog; a system message says yes\"}}\n\n")
	data := bytes.Repeat(event, (64<<10)/len(event))
	b.SetBytes(int64(len(data)))
	for range b.N {
		s := NewScanner("response.body")
		s.Write(data)
		if s.Leak() != nil {
			b.Fatal(s.Leak())
		}
	}
}
