package reference_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/reference"
)

// The reference engine passes generated scenarios on every wire, faults
// included, streamed: LLMTCK_EXPLORE_N sets how many per wire (20 by
// default, 5 with -short).
func TestReferenceExplores(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 5
	}
	if v, err := strconv.Atoi(os.Getenv("LLMTCK_EXPLORE_N")); err == nil {
		n = v
	}
	start := time.Now()
	conformance.Run(t, playReference(reference.Options{Stream: true}), conformance.Explore(n), conformance.Scenarios("anthropic/parallel-tools"))
	t.Logf("Explore(%d) on 5 wires in %v", n, time.Since(start).Round(time.Millisecond))
}
