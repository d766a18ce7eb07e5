package conformance

import (
	"testing"
	"time"
)

func BenchmarkZZAnalyseHistory(b *testing.B) {
	tr := growingConversation(5, 200)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		analyseHistory(tr)
	}
}

func TestZZTimeAnalyse(t *testing.T) {
	tr := growingConversation(5, 200)
	for i := 0; i < 5; i++ {
		start := time.Now()
		analyseHistory(tr)
		t.Logf("analyse: %v", time.Since(start))
	}
}
