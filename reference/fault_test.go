package reference_test

import (
	"context"
	"slices"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
)

// withFaults returns sc with faults served before the steps they are
// keyed by.
func withFaults(sc *scenario.Scenario, faults map[int][]scenario.ProviderFault) *scenario.Scenario {
	out := *sc
	out.Steps = slices.Clone(sc.Steps)
	for n, fs := range faults {
		out.Steps[n].Faults = fs
	}
	return &out
}

// playFaulty plays sc with variant v, streamed or not, and returns the
// simulator and the findings that are not infos.
func playFaulty(t *testing.T, sc *scenario.Scenario, v reference.Variant, stream bool) (*simulator.Simulator, []check.Finding) {
	t.Helper()
	var playErr error
	sim, err := simulator.Play(sc, func(s *simulator.Session) error {
		playErr = reference.Play(context.Background(), s, reference.Options{Stream: stream, Variant: v})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []check.Finding
	for _, f := range sim.Judge(nil) {
		if f.Severity != check.SeverityInfo {
			out = append(out, f)
		}
	}
	if v == "" && playErr != nil {
		t.Errorf("play: %v", playErr)
	}
	return sim, out
}

// Every wire: the reference engine retries every scripted fault, waits
// what the answer asks, and finishes with no finding.
func TestReferenceRetriesFaults(t *testing.T) {
	for _, name := range []string{"anthropic/thinking-tool-loop", "openai/tool-loop", "responses/parallel-tools", "gemini/sequential-calls", "bedrock/thinking-tool-loop"} {
		for _, kind := range scenario.FaultKinds {
			for _, stream := range []bool{true, false} {
				t.Run(name+"/"+string(kind)+map[bool]string{true: "/stream", false: "/json"}[stream], func(t *testing.T) {
					sc, err := scenario.Load(name)
					if err != nil {
						t.Fatal(err)
					}
					f := scenario.ProviderFault{Kind: kind, RetryAfterMS: 15}
					sc = withFaults(sc, map[int][]scenario.ProviderFault{0: {f}, 1: {f, f}})
					sim, findings := playFaulty(t, sc, "", stream)
					for _, f := range findings {
						t.Errorf("finding: %v", f)
					}
					if !sim.Done() || len(sim.Rejections()) > 0 {
						t.Errorf("served %d of %d steps; rejections %v", sim.Served(), len(sc.Steps), sim.Rejections())
					}
					if got, want := sim.Requests(), len(sc.Steps)+3; got != want {
						t.Errorf("%d requests, want %d (each fault retried once)", got, want)
					}
				})
			}
		}
	}
}

// Each fault-handling variant is caught by the check it targets, on a
// scenario with the fault it mishandles; the correct engine passes it.
func TestFaultVariantsAreCaught(t *testing.T) {
	cases := []struct {
		variant reference.Variant
		fault   scenario.ProviderFault
		step    int
		check   string
	}{
		{reference.VariantKeepFailedPartial, scenario.ProviderFault{Kind: scenario.FaultStreamError, After: 9}, 0, "RETRY-001"},
		{reference.VariantRerunToolsOnRetry, scenario.ProviderFault{Kind: scenario.FaultOverloaded}, 1, "RETRY-002"},
		{reference.VariantIgnoreRetryAfter, scenario.ProviderFault{Kind: scenario.FaultRateLimit, RetryAfterMS: 400}, 0, "RETRY-003"}, // long enough that a loaded machine cannot hide the early retry
	}
	for _, c := range cases {
		t.Run(string(c.variant), func(t *testing.T) {
			sc, err := scenario.Load("anthropic/thinking-tool-loop")
			if err != nil {
				t.Fatal(err)
			}
			sc = withFaults(sc, map[int][]scenario.ProviderFault{c.step: {c.fault}})
			if _, findings := playFaulty(t, sc, "", true); len(findings) > 0 {
				t.Fatalf("the correct engine: %v", findings)
			}
			_, findings := playFaulty(t, sc, c.variant, true)
			hit := false
			for _, f := range findings {
				hit = hit || f.Check == c.check
			}
			if !hit {
				t.Errorf("%s slipped through: findings %v", c.variant, findings)
			}
		})
	}
}
