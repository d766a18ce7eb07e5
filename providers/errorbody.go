package providers

import (
	"net/http"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// ErrorBody builds an error response body in the wire's own envelope, so an
// SDK parses it and shows the message as it would a real provider error.
// Wires llmtck does not know get Anthropic's envelope.
func ErrorBody(wire traffic.Wire, status int, message string) []byte {
	var inner rawjson.Object
	switch wire {
	case traffic.WireGemini:
		inner.Int("code", status)
		inner.String("message", message)
		inner.String("status", googleStatus(status))
		var o rawjson.Object
		o.Raw("error", inner.Bytes())
		return o.Bytes()
	case traffic.WireBedrock:
		// Bedrock names the exception in the x-amzn-ErrorType header (see
		// BedrockErrorType); the body holds the message only.
		var o rawjson.Object
		o.String("message", message)
		return o.Bytes()
	case traffic.WireOpenAI, traffic.WireResponses:
		inner.String("message", message)
		inner.String("type", "invalid_request_error") // OpenAI's type for 400 and 404 alike
		inner.Raw("param", []byte("null"))
		inner.Raw("code", []byte("null"))
		var o rawjson.Object
		o.Raw("error", inner.Bytes())
		return o.Bytes()
	}
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

// BedrockErrorType is the x-amzn-ErrorType header Bedrock sends with an
// error body of the given status.
func BedrockErrorType(status int) string {
	name := "ValidationException"
	switch status {
	case http.StatusForbidden:
		name = "AccessDeniedException"
	case http.StatusNotFound:
		name = "ResourceNotFoundException"
	case http.StatusTooManyRequests:
		name = "ThrottlingException"
	case http.StatusInternalServerError:
		name = "InternalServerException"
	}
	return name + ":http://internal.amazon.com/coral/com.amazon.bedrock/"
}
