package stream

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// The stream checks relay what the codecs found while reassembling a stream
// (traffic.StreamIssue), so grammar rules live next to the reassembly code and
// the catalogue stays the one place that names and explains them.
var checks = []*check.Check{
	declare(&check.Check{
		ID: traffic.CheckAnthropicStream, Title: "Anthropic stream event grammar", Wire: traffic.WireAnthropic,
		Law:          "A stream is message_start, then (content_block_start, content_block_delta*, content_block_stop)*, message_delta and message_stop; ping may appear anywhere and error ends the stream.",
		Troubleshoot: "A stream that stops before message_stop was cut off (client cancel, network, proxy timeout): its message is partial and must not be persisted as if complete. Events after message_stop or a missing message_start mean the body was spliced or rewritten by something between the provider and the recorder.",
	}),
	declare(&check.Check{
		ID: traffic.CheckAnthropicBlockIndex, Title: "Anthropic block indices", Wire: traffic.WireAnthropic,
		Law:          "content_block_start indices run 0, 1, 2… without gaps, and every delta or stop names a block that was started and not yet stopped.",
		Troubleshoot: "An accumulator keyed on the index silently drops or misplaces text when indices skip or repeat. Look for a proxy that filters events (for example removing thinking blocks) without renumbering, or for two streams interleaved in one body.",
	}),
	declare(&check.Check{
		ID: traffic.CheckAnthropicDeltaType, Title: "Anthropic delta types", Wire: traffic.WireAnthropic,
		Law:          "Each delta's type is allowed for its block's type, and signature_delta arrives only on a thinking block, before its content_block_stop.",
		Troubleshoot: "A thinking block whose signature_delta is missing or misplaced cannot be echoed: the next request fails with a signature error. Check the stream was not re-framed by a gateway that converts between providers.",
	}),
	declare(&check.Check{
		ID: traffic.CheckAnthropicToolInput, Title: "Anthropic tool input JSON", Wire: traffic.WireAnthropic,
		Law:          "The concatenated partial_json of a tool_use block parses to a JSON object at content_block_stop.",
		Troubleshoot: "Invalid tool input usually means the stream was cut inside the block (max_tokens, cancel) or fragments were reordered. Never execute a tool call whose input did not parse.",
	}),
	declare(&check.Check{
		ID: traffic.CheckChatStream, Title: "Chat Completions stream grammar", Wire: traffic.WireOpenAI,
		Law:          "Tool-call fragments are grouped by index with id and name in the first fragment, the arguments concatenate to the final string, and the stream ends with data: [DONE] (kept as JSON lines of chunks, with every choice's finish_reason).",
		Troubleshoot: "A stream without [DONE] was cut off; its tool-call arguments may be incomplete JSON and must not be executed. Fragments without an index, or a name that changes within one index, come from gateways that re-chunk the stream.",
	}),
	declare(&check.Check{
		ID: traffic.CheckResponsesStream, Title: "Responses stream grammar", Wire: traffic.WireResponses,
		Law:          "sequence_number strictly increases, every output item is added before it is done and done before the stream ends, and the stream ends with response.completed, response.incomplete or response.failed.",
		Troubleshoot: "Take output items from response.output_item.done: the copy in .added lacks encrypted_content. A stream that ends without a terminal event was cut off, and items that were only added must not be echoed.",
	}),
	declare(&check.Check{
		ID: traffic.CheckGeminiStream, Title: "Gemini stream grammar", Wire: traffic.WireGemini,
		Law:          "Every chunk is a GenerateContentResponse, the last chunk carries finishReason, and nothing follows it.",
		Troubleshoot: "A stream without a finishReason was cut off; go-genai's chat drops such a turn together with its user input. Keep trailing parts that carry only a thoughtSignature: they belong to the turn.",
	}),
	declare(&check.Check{
		ID: traffic.CheckBedrockStream, Title: "Bedrock ConverseStream grammar", Wire: traffic.WireBedrock,
		Law:          "An AWS event stream whose frames decode (lengths and both CRCs), holding messageStart, then per content block its deltas (contentBlockStart first for a toolUse) and contentBlockStop, then messageStop and metadata; an exception frame ends it.",
		Troubleshoot: "A frame that fails its CRC or stops short means the body was cut or rewritten between Bedrock and the recorder (a proxy that decoded it as text, a logger that truncated it). A stream without messageStop was cut off: its toolUse input may be incomplete JSON and its reasoning unsigned, so it must not be persisted as a finished turn.",
	}),
}

// terminalCheck names, per wire, the grammar check that owns "ended early".
var terminalCheck = map[traffic.Wire]string{
	traffic.WireAnthropic: traffic.CheckAnthropicStream,
	traffic.WireOpenAI:    traffic.CheckChatStream,
	traffic.WireResponses: traffic.CheckResponsesStream,
	traffic.WireGemini:    traffic.CheckGeminiStream,
	traffic.WireBedrock:   traffic.CheckBedrockStream,
}

// sources cite what each grammar is held to: the provider's SDK,
// which fails on a stream that breaks it, whoever served the stream.
var sources = map[string][]string{
	traffic.CheckAnthropicStream:     {"anthropic-sdk-go packages/ssestream and Message.Accumulate", "docs/provider-rules.md §1.4"},
	traffic.CheckAnthropicBlockIndex: {"anthropic-sdk-go messageutil.go (indices 0, 1, 2… without gaps)", "docs/provider-rules.md §1.4"},
	traffic.CheckAnthropicDeltaType:  {"anthropic-sdk-go Message.Accumulate (delta types per block type)", "docs/provider-rules.md §1.4"},
	traffic.CheckAnthropicToolInput:  {"anthropic-sdk-go Message.Accumulate (partial_json parsed at content_block_stop)", "docs/provider-rules.md §1.4"},
	traffic.CheckChatStream:          {"openai-go ChatCompletionAccumulator", "docs/provider-rules.md §2.3"},
	traffic.CheckResponsesStream:     {"openai-go Responses streaming events", "docs/provider-rules.md §3.2"},
	traffic.CheckGeminiStream:        {"go-genai chats.go (a turn without finishReason is dropped)", "docs/provider-rules.md §4.3"},
	traffic.CheckBedrockStream:       {"aws-sdk-go-v2 aws/protocol/eventstream (frame CRCs)", "Bedrock ConverseStream API reference (event order)"},
}

func declare(c *check.Check) *check.Check {
	c.Severity, c.Scope, c.Since = check.SeverityError, "S", "0.1.0"
	c.Evidence = check.Evidence{Sources: sources[c.ID]}
	c.Judge = func(tr *check.Traffic, r *check.Reporter) {
		for i := tr.From; i < len(tr.Exchanges); i++ {
			ex := &tr.Exchanges[i]
			if ex.Wire != c.Wire || ex.Response == nil || ex.Response.Stream == nil {
				continue
			}
			st := ex.Response.Stream
			reported := false
			for _, is := range st.Issues {
				if is.Check == c.ID {
					msg := strings.TrimPrefix(is.Message, fmt.Sprintf("event %d: ", is.Event))
					sev := check.SeverityError
					if is.Truncation || is.Tolerated { // a cut, or a departure the SDK reads past
						sev = check.SeverityWarning
					}
					r.AddSeverity(sev, ex.Index, fmt.Sprintf("response.events[%d]", is.Event), "%s", msg)
					reported = true
				}
			}
			if st.Truncated && !reported && terminalCheck[ex.Wire] == c.ID {
				r.AddSeverity(check.SeverityWarning, ex.Index, fmt.Sprintf("response.events[%d]", st.Events), "stream ended after %d events without its terminal event (truncated)", st.Events)
			}
		}
	}
	return c
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return slices.Clone(checks) }
