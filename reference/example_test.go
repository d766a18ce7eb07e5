package reference_test

import (
	"context"
	"fmt"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
)

// Play drives one scenario's session with the reference engine; the
// simulator that served it holds the traffic and what the checks found.
// In a test, conformance.Run plays them all with a harness that calls
// reference.Play.
func ExamplePlay() {
	sc, err := scenario.Load("anthropic/cancelled-tool")
	if err != nil {
		panic(err)
	}
	sim, err := simulator.Play(sc, func(s *simulator.Session) error {
		return reference.Play(context.Background(), s, reference.Options{Stream: true})
	})
	if err != nil {
		panic(err)
	}
	errors := 0
	for _, f := range sim.Judge(nil) {
		if f.Severity != check.SeverityInfo {
			errors++
		}
	}
	fmt.Printf("%d requests, all steps served: %v, error or warning findings: %d\n", sim.Requests(), sim.Done(), errors)
	// Output: 3 requests, all steps served: true, error or warning findings: 0
}
