// Package reference is the reference engine at work: it plays conformance
// sessions with the reference harness loop (reference/harness) and its
// stores (reference/store), correctly or as one of its deliberately broken
// variants, so every check is proven against it.
package reference

import (
	"net/http"
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
