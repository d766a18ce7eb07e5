package reference_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/reference"
)

// The reference engine passes every bundled scenario, streamed and not.
func TestReferencePassesEveryScenario(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			conformance.Run(t, playReference(reference.Options{Stream: stream}))
		})
	}
}
