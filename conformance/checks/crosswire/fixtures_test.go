package crosswire_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks/crosswire"

	"github.com/tidwall/gjson"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

// The recordings the family's fixtures are made from, shared with the
// wire families' fixtures.
const (
	srcResponsesTools      = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
	srcGemSigStream        = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml"
	srcAntHTTPRR           = "tmc__langchaingo/llms__anthropic__internal__anthropicclient__testdata__TestClient_CreateMessageStream.httprr"
	srcAnthropicToolStream = "docker__cagent/e2e__testdata__cassettes__TestExec_Anthropic_ToolCall.yaml"
)

const srcAnthropicRoundTrip = "pydantic__pydantic-ai/tests__cassettes__test_cache_prefix_stability__test_anthropic_thinking_roundtrip_wire_stable[vercel].yaml"

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, crosswire.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	checktest.Fixture{Check: "XP-RAW-001", Name: "real-anthropic-signatures-byte-exact", Pass: true, Source: srcAnthropicRoundTrip},
	checktest.Fixture{Check: "XP-RAW-001", Name: "real-encrypted-content-byte-exact", Pass: true, Source: srcResponsesTools},
	// pydantic-ai really echoes Gemini signatures in URL-safe base64.
	checktest.Fixture{Check: "XP-RAW-001", Name: "real-gemini-signature-url-safe", Interaction: 1, Source: srcGemSigStream},
	checktest.Fixture{Check: "XP-RAW-001", Name: "encrypted-content-unicode-escaped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { escapeDash(t, c, 1, "input.1.encrypted_content") }},

	// The credentials below are made up, with the shapes of real ones.
	checktest.Fixture{Check: "XP-SECRET-001", Name: "real-placeholder-api-key", Pass: true, Source: srcAntHTTPRR},
	checktest.Fixture{Check: "XP-SECRET-001", Name: "real-no-credentials", Pass: true, Source: srcGemSigStream},
	checktest.Fixture{Check: "XP-SECRET-001", Name: "real-encrypted-content", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "XP-SECRET-001", Name: "live-looking-api-key", Interaction: 0, Source: srcAntHTTPRR,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[0].Request.Header.Set("X-Api-Key", "sk-ant-api03-Q7mZ2xLp9VbN4kR8sT1wY6uJ3hG5fD0a")
		}},
	checktest.Fixture{Check: "XP-SECRET-001", Name: "api-key-header-kept", Interaction: 0, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[0].Request.Header.Set("X-Goog-Api-Key", "gk-9fQ2mX7vL4pR8sT1wB6nY3cH")
		}},
	checktest.Fixture{Check: "XP-SECRET-001", Name: "key-query-kept", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[1].Request.URL += "&key=gk-9fQ2mX7vL4pR8sT1wB6nY3cH"
		}},
	checktest.Fixture{Check: "XP-SECRET-001", Name: "key-pasted-in-prompt", Interaction: 0, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 0, "input.0.content", `"my key is sk-proj-Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd1EfG3hIj5KlM7nOp9QrS1tUv3W, why 401?"`)
		}},

	checktest.Fixture{Check: "XP-DECODE-001", Name: "real-tool-stream", Pass: true, Source: srcAnthropicToolStream},
	// A form Google's JSON parser accepts (one part for the parts list)
	// decodes, with an info finding saying how it was read.
	checktest.Fixture{Check: "XP-DECODE-001", Name: "gemini-system-parts-one-object", Interaction: 1, Source: "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_model_retry.yaml",
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "systemInstruction.parts", `{"text":"You are a helpful chatbot."}`)
		}},
	checktest.Fixture{Check: "XP-DECODE-001", Name: "messages-not-a-list", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "messages", `{"role":"user"}`) }},
}

// escapeDash writes the first "-" of the JSON string at path as \u002d:
// the same value, other bytes, as some JSON encoders write it.
func escapeDash(t *testing.T, c *cassette.Cassette, i int, path string) {
	t.Helper()
	raw := gjson.GetBytes(*checktest.Body(t, c, i, "request"), path).Raw
	if !strings.Contains(raw, "-") {
		t.Fatalf("interaction %d: no '-' in %s", i, path)
	}
	checktest.SetJSON(t, c, i, path, strings.Replace(raw, "-", `\u002d`, 1))
}

// tornPair is two Anthropic calls of one conversation, whole.
func tornPair() *cassette.Cassette {
	header := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	call := func(req, resp string) *cassette.Interaction {
		return &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages",
				Header: header("Content-Type", "application/json", "Anthropic-Version", "2023-06-01"), Body: []byte(req)},
			Response: cassette.Response{Status: 200, Header: header("Content-Type", "application/json"), Body: []byte(resp)},
		}
	}
	return &cassette.Cassette{Interactions: []*cassette.Interaction{
		call(`{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`,
			`{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","usage":{"input_tokens":8,"output_tokens":3}}`),
		call(`{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"Hello."},{"role":"user","content":"`+strings.Repeat("tell me more ", 40)+`"}]}`,
			`{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"`+strings.Repeat("More. ", 60)+`"}],"stop_reason":"end_turn","usage":{"input_tokens":90,"output_tokens":120}}`),
	}}
}

// tornFile is tornPair as a recorder killed inside the second call's
// answer leaves it.
func tornFile(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := tornPair().Encode(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	return data[:bytes.LastIndex(data, []byte("More. More."))]
}

func init() {
	fixtures = append(fixtures,
		checktest.Fixture{Check: "XP-TORN-001", Name: "handbuilt-complete", Pass: true,
			Build: func(*testing.T) *cassette.Cassette { return tornPair() }},
		checktest.Fixture{Check: "XP-TORN-001", Name: "handbuilt-cut-in-the-answer", Interaction: 0, Raw: tornFile},
	)
}
