package proxy

import (
	"net/http"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/rawjson"
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

// errorBody builds an error response body in the wire's own envelope, so an
// SDK parses it and shows the message as it would a real provider error.
func errorBody(wire engine.Wire, status int, message string) []byte {
	var inner rawjson.Object
	switch wire {
	case engine.WireGemini:
		inner.Int("code", status)
		inner.String("message", message)
		inner.String("status", googleStatus(status))
		var o rawjson.Object
		o.Raw("error", inner.Bytes())
		return o.Bytes()
	case engine.WireOpenAI, engine.WireResponses:
		inner.String("message", message)
		inner.String("type", "invalid_request_error") // OpenAI's type for 400 and 404 alike
		inner.Raw("param", []byte("null"))
		inner.Raw("code", []byte("null"))
		var o rawjson.Object
		o.Raw("error", inner.Bytes())
		return o.Bytes()
	}
	// Anthropic's envelope, also used for wires llmtck does not know.
	inner.String("type", anthropicType(status))
	inner.String("message", message)
	var o rawjson.Object
	o.String("type", "error")
	o.Raw("error", inner.Bytes())
	return o.Bytes()
}

func googleStatus(status int) string {
	switch status {
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	}
	return "INVALID_ARGUMENT"
}

// anthropicType names an error status as Anthropic does.
func anthropicType(status int) string {
	switch status {
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	}
	return "invalid_request_error"
}
