package runner_test

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/llmtck/llmtck/conformance/runner"
)

// BenchmarkScenarioOverhead is what llmtck test adds to a harness's own
// start-up for one scenario: serving its providers, writing the scenario
// file, running a trivial command (true) and judging. bare is the same
// command started and waited for alone; runner-overhead-ms is the
// difference of the two, the figure to keep under 50 ms.
func BenchmarkScenarioOverhead(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true command here")
	}
	s := bundled(b, "anthropic/thinking-tool-loop")
	var bare, run time.Duration
	b.Run("bare", func(b *testing.B) {
		start := time.Now()
		for b.Loop() {
			if err := exec.Command(truePath).Run(); err != nil {
				b.Fatal(err)
			}
		}
		bare = time.Since(start) / time.Duration(b.N)
	})
	b.Run("runner", func(b *testing.B) {
		start := time.Now()
		for b.Loop() {
			r := runner.Run(context.Background(), s, runner.Options{Command: []string{truePath}})
			if r.ExitCode != 0 {
				b.Fatalf("%+v", r)
			}
		}
		run = time.Since(start) / time.Duration(b.N)
		b.ReportMetric(float64(run-bare)/float64(time.Millisecond), "runner-overhead-ms")
	})
}
