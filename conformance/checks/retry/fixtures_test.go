package retry_test

import (
	"context"
	"slices"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks/checktest"
	"github.com/llmtck/llmtck/conformance/lint"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/retry"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
)

// No recording holds a retried call with what the simulator notes between
// calls: the RETRY fixtures are the simulator's recordings of the
// reference engine (pass) and of the variant a check targets (fail),
// playing a bundled scenario with one fault scripted.
// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, retry.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	{Check: "RETRY-001", Name: "played-stream-error-retried-clean", Pass: true, Build: playedFault("", scenario.ProviderFault{Kind: scenario.FaultStreamError, After: 9}, 0)},
	{Check: "RETRY-001", Name: "played-partial-text-kept-in-retry", Interaction: 1, Build: playedFault(reference.VariantKeepFailedPartial, scenario.ProviderFault{Kind: scenario.FaultStreamError, After: 9}, 0)},
	{Check: "RETRY-002", Name: "played-overload-after-tools", Pass: true, Build: playedFault("", scenario.ProviderFault{Kind: scenario.FaultOverloaded}, 1)},
	{Check: "RETRY-002", Name: "played-tools-run-again-on-retry", Interaction: 2, Build: playedFault(reference.VariantRerunToolsOnRetry, scenario.ProviderFault{Kind: scenario.FaultOverloaded}, 1)},
	{Check: "RETRY-003", Name: "played-waits-retry-after", Pass: true, Build: playedFault("", scenario.ProviderFault{Kind: scenario.FaultRateLimit, RetryAfterMS: 40}, 0)},
	{Check: "RETRY-003", Name: "played-retry-after-ignored", Interaction: 1, Build: playedFault(reference.VariantIgnoreRetryAfter, scenario.ProviderFault{Kind: scenario.FaultRateLimit, RetryAfterMS: 40}, 0)},
}

// playedFault plays anthropic/thinking-tool-loop with fault served before
// step n, by the reference engine or variant v, and returns what the
// simulator recorded. The measured gap before a retry is written as a
// fixed value on the side of the wait it fell on, so the file repeats.
func playedFault(v reference.Variant, fault scenario.ProviderFault, n int) func(t *testing.T) *cassette.Cassette {
	return func(t *testing.T) *cassette.Cassette {
		sc, err := scenario.Load("anthropic/thinking-tool-loop")
		if err != nil {
			t.Fatal(err)
		}
		sc.Steps = slices.Clone(sc.Steps)
		sc.Steps[n].Faults = []scenario.ProviderFault{fault}
		sim, err := simulator.Play(sc, func(s *simulator.Session) error {
			reference.Play(context.Background(), s, reference.Options{Stream: true, Variant: v})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		c := sim.Cassette()
		for _, in := range c.Interactions {
			// The simulator's own account of each call is not traffic, and
			// a RETRY-003 one names the gap it measured.
			in.Response.Header.Del(lint.FindingHeader)
			if in.Request.Header.Get(retry.RetryGapHeader) == "" {
				continue
			}
			gap := "45"
			if v == reference.VariantIgnoreRetryAfter {
				gap = "3"
			}
			in.Request.Header.Set(retry.RetryGapHeader, gap)
		}
		return c
	}
}
