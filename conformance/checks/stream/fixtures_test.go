package stream_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks/stream"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

const (
	srcAnthropicThinkingStream = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_model_thinking_part_stream.yaml"
	srcAnthropicToolStream     = "docker__cagent/e2e__testdata__cassettes__TestExec_Anthropic_ToolCall.yaml"
	srcChatStream              = "docker__cagent/e2e__testdata__cassettes__TestRuntime_MultiAgent_SessionReload.yaml"
	srcResponsesStream         = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_phase_streamed_on_part_start.yaml"
	srcGeminiStream            = "docker__cagent/e2e__testdata__cassettes__TestExec_Gemini_ToolCall.yaml"
)

// Claude 3.7 Sonnet's ConverseStream with reasoning, an AWS event stream.
const srcBdrStream = "wave2/pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_model_thinking_part_stream.yaml"

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, stream.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	checktest.Fixture{Check: "ANT-STREAM-001", Name: "real-thinking-stream", Pass: true, Source: srcAnthropicThinkingStream},
	checktest.Fixture{Check: "ANT-STREAM-001", Name: "cut-before-message-stop", Interaction: 0, Source: srcAnthropicThinkingStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.TruncateAt(t, c, 0, "event: message_stop") }},

	checktest.Fixture{Check: "ANT-STREAM-002", Name: "real-tool-stream", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-STREAM-002", Name: "delta-for-unstarted-block", Interaction: 0, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 0, "response", `"index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}`, `"index":1,"delta":{"type":"input_json_delta","partial_json":"\"}"}`)
		}},

	checktest.Fixture{Check: "ANT-STREAM-003", Name: "real-thinking-stream", Pass: true, Source: srcAnthropicThinkingStream},
	checktest.Fixture{Check: "ANT-STREAM-003", Name: "text-delta-on-thinking-block", Interaction: 0, Source: srcAnthropicThinkingStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 0, "response", `{"type":"thinking_delta","thinking":" pedest"}`, `{"type":"text_delta","text":" pedest"}`)
		}},

	checktest.Fixture{Check: "ANT-STREAM-004", Name: "real-tool-stream", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-STREAM-004", Name: "tool-input-cut", Interaction: 0, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 0, "response", `"partial_json":"\"}"}`, `"partial_json":"\""}`)
		}},

	checktest.Fixture{Check: "OAI-STREAM-001", Name: "real-multi-agent-streams", Pass: true, Source: srcChatStream},
	checktest.Fixture{Check: "OAI-STREAM-001", Name: "no-done", Interaction: 0, Source: srcChatStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.TruncateAt(t, c, 0, "data: [DONE]") }},
	// Recorders that keep a stream as its chunks, one JSON object a line,
	// never stored the SSE framing, so data: [DONE] cannot be there: the
	// finish reasons say where the stream ended.
	checktest.Fixture{Check: "OAI-STREAM-001", Name: "chunks-as-json-lines", Pass: true, Source: srcChatStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { chunksAsJSONLines(t, c, 0, false) }},
	checktest.Fixture{Check: "OAI-STREAM-001", Name: "chunks-as-json-lines-cut", Interaction: 0, Source: srcChatStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { chunksAsJSONLines(t, c, 0, true) }},

	checktest.Fixture{Check: "OAI-STREAM-002", Name: "real-reasoning-stream", Pass: true, Source: srcResponsesStream},
	checktest.Fixture{Check: "OAI-STREAM-002", Name: "sequence-number-repeated", Interaction: 0, Source: srcResponsesStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 0, "response", `"output_index":1,"sequence_number":4}`, `"output_index":1,"sequence_number":3}`)
		}},

	checktest.Fixture{Check: "GEM-STREAM-001", Name: "real-function-call-stream", Pass: true, Source: srcGeminiStream},
	checktest.Fixture{Check: "GEM-STREAM-001", Name: "no-finish-reason", Interaction: 0, Source: srcGeminiStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 0, "response", `"finishReason": "STOP",`, ``)
		}},

	{Check: "BDR-STREAM-001", Name: "real-reasoning-stream", Pass: true, Source: srcBdrStream},
	{Check: "BDR-STREAM-001", Name: "cut-before-message-stop", Interaction: 0, Source: srcBdrStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.TruncateAt(t, c, 0, "messageStop") }},
}

// chunksAsJSONLines rewrites interaction i's SSE response as its chunks,
// one JSON object a line, as recorders that keep chunks store it; cut also
// drops the chunks from the first finish_reason on.
func chunksAsJSONLines(t *testing.T, c *cassette.Cassette, i int, cut bool) {
	t.Helper()
	body := checktest.Body(t, c, i, "response")
	var lines []string
	for _, l := range strings.Split(string(*body), "\n") {
		data, ok := strings.CutPrefix(l, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		if cut && strings.Contains(data, `"finish_reason":"`) {
			break
		}
		lines = append(lines, data)
	}
	if len(lines) < 2 {
		t.Fatalf("interaction %d: %d chunks", i, len(lines))
	}
	*body = []byte(strings.Join(lines, "\n") + "\n")
	c.Interactions[i].Response.Header.Set("Content-Type", "application/x-ndjson")
}
