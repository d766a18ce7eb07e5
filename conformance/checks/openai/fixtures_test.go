package openai_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks/openai"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

const (
	srcChatToolOutput    = "pydantic__pydantic-ai/tests__models__cassettes__test_openai__test_openai_tool_output.yaml"
	srcChatClientHistory = "traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__test_chat__test_chat_tool_calls.yaml"
	srcChatAgentArgs     = "tmc__langchaingo/agents__testdata__TestExecutorWithOpenAIFunctionAgent.httprr"
)

// srcChatStream is cagent's multi-agent session, streamed.
const srcChatStream = "docker__cagent/e2e__testdata__cassettes__TestRuntime_MultiAgent_SessionReload.yaml"

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, openai.Checks(), slices.Concat(fixtures, compatFixtures, deepseekFixtures))
}

var fixtures = []checktest.Fixture{
	// Chat Completions.
	checktest.Fixture{Check: "OAI-TOOL-001", Name: "real-tool-round-trip", Pass: true, Source: srcChatToolOutput},
	checktest.Fixture{Check: "OAI-TOOL-001", Name: "real-client-authored-history", Pass: true, Source: srcChatClientHistory},
	checktest.Fixture{Check: "OAI-TOOL-001", Name: "tool-message-dropped", Interaction: 1, Source: srcChatToolOutput,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "messages.2") }},

	checktest.Fixture{Check: "OAI-TOOL-002", Name: "real-multi-agent-streams", Pass: true, Source: srcChatStream},
	checktest.Fixture{Check: "OAI-TOOL-002", Name: "assistant-tool-calls-dropped", Interaction: 1, Source: srcChatToolOutput,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "messages.1") }},

	checktest.Fixture{Check: "OAI-TOOL-003", Name: "real-tool-round-trip", Pass: true, Source: srcChatToolOutput},
	checktest.Fixture{Check: "OAI-TOOL-003", Name: "real-multi-agent-streams", Pass: true, Source: srcChatStream},
	// langchaingo's agent really sends back a different arguments string
	// than the model produced; no mutation needed.
	checktest.Fixture{Check: "OAI-TOOL-003", Name: "real-agent-rewrites-arguments", Interaction: 2, Source: srcChatAgentArgs},
	checktest.Fixture{Check: "OAI-TOOL-003", Name: "arguments-reserialised", Interaction: 2, Source: srcChatStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 2, "request", `"arguments":"{\"agent\":\"weather\",`, `"arguments":"{\"agent\": \"weather\", `)
		}},

	checktest.Fixture{Check: "OAI-TOOL-004", Name: "real-tool-round-trip", Pass: true, Source: srcChatToolOutput},
	checktest.Fixture{Check: "OAI-TOOL-004", Name: "empty-tool-message", Interaction: 1, Source: srcChatToolOutput,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "messages.2.content", `""`) }},
	checktest.Fixture{Check: "OAI-TOOL-004", Name: "call-from-cut-stream-answered-as-done", Interaction: 2, Source: srcChatStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.TruncateAt(t, c, 0, "data: [DONE]") }},

	// DeepSeek and Moonshot traffic is not in the corpus: hand-built.
	checktest.Fixture{Check: "OAI-COMPAT-001", Name: "handbuilt-deepseek-reasoning-echoed", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return deepSeekToolLoop(t, true) }},
	checktest.Fixture{Check: "OAI-COMPAT-001", Name: "real-groq-reasoning-not-required", Pass: true, Source: srcGroqToolRetry},
	checktest.Fixture{Check: "OAI-COMPAT-001", Name: "handbuilt-deepseek-reasoning-dropped", Interaction: 1,
		Build: func(t *testing.T) *cassette.Cassette { return deepSeekToolLoop(t, false) }},
}

const srcGroqToolRetry = "pydantic__pydantic-ai/tests__models__cassettes__test_groq__test_tool_use_failed_error.yaml"

// deepSeekToolLoop builds a DeepSeek thinking-mode tool loop: the first
// response carries reasoning_content with a tool call, the second request
// echoes the assistant message with (echo) or without it, as OpenAI-shaped
// clients that drop unknown fields do.
func deepSeekToolLoop(t *testing.T, echo bool) *cassette.Cassette {
	t.Helper()
	const (
		url      = "https://api.deepseek.com/chat/completions"
		user     = `{"role":"user","content":"What is the weather in Hangzhou tomorrow?"}`
		tools    = `[{"type":"function","function":{"name":"get_weather","description":"Weather for a city and date","parameters":{"type":"object","properties":{"city":{"type":"string"},"date":{"type":"string"}},"required":["city","date"]}}}]`
		call     = `{"id":"call_00_hZ3d8Qx1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Hangzhou\",\"date\":\"2025-12-02\"}"}}`
		thinking = `"The user wants tomorrow's weather in Hangzhou. I need the date first, then call get_weather."`
	)
	assistant := `{"role":"assistant","content":"","reasoning_content":` + thinking + `,"tool_calls":[` + call + `]}`
	echoed := assistant
	if !echo {
		echoed = `{"role":"assistant","content":"","tool_calls":[` + call + `]}`
	}
	req0 := `{"model":"deepseek-chat","thinking":{"type":"enabled"},"messages":[` + user + `],"tools":` + tools + `}`
	resp0 := `{"id":"5b1f4c0e-7c1a-4a53-9a36-2f0d6f5e8a11","object":"chat.completion","created":1764633600,"model":"deepseek-chat","choices":[{"index":0,"message":` + assistant + `,"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":312,"completion_tokens":58,"total_tokens":370,"completion_tokens_details":{"reasoning_tokens":31}}}`
	req1 := `{"model":"deepseek-chat","thinking":{"type":"enabled"},"messages":[` + user + `,` + echoed + `,{"role":"tool","tool_call_id":"call_00_hZ3d8Qx1","content":"Cloudy, 7~13°C"}],"tools":` + tools + `}`
	resp1 := `{"id":"0d0e7a7e-0f7b-4d1e-a4f1-6c3f2d9b1a22","object":"chat.completion","created":1764633602,"model":"deepseek-chat","choices":[{"index":0,"message":{"role":"assistant","content":"Tomorrow in Hangzhou: cloudy, 7–13°C.","reasoning_content":"I have the forecast; answer briefly."},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":401,"completion_tokens":24,"total_tokens":425}}`
	for _, doc := range []string{req0, resp0, req1, resp1} {
		if !json.Valid([]byte(doc)) {
			t.Fatalf("hand-built body is not JSON: %s", doc)
		}
	}
	if !echo && bytes.Contains([]byte(req1), []byte("reasoning_content")) {
		t.Fatal("the failing variant must not echo reasoning_content")
	}
	exchange := func(req, resp string) *cassette.Interaction {
		return &cassette.Interaction{
			Request: cassette.Request{Method: http.MethodPost, URL: url,
				Header: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer [REDACTED]"}}, Body: []byte(req)},
			Response: cassette.Response{Status: 200, StatusText: "200 OK",
				Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(resp)},
		}
	}
	return &cassette.Cassette{Interactions: []*cassette.Interaction{exchange(req0, resp0), exchange(req1, resp1)}}
}
