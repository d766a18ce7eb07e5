package scenario

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// FaultKind names a provider failure a step can be served with before its
// answer. docs/faults.md gives each one's status, headers and body with
// the evidence for them.
type FaultKind string

// The provider failures a scenario can script.
const (
	// FaultRateLimit is HTTP 429 with retry-after and the provider's
	// rate-limit headers.
	FaultRateLimit FaultKind = "rate_limit"
	// FaultOverloaded is Anthropic's 529 overloaded_error, 503 elsewhere.
	FaultOverloaded FaultKind = "overloaded"
	// FaultServerError is HTTP 500.
	FaultServerError FaultKind = "server_error"
	// FaultStreamError is an error in the middle of a stream after After
	// events: Anthropic's event: error, Responses' response.failed, a Chat
	// Completions error chunk, a Gemini error chunk, a Bedrock exception
	// event. A request that did not stream gets the overloaded answer.
	FaultStreamError FaultKind = "stream_error"
	// FaultDropped cuts the connection after After parts of the answer.
	FaultDropped FaultKind = "dropped"
)

// FaultKinds lists every kind, in the order the generator draws them.
var FaultKinds = []FaultKind{FaultRateLimit, FaultOverloaded, FaultServerError, FaultStreamError, FaultDropped}

// ProviderFault is one failed attempt at a step: the simulator serves it
// instead of the step's answer, and a harness that retries gets the same
// step again (the next fault, or the answer once none is left).
type ProviderFault struct {
	Kind FaultKind `json:"kind"`
	// After is how many parts of the answer go out before a stream error
	// or a dropped connection; 0 means half of them.
	After int `json:"after,omitempty"`
	// RetryAfterMS is the wait a rate limit or overload asks for, in
	// milliseconds (retry-after-ms, and retry-after rounded up to seconds);
	// 0 sends no retry header.
	RetryAfterMS int `json:"retry_after_ms,omitempty"`
}

// Retryable reports whether a correct harness retries the call; every kind
// scripted so far is.
func (f ProviderFault) Retryable() bool { return true }

func (f ProviderFault) check() error {
	switch f.Kind {
	case FaultRateLimit, FaultOverloaded, FaultServerError, FaultStreamError, FaultDropped:
	default:
		return fmt.Errorf("kind: want one of %v, got %q", FaultKinds, f.Kind)
	}
	if f.After < 0 || f.RetryAfterMS < 0 {
		return fmt.Errorf("after and retry_after_ms: want counts, got %d and %d", f.After, f.RetryAfterMS)
	}
	if f.RetryAfterMS > 60_000 {
		return fmt.Errorf("retry_after_ms: at most 60000, got %d", f.RetryAfterMS)
	}
	return nil
}

// FaultAnswer is what the simulator sends for a fault: a status, headers,
// and the body's parts. Drop says to cut the connection after the parts.
type FaultAnswer struct {
	Status      int
	Header      http.Header
	ContentType string
	Parts       [][]byte
	Drop        bool
}

// FaultAnswer renders fault f of step n as the response to req: answer
// holds what the step would have been, rendered (its parts), which a
// stream error or dropped connection cuts short.
func (s *Scenario) FaultAnswer(f ProviderFault, n int, answer [][]byte, contentType string, stream bool) FaultAnswer {
	w := s.Steps[n].Wire
	kind := f.Kind
	if kind == FaultStreamError && !stream {
		kind = FaultOverloaded // a call that does not stream fails whole
	}
	cut := func() int {
		k := f.After
		if k == 0 {
			k = len(answer) / 2
		}
		return max(0, min(k, len(answer)-1))
	}
	switch kind {
	case FaultDropped:
		if !stream && len(answer) == 1 { // cut the JSON body in half
			body := answer[0]
			return FaultAnswer{Status: http.StatusOK, Header: http.Header{}, ContentType: contentType, Parts: [][]byte{body[:len(body)/2]}, Drop: true}
		}
		return FaultAnswer{Status: http.StatusOK, Header: http.Header{}, ContentType: contentType, Parts: answer[:cut()], Drop: true}
	case FaultStreamError:
		parts := append(append([][]byte(nil), answer[:cut()]...), streamError(w, len(answer[:cut()])))
		fa := FaultAnswer{Status: http.StatusOK, Header: http.Header{}, ContentType: contentType, Parts: parts}
		fa.Drop = w == traffic.WireOpenAI // the Chat stream ends with no [DONE]
		return fa
	}
	status, body, h := statusFault(w, kind, s.Steps[n].Model)
	if f.RetryAfterMS > 0 {
		h.Set("Retry-After-Ms", strconv.Itoa(f.RetryAfterMS))
		h.Set("Retry-After", strconv.Itoa((f.RetryAfterMS+999)/1000))
	}
	return FaultAnswer{Status: status, Header: h, ContentType: "application/json", Parts: [][]byte{body}}
}

// statusFault is the status, body and headers wire w answers a failed
// call of kind with.
func statusFault(w traffic.Wire, kind FaultKind, model string) (int, []byte, http.Header) {
	h := http.Header{}
	switch w {
	case traffic.WireAnthropic:
		typ, msg, status := "api_error", "Internal server error", http.StatusInternalServerError
		switch kind {
		case FaultRateLimit:
			typ, status = "rate_limit_error", http.StatusTooManyRequests
			msg = "This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."
			h.Set("Anthropic-Ratelimit-Requests-Limit", "50")
			h.Set("Anthropic-Ratelimit-Requests-Remaining", "0")
			h.Set("Anthropic-Ratelimit-Requests-Reset", "2026-01-01T00:00:01Z")
			h.Set("Anthropic-Ratelimit-Input-Tokens-Limit", "30000")
			h.Set("Anthropic-Ratelimit-Input-Tokens-Remaining", "0")
		case FaultOverloaded:
			typ, msg, status = "overloaded_error", "Overloaded", 529
		}
		h.Set("X-Should-Retry", "true")
		var inner, o rawjson.Object
		inner.String("type", typ)
		inner.String("message", msg)
		o.String("type", "error")
		o.Raw("error", inner.Bytes())
		o.String("request_id", "req_011CSimFault")
		return status, o.Bytes(), h
	case traffic.WireOpenAI, traffic.WireResponses:
		var inner, o rawjson.Object
		status := http.StatusInternalServerError
		switch kind {
		case FaultRateLimit:
			status = http.StatusTooManyRequests
			inner.String("message", "Rate limit reached for "+model+" in organization org-llmtcksim on tokens per min (TPM): Limit 30000, Used 29800, Requested 1200. Please try again in 2.4s. Visit https://platform.openai.com/account/rate-limits to learn more.")
			inner.String("type", "tokens")
			inner.Raw("param", []byte("null"))
			inner.String("code", "rate_limit_exceeded")
			h.Set("X-Ratelimit-Limit-Requests", "500")
			h.Set("X-Ratelimit-Remaining-Requests", "499")
			h.Set("X-Ratelimit-Reset-Requests", "120ms")
			h.Set("X-Ratelimit-Limit-Tokens", "30000")
			h.Set("X-Ratelimit-Remaining-Tokens", "0")
			h.Set("X-Ratelimit-Reset-Tokens", "2.4s")
		case FaultOverloaded:
			status = http.StatusServiceUnavailable
			inner.String("message", "The server is overloaded or not ready yet.")
			inner.String("type", "server_error")
			inner.Raw("param", []byte("null"))
			inner.Raw("code", []byte("null"))
		default:
			inner.String("message", "The server had an error while processing your request. Sorry about that!")
			inner.String("type", "server_error")
			inner.Raw("param", []byte("null"))
			inner.Raw("code", []byte("null"))
		}
		h.Set("X-Should-Retry", "true")
		o.Raw("error", inner.Bytes())
		return status, o.Bytes(), h
	case traffic.WireGemini:
		status, msg, code := http.StatusInternalServerError, "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting", "INTERNAL"
		switch kind {
		case FaultRateLimit:
			status, msg, code = http.StatusTooManyRequests, "Resource has been exhausted (e.g. check quota).", "RESOURCE_EXHAUSTED"
		case FaultOverloaded:
			status, msg, code = http.StatusServiceUnavailable, "The model is overloaded. Please try again later.", "UNAVAILABLE"
		}
		return status, gemError(status, msg, code), h
	}
	// Bedrock names the exception in a header; the body holds the message.
	status, name, msg := http.StatusInternalServerError, "InternalServerException", "The system encountered an unexpected error during processing. Try your request again."
	switch kind {
	case FaultRateLimit:
		status, name, msg = http.StatusTooManyRequests, "ThrottlingException", "Too many requests, please wait before trying again."
	case FaultOverloaded:
		status, name, msg = http.StatusServiceUnavailable, "ServiceUnavailableException", "Bedrock is unable to process your request."
	}
	h.Set("X-Amzn-Errortype", name+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	var o rawjson.Object
	o.String("message", msg)
	return status, o.Bytes(), h
}

func gemError(status int, msg, code string) []byte {
	var inner, o rawjson.Object
	inner.Int("code", status)
	inner.String("message", msg)
	inner.String("status", code)
	o.Raw("error", inner.Bytes())
	return o.Bytes()
}

// streamError is the event wire w ends a failed stream with; seq is the
// number of events sent before it.
func streamError(w traffic.Wire, seq int) []byte {
	switch w {
	case traffic.WireAnthropic:
		return sse.Write(nil, "error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSimFault"}`)
	case traffic.WireResponses:
		var o, resp rawjson.Object
		resp.String("id", "resp_llmtcksimfailed")
		resp.String("object", "response")
		resp.String("status", "failed")
		resp.Raw("error", []byte(`{"code":"server_error","message":"An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists."}`))
		resp.Raw("output", []byte("[]"))
		o.String("type", "response.failed")
		o.Int("sequence_number", seq)
		o.Raw("response", resp.Bytes())
		return sse.Write(nil, "response.failed", string(o.Bytes()))
	case traffic.WireOpenAI:
		return sse.Write(nil, "", `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`)
	case traffic.WireGemini:
		return sse.Write(nil, "", string(gemError(http.StatusServiceUnavailable, "The model is overloaded. Please try again later.", "UNAVAILABLE")))
	}
	b, _ := eventstream.Append(nil, eventstream.Message{Headers: []eventstream.Header{
		{Name: ":exception-type", Type: eventstream.TypeString, Value: "serviceUnavailableException"},
		{Name: ":content-type", Type: eventstream.TypeString, Value: "application/json"},
		{Name: ":message-type", Type: eventstream.TypeString, Value: "exception"},
	}, Payload: []byte(`{"message":"Bedrock is unable to process your request."}`)})
	return b
}
