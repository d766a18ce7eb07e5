package scenario_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/reference"
)

// playReference is the reference engine as a conformance harness: it fails
// t when reference.Play does.
func playReference(opts reference.Options) conformance.Harness {
	return func(t *testing.T, s *conformance.Session) {
		t.Helper()
		if err := reference.Play(t.Context(), s, opts); err != nil {
			t.Fatal(err)
		}
	}
}
