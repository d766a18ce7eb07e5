package conformance

import "testing"

func BenchmarkZZAnalyseHistory(b *testing.B) {
	tr := growingConversation(5, 200)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		analyseHistory(tr)
	}
}
