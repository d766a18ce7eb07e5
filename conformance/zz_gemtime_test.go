package conformance

import (
	"syscall"
	"testing"
	"time"
)

func TestZZGemTime(t *testing.T) {
	tr := gemGrowingConversation(t, 5, 200)
	for _, pat := range []string{"GEM-*", "XP-*", "HIST-*", "ANT-*", "OAI-*"} {
		checks, _ := Select([]string{pat}, nil)
		for i := 0; i < 2; i++ {
			start, c := time.Now(), cpuNow()
			Judge(&Traffic{Exchanges: tr.Exchanges}, checks)
			t.Logf("%s wall %v cpu %v", pat, time.Since(start), cpuNow()-c)
		}
	}
}

func BenchmarkZZGemAnalyze(b *testing.B) {
	tr := gemGrowingConversation(b, 5, 200)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		newGemTraffic(tr)
	}
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkZZGemJudge(b *testing.B) {
	tr := gemGrowingConversation(b, 5, 200)
	checks, _ := Select([]string{"GEM-*", "XP-*"}, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Judge(&Traffic{Exchanges: tr.Exchanges}, checks)
	}
}
