package redact

import (
	"bytes"
	"strings"
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

// BenchmarkScanNamed looks for named keys in an answer as a recorder sees
// one: a thinking block's base64 signature, then markdown in English, 2 KB
// with no key in it.
func BenchmarkScanNamed(b *testing.B) {
	sig := make([]byte, 400)
	for i := range sig {
		sig[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i*37+i*i*11)%64]
	}
	prose := `Here's how to cross the street safely:\n\n## Basic Steps\n\n1. **Find a safe crossing point** - use crosswalks or intersections when possible.\n2. **Stop at the curb** and look left, right, then left again.\n3. **Listen** for approaching vehicles, especially ones you cannot see.\n\n`
	body := []byte(`{"content":[{"signature":"` + string(sig) + `","thinking":"This is a straightforward question about pedestrian safety.","type":"thinking"},{"text":"` + strings.Repeat(prose, 5) + `","type":"text"}]}`)
	b.SetBytes(int64(len(body)))
	for range b.N {
		if l := ScanNamed("response.body", body); l != nil {
			b.Fatal(l)
		}
	}
}
