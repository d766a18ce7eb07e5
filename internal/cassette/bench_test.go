package cassette

import (
	"sync"
	"testing"
)

var (
	bigOnce sync.Once
	big     []byte
)

// bigCassette is a generated 50 MB go-vcr v1 cassette of 1,000 streamed
// interactions (about 50 KB of SSE each), built once per test binary.
func bigCassette(b *testing.B) []byte {
	bigOnce.Do(func() { big = encoded(b, genCassette(1000, 50_000)) })
	return big
}

func BenchmarkParse50MB(b *testing.B) {
	data := bigCassette(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c, err := Parse("big.yaml", data)
		if err != nil || len(c.Interactions) != 1000 {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseYAML50MB(b *testing.B) {
	data := bigCassette(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c, err := parseSlow("big.yaml", data)
		if err != nil || len(c.Interactions) != 1000 {
			b.Fatal(err)
		}
	}
}
