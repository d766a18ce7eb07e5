package cassette

import (
	"runtime"
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

// allocated returns the bytes f allocates; with what was already live, it
// bounds the peak heap f needs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Decoding llmtck's own cassettes is linear in memory and stays well under
// 4x the file: the input plus about one copy of the bodies.
func TestParseMemoryIsLinear(t *testing.T) {
	for _, n := range []int{50, 200} {
		data := encoded(t, genCassette(n, 50_000))
		alloc := allocated(func() {
			c, err := Parse("gen.yaml", data)
			if err != nil || len(c.Interactions) != n {
				t.Fatal(err)
			}
		})
		ratio := float64(uint64(len(data))+alloc) / float64(len(data))
		t.Logf("%d interactions, %.1f MB: allocated %.1f MB, peak at most %.2fx the file", n, float64(len(data))/1e6, float64(alloc)/1e6, ratio)
		if ratio > 2.5 {
			t.Errorf("peak bound %.2fx the file size, want under 2.5x (target 4x)", ratio)
		}
	}
}

func BenchmarkParseMemory50MB(b *testing.B) {
	data := bigCassette(b)
	var alloc uint64
	for range b.N {
		alloc = allocated(func() {
			if _, err := Parse("big.yaml", data); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.ReportMetric(float64(len(data))/1e6, "file-MB")
	b.ReportMetric(float64(uint64(len(data))+alloc)/float64(len(data)), "peak-x-file")
}

func BenchmarkEncode50MB(b *testing.B) {
	c := genCassette(1000, 50_000)
	b.ReportAllocs()
	for range b.N {
		var w countWriter
		if err := c.Encode(&w); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(w))
	}
}

type countWriter int

func (w *countWriter) Write(p []byte) (int, error) {
	*w += countWriter(len(p))
	return len(p), nil
}
