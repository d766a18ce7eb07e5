// Package reference plays conformance sessions with the reference engine's
// harness loop, so the engine is held to every scenario.
package reference

import (
	"context"
	"net/http"
	"testing"

	"github.com/llmtck/llmtck/conformance"
)

// Options say how the reference engine plays a session.
type Options struct {
	Stream     bool         // stream every response
	HTTPClient *http.Client // nil: a default client (a demo passes one through a proxy)
	Variant    Variant      // "" for the correct engine
}

// Variant names a deliberately broken reference engine; "" is the correct
// one.
type Variant string

// Harness is Play as a conformance harness: it fails t when Play does.
func Harness(opts Options) conformance.Harness {
	return func(t *testing.T, s *conformance.Session) {
		t.Helper()
		if err := Play(context.Background(), s, opts); err != nil {
			t.Fatal(err)
		}
	}
}
