package proxy

import (
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/providers"
)

// Finding is one rule a request breaks, as a Linter reports it.
type Finding struct {
	Check    string // check ID, e.g. "ANT-TOOL-001"
	Severity string // "error" (the provider rejects the request), "warning" or "info"
	Location string // JSON path in the request body, e.g. "messages[3]"
	// Message is what the provider says, for error findings: the provider's
	// own error text (wire-rules quotes them), so a harness under replay
	// --check sees what it would see live.
	Message string
	// Status is the HTTP status the provider answers an error finding with;
	// 0 means 400.
	Status int
}

// Linter judges a request against the calls before it. history holds the
// calls already answered on the same cassette in this session, oldest first,
// with requests and responses decoded; next has its request decoded and no
// response yet.
type Linter interface {
	Lint(history []engine.Exchange, next *engine.Exchange) []Finding
}

// LintFunc adapts a function to Linter.
type LintFunc func(history []engine.Exchange, next *engine.Exchange) []Finding

// Lint calls f.
func (f LintFunc) Lint(history []engine.Exchange, next *engine.Exchange) []Finding {
	return f(history, next)
}

// rejection returns the first finding the provider would reject, or nil.
func rejection(findings []Finding) *Finding {
	for i := range findings {
		if findings[i].Severity == "error" {
			return &findings[i]
		}
	}
	return nil
}

// errorBody builds an error response body in the wire's own envelope.
func errorBody(wire engine.Wire, status int, message string) []byte {
	return providers.ErrorBody(wire, status, message)
}
