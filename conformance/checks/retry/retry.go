// Package retry holds the RETRY checks: what a harness does when a
// provider call fails and it tries again (rate limits, overloads, errors
// in the middle of a stream, dropped connections).
package retry

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// Headers the simulator adds to the requests it records, so the checks can
// judge from the recording what happened between two calls.
const (
	// ToolRunsHeader holds one value per tool execution since the previous
	// request: the tool's name, a space, its arguments (CompactArgs).
	ToolRunsHeader = "X-Llmtck-Tool-Runs"
	// RetryGapHeader is, on the retry of a failed call that asked for a
	// wait, the milliseconds between the failed answer and the retry.
	RetryGapHeader = "X-Llmtck-Retry-Gap-Ms"
)

// sources are the public record every RETRY check cites; docs/faults.md
// gives each fault's status, headers and body with its evidence.
var sources = []string{
	"docs/faults.md",
	"https://docs.claude.com/en/api/errors",
	"https://github.com/anthropics/anthropic-sdk-go (retries 408, 409, 429, 5xx; honours retry-after-ms and retry-after)",
	"https://github.com/openai/openai-go (retries 408, 409, 429, 5xx; honours retry-after-ms and retry-after)",
}

// Checks returns the family's checks.
func Checks() []*check.Check {
	return []*check.Check{
		{
			ID: "RETRY-001", Title: "A retry carries nothing of the failed attempt", Severity: check.SeverityWarning,
			Scope: "C", Since: "0.3.0",
			Law: "The request after a failed call (an error status, or an error event in its stream) carries nothing that call's answer produced: no partial text, no half tool call, no thinking it streamed before it failed.",
			Troubleshoot: "A failed answer is not part of the conversation: the provider will answer the retry afresh. A harness that keeps what the failed stream had sent shows the model a half answer as its own, and the model continues from it or repeats it. " +
				"Typical causes: the streaming loop appends deltas to the transcript as they arrive and does not roll them back on an error event; the retry wrapper sits above the history instead of around the HTTP call. " +
				"Fix: assemble a streamed answer apart and commit it to the history only once the stream ends cleanly; retry with the request as it was.",
			Evidence: check.Evidence{Sources: sources},
			Judge:    judgeCarried,
			Applies:  hasFailure,
		},
		{
			ID: "RETRY-002", Title: "A tool call runs once however often its step is retried", Severity: check.SeverityWarning,
			Scope: "C", Since: "0.3.0",
			Law: "Each tool call the provider made runs once: a retried call that fails after the tools ran, or a step answered again, does not run them again.",
			Troubleshoot: "Tools have side effects (a payment, a deploy, a message sent): running one twice because the next model call was retried does the thing twice. " +
				"Typical causes: the retry wraps the whole loop iteration (tools, then the call) instead of the call alone; tools run as soon as their call streams in, and again when the retried stream brings the same call. " +
				"Fix: retry the HTTP call alone, and key executions by tool call id so a call seen again is not run again.",
			Evidence: check.Evidence{Sources: sources},
			Judge:    judgeRuns,
			Applies:  func(tr *check.Traffic) bool { return hasHeader(tr, ToolRunsHeader) },
		},
		{
			ID: "RETRY-003", Title: "A retry waits at least retry-after", Severity: check.SeverityWarning,
			Scope: "C", Since: "0.3.0",
			Law: "After a failed call whose answer asks for a wait (retry-after-ms, or retry-after in seconds), the retry comes no sooner than that.",
			Troubleshoot: "The provider says how long the limit lasts; a retry before then is refused again and counts against the limit, so an impatient client stays throttled longer. " +
				"Typical causes: a fixed or exponential backoff that never reads the answer's headers; a retry wrapper that sees only the error, not the response. " +
				"Fix: wait what retry-after-ms says, else retry-after (seconds or an HTTP date), and fall back to backoff only when neither is there, as the official SDKs do.",
			Evidence: check.Evidence{Sources: sources},
			Judge:    judgeWait,
			Applies:  func(tr *check.Traffic) bool { return hasHeader(tr, RetryGapHeader) },
		},
	}
}

// failed reports a call whose answer failed: an error status, or an error
// inside an accepted stream. A stream the user stopped is not one.
func failed(ex *traffic.Exchange) bool {
	return ex.Request != nil && (ex.Status >= 400 || ex.Response != nil && ex.Response.Error != nil)
}

func hasFailure(tr *check.Traffic) bool {
	for i := tr.From; i < len(tr.Exchanges); i++ {
		if failed(&tr.Exchanges[i]) {
			return true
		}
	}
	return false
}

func hasHeader(tr *check.Traffic, name string) bool {
	for i := tr.From; i < len(tr.Exchanges); i++ {
		if tr.Exchanges[i].RequestHeader.Get(name) != "" {
			return true
		}
	}
	return false
}

// Wait is what a failed answer's headers ask a retry to wait:
// retry-after-ms, else retry-after in seconds.
func Wait(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	if sec, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && sec > 0 {
		return time.Duration(sec * float64(time.Second))
	}
	return 0
}

// CompactArgs is a tool call's arguments with the keys sorted and no
// whitespace, for comparing calls only: what is sent is never re-encoded.
// Chat Completions' arguments, a JSON string, are read inside it.
func CompactArgs(input json.RawMessage) string {
	if s, err := strconv.Unquote(string(bytes.TrimSpace(input))); err == nil {
		input = json.RawMessage(s)
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(bytes.TrimSpace(input))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(input)
	}
	return string(bytes.TrimSpace(buf.Bytes()))
}
