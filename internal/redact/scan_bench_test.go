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

// BenchmarkLayers reports the cost of each layer of the scanner on a 2 KB
// answer with no credential (a thinking signature, then markdown): the
// fast path (Scan), the full rule set (gitleaks' rules, private keys,
// credential-named keys) and both as ScanAll runs them.
func BenchmarkLayers(b *testing.B) {
	sig := make([]byte, 400)
	for i := range sig {
		sig[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i*37+i*i*11)%64]
	}
	prose := `Here's how to cross the street safely:\n\n## Basic Steps\n\n1. **Find a safe crossing point** - use crosswalks or intersections when possible.\n2. **Stop at the curb** and look left, right, then left again.\n3. **Listen** for approaching vehicles, especially ones you cannot see.\n\n`
	body := []byte(`{"content":[{"signature":"` + string(sig) + `","thinking":"This is a straightforward question about pedestrian safety.","type":"thinking"},{"text":"` + strings.Repeat(prose, 5) + `","type":"text"}],"usage":{"input_tokens":12,"output_tokens":345}}`)
	fullRules() // compiled once per process, not per value
	for _, layer := range []struct {
		name string
		scan func([]byte) *Leak
	}{
		{"fast", func(d []byte) *Leak { return Scan("f", d) }},
		{"full", func(d []byte) *Leak { return ScanNamed("f", d) }},
		{"all", func(d []byte) *Leak { return ScanAll("f", d) }},
	} {
		b.Run(layer.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for range b.N {
				if l := layer.scan(body); l != nil {
					b.Fatal(l)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(body))*1024/1000, "µs/KB")
		})
	}
}
