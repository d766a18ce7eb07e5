package checks_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/rawjson"
)

const (
	srcChatToolOutput      = "pydantic__pydantic-ai/tests__models__cassettes__test_openai__test_openai_tool_output.yaml"
	srcChatClientHistory   = "traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__test_chat__test_chat_tool_calls.yaml"
	srcChatAgentArgs       = "tmc__langchaingo/agents__testdata__TestExecutorWithOpenAIFunctionAgent.httprr"
	srcResponsesTools      = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
	srcResponsesEdited     = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml"
	srcResponsesRejected   = "docker__cagent/e2e__testdata__cassettes__TestExec_ToolCallsNeedAcceptance.yaml"
	srcResponsesOtherModel = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_thinking_with_tool_calls_from_other_model.yaml"
)

// Real recordings of the wave2 set, relative to the corpus root.
const srcXAIResponses = "wave2/0xPlaygrounds__rig/tests__cassettes__xai__reasoning_tool_roundtrip__streaming.yaml"

var openaiFixtures = []fixtureSpec{
	// Chat Completions.
	fixtureSpec{Check: "OAI-TOOL-001", Name: "real-tool-round-trip", Pass: true, Source: srcChatToolOutput},
	fixtureSpec{Check: "OAI-TOOL-001", Name: "real-client-authored-history", Pass: true, Source: srcChatClientHistory},
	fixtureSpec{Check: "OAI-TOOL-001", Name: "tool-message-dropped", Interaction: 1, Source: srcChatToolOutput,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "messages.2") }},

	fixtureSpec{Check: "OAI-TOOL-002", Name: "real-multi-agent-streams", Pass: true, Source: srcChatStream},
	fixtureSpec{Check: "OAI-TOOL-002", Name: "assistant-tool-calls-dropped", Interaction: 1, Source: srcChatToolOutput,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "messages.1") }},

	fixtureSpec{Check: "OAI-TOOL-003", Name: "real-tool-round-trip", Pass: true, Source: srcChatToolOutput},
	fixtureSpec{Check: "OAI-TOOL-003", Name: "real-multi-agent-streams", Pass: true, Source: srcChatStream},
	// langchaingo's agent really sends back a different arguments string
	// than the model produced; no mutation needed.
	fixtureSpec{Check: "OAI-TOOL-003", Name: "real-agent-rewrites-arguments", Interaction: 2, Source: srcChatAgentArgs},
	fixtureSpec{Check: "OAI-TOOL-003", Name: "arguments-reserialised", Interaction: 2, Source: srcChatStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			replaceOnce(t, c, 2, "request", `"arguments":"{\"agent\":\"weather\",`, `"arguments":"{\"agent\": \"weather\", `)
		}},

	fixtureSpec{Check: "OAI-TOOL-004", Name: "real-tool-round-trip", Pass: true, Source: srcChatToolOutput},
	fixtureSpec{Check: "OAI-TOOL-004", Name: "empty-tool-message", Interaction: 1, Source: srcChatToolOutput,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "messages.2.content", `""`) }},
	fixtureSpec{Check: "OAI-TOOL-004", Name: "call-from-cut-stream-answered-as-done", Interaction: 2, Source: srcChatStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { truncateAt(t, c, 0, "data: [DONE]") }},

	// DeepSeek and Moonshot traffic is not in the corpus: hand-built.
	fixtureSpec{Check: "OAI-COMPAT-001", Name: "handbuilt-deepseek-reasoning-echoed", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return deepSeekToolLoop(t, true) }},
	fixtureSpec{Check: "OAI-COMPAT-001", Name: "real-groq-reasoning-not-required", Pass: true, Source: srcGroqToolRetry},
	fixtureSpec{Check: "OAI-COMPAT-001", Name: "handbuilt-deepseek-reasoning-dropped", Interaction: 1,
		Build: func(t *testing.T) *cassette.Cassette { return deepSeekToolLoop(t, false) }},

	// Responses.
	fixtureSpec{Check: "OAI-RSN-001", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "OAI-RSN-001", Name: "real-reasoning-stream", Pass: true, Source: srcResponsesStream},
	// xAI's Responses API took a reasoning item followed by its function call
	// echoed without the fc_ id (rig's recording, 200).
	fixtureSpec{Check: "OAI-RSN-001", Name: "real-xai-call-echoed-without-id", Pass: true, Source: srcXAIResponses},
	// OpenAI answered 200 to a call echoed without its id whose call_id is
	// the fc_ id the reasoning produced: a call without id is matched by
	// its type, not its call_id.
	fixtureSpec{Check: "OAI-RSN-001", Name: "call-without-id-call-id-is-item-id", Pass: true, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			deleteJSON(t, c, 1, "input.2.id")
			setJSON(t, c, 1, "input.2.call_id", `"fc_68c42d3e9e4881968b15fbb8253f58540e8bc41441c948f6"`)
			setJSON(t, c, 1, "input.3.call_id", `"fc_68c42d3e9e4881968b15fbb8253f58540e8bc41441c948f6"`)
		}},
	// The corpus's real violation: the API answered 400 here.
	fixtureSpec{Check: "OAI-RSN-001", Name: "real-edited-history-rejected", Interaction: 1, Source: srcResponsesEdited},
	fixtureSpec{Check: "OAI-RSN-001", Name: "reasoning-moved-after-call", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { moveItem(t, c, 1, "input", 1, 2) }},

	fixtureSpec{Check: "OAI-RSN-002", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "OAI-RSN-002", Name: "real-call-id-dropped-with-reasoning", Pass: true, Source: srcResponsesRejected},
	fixtureSpec{Check: "OAI-RSN-002", Name: "reasoning-dropped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "input.1") }},

	fixtureSpec{Check: "OAI-RSN-003", Name: "real-stored", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "OAI-RSN-003", Name: "stateless-with-encrypted-content", Pass: true, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "store", "false") }},
	// One harness mistake, two bytes of JSON: turning store off while
	// keeping reasoning items by id only.
	fixtureSpec{Check: "OAI-RSN-003", Name: "stateless-id-only-reasoning", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "store", "false")
			deleteJSON(t, c, 1, "input.1.encrypted_content")
		}},

	fixtureSpec{Check: "OAI-RSN-004", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "OAI-RSN-004", Name: "real-reasoning-stream", Pass: true, Source: srcResponsesStream},
	fixtureSpec{Check: "OAI-RSN-004", Name: "real-cross-provider-history", Pass: true, Source: srcResponsesOtherModel},
	fixtureSpec{Check: "OAI-RSN-004", Name: "encrypted-content-byte-flipped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			replaceOnce(t, c, 1, "request", `Mq865810g==`, `Mq865811g==`)
		}},
	// Sent back without its id (Ruby and Python SDK users do): still compared,
	// matched by the function call that follows it.
	fixtureSpec{Check: "OAI-RSN-004", Name: "id-less-encrypted-content-byte-flipped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			deleteJSON(t, c, 1, "input.1.id")
			replaceOnce(t, c, 1, "request", `Mq865810g==`, `Mq865811g==`)
		}},
	fixtureSpec{Check: "OAI-RSN-004", Name: "streamed-encrypted-content-byte-flipped", Interaction: 1, Source: srcResponsesStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { replaceOnce(t, c, 1, "request", `UcqGK8PU="`, `UcqGK9PU="`) }},

	fixtureSpec{Check: "OAI-RSN-005", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "OAI-RSN-005", Name: "switched-to-gpt-4-1", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "model", `"gpt-4.1"`) }},
	fixtureSpec{Check: "OAI-RSN-005", Name: "switched-to-another-family", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "model", `"o4-mini"`) }},

	fixtureSpec{Check: "OAI-TOOL-010", Name: "real-rejected-call-answered", Pass: true, Source: srcResponsesRejected},
	fixtureSpec{Check: "OAI-TOOL-010", Name: "function-call-output-dropped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "input.3") }},

	fixtureSpec{Check: "OAI-TOOL-011", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "OAI-TOOL-011", Name: "function-call-dropped", Interaction: 1, Source: srcResponsesRejected,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "input.3") }},

	fixtureSpec{Check: "OAI-TOOL-012", Name: "real-reasoning-stream", Pass: true, Source: srcResponsesStream},
	fixtureSpec{Check: "OAI-TOOL-012", Name: "output-sent-as-role-tool", Interaction: 1, Source: srcResponsesRejected,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "input.4", `{"content":"The user rejected the tool call.","role":"tool","tool_call_id":"call_5W18F6XkDh9NllAH9r0P9GuF"}`)
		}},
	fixtureSpec{Check: "OAI-TOOL-012", Name: "call-id-in-item-id", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "input.2.id", `"call_gL7JE6GDeGGsFubqO2XGytyO"`)
		}},

	fixtureSpec{Check: "OAI-CANCEL-001", Name: "real-rejected-call-answered", Pass: true, Source: srcResponsesRejected},
	fixtureSpec{Check: "OAI-CANCEL-001", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "OAI-CANCEL-001", Name: "user-text-between-call-and-output", Interaction: 1, Source: srcResponsesRejected,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			insertItem(t, c, 1, "input", 4, `{"content":"[user interrupted]","role":"user"}`)
		}},
	fixtureSpec{Check: "OAI-CANCEL-001", Name: "empty-output", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "input.3.output", `""`) }},
}

const srcGroqToolRetry = "pydantic__pydantic-ai/tests__models__cassettes__test_groq__test_tool_use_failed_error.yaml"

// moveItem moves element from of the top-level array key in interaction
// i's request body to index to, keeping every element's bytes.
func moveItem(t *testing.T, c *cassette.Cassette, i int, key string, from, to int) {
	t.Helper()
	items := topArray(t, c, i, key)
	if from >= len(items) || to >= len(items) {
		t.Fatalf("interaction %d: %s has %d items, cannot move %d to %d", i, key, len(items), from, to)
	}
	it := items[from]
	items = append(items[:from:from], items[from+1:]...)
	items = append(items[:to:to], append([]json.RawMessage{it}, items[to:]...)...)
	setJSON(t, c, i, key, string(rawjson.ArrayOf(items)))
}

// insertItem inserts raw as element at of the top-level array key in
// interaction i's request body.
func insertItem(t *testing.T, c *cassette.Cassette, i int, key string, at int, raw string) {
	t.Helper()
	items := topArray(t, c, i, key)
	if at > len(items) {
		t.Fatalf("interaction %d: %s has %d items, cannot insert at %d", i, key, len(items), at)
	}
	items = append(items[:at:at], append([]json.RawMessage{json.RawMessage(raw)}, items[at:]...)...)
	setJSON(t, c, i, key, string(rawjson.ArrayOf(items)))
}

// topArray returns the elements of the top-level array key of interaction
// i's request body, raw.
func topArray(t *testing.T, c *cassette.Cassette, i int, key string) []json.RawMessage {
	t.Helper()
	fields, err := rawjson.Fields(*bodyOf(t, c, i, "request"))
	if err != nil {
		t.Fatalf("interaction %d: %v", i, err)
	}
	for _, f := range fields {
		if f.Key == key {
			items, err := rawjson.Array(f.Value)
			if err != nil {
				t.Fatalf("interaction %d: %s: %v", i, key, err)
			}
			return items
		}
	}
	t.Fatalf("interaction %d: no %s", i, key)
	return nil
}

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
