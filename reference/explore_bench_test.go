package reference_test

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/explore"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/traffic"
)

// playOnce plays sc with the reference engine, streamed, and judges it
// with the catalogue, as Run does for one scenario.
func playOnce(tb testing.TB, sc *scenario.Scenario, v reference.Variant) []check.Finding {
	sim, err := simulator.Play(sc, func(s *simulator.Session) error {
		reference.Play(context.Background(), s, reference.Options{Stream: true, Variant: v})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return sim.Judge(nil)
}

// BenchmarkPlayBundled is one bundled scenario played and judged: the
// yardstick for the explore benchmarks beside it.
func BenchmarkPlayBundled(b *testing.B) {
	sc, err := scenario.Load("anthropic/thinking-tool-loop")
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		playOnce(b, sc, "")
	}
}

// BenchmarkPlayGenerated is one generated scenario played and judged,
// without faults or user stops (whose waits are the scenario's, not
// llmtck's), over the same 50 seeds each run.
func BenchmarkPlayGenerated(b *testing.B) {
	var scs []*scenario.Scenario
	for seed := uint64(1); len(scs) < 50; seed++ {
		f, _ := explore.Generate(traffic.WireAnthropic, seed, explore.Options{Caps: []string{"anthropic", "stream", "compaction"}})
		sc, err := f.Scenario()
		if err != nil {
			b.Fatal(err)
		}
		scs = append(scs, sc)
	}
	b.ResetTimer()
	for i := range b.N {
		playOnce(b, scs[i%len(scs)], "")
	}
}

// BenchmarkShrinkStep is one step of shrinking: the candidates of a failing
// scenario, the first valid one parsed and played with the broken engine,
// and its findings read.
func BenchmarkShrinkStep(b *testing.B) {
	f, _ := explore.Generate(traffic.WireAnthropic, 1, explore.Options{Caps: []string{"anthropic", "stream", "retry"}, Faults: []scenario.FaultKind{scenario.FaultServerError}})
	b.ResetTimer()
	for range b.N {
		for _, c := range explore.Candidates(f) {
			sc, err := c.Scenario()
			if err != nil {
				continue
			}
			playOnce(b, sc, reference.VariantRerunToolsOnRetry)
			break
		}
	}
}

// Memory stays flat over many generated scenarios: the heap after 1,000
// played is about the heap after 100. Set LLMTCK_HEAP=1 to run it (it
// plays 1,000 scenarios, a minute's waits for retries and stops).
func TestExploreHeapFlat(t *testing.T) {
	if os.Getenv("LLMTCK_HEAP") == "" {
		t.Skip("LLMTCK_HEAP=1 runs it")
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var at100 uint64
	for seed := uint64(1); seed <= 1000; seed++ {
		w := explore.Wires[seed%uint64(len(explore.Wires))]
		f, _ := explore.Generate(w, seed, explore.Options{})
		sc, err := f.Scenario()
		if err != nil {
			t.Fatal(err)
		}
		playOnce(t, sc, "")
		if seed == 100 {
			at100 = heap()
		}
	}
	at1000 := heap()
	t.Logf("heap after 100 scenarios: %.1f MB; after 1,000: %.1f MB", float64(at100)/1e6, float64(at1000)/1e6)
	if at1000 > at100*3/2+4<<20 {
		t.Errorf("the heap grew from %d to %d bytes over 900 more scenarios", at100, at1000)
	}
}
