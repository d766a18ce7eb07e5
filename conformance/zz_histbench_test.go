package conformance

import (
	"syscall"
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

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZTimeAnalyse(t *testing.T) {
	tr := growingConversation(5, 200)
	for i := 0; i < 5; i++ {
		start, c := time.Now(), cpuNow()
		analyseHistory(tr)
		t.Logf("analyse: wall %v cpu %v", time.Since(start), cpuNow()-c)
	}
	start, c := time.Now(), cpuNow()
	Judge(&Traffic{Exchanges: tr.Exchanges}, Checks())
	t.Logf("judge all: wall %v cpu %v", time.Since(start), cpuNow()-c)
}
