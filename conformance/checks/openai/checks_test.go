package openai_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

// Chat Completions bodies for the tables.
const (
	userMessage  = `{"role":"user","content":"Weather in Paris and the time?"}`
	callsMessage = `{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},{"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{}"}}]}`
	toolA        = `{"role":"tool","tool_call_id":"call_a","content":"21C"}`
	toolB        = `{"role":"tool","tool_call_id":"call_b","content":"noon"}`
	answer       = `{"role":"assistant","content":"21C at noon."}`
)

const completionsURL = "https://api.openai.com/v1/chat/completions"

func request(msgs ...string) string {
	return `{"model":"gpt-4o","messages":[` + strings.Join(msgs, ",") + `]}`
}

func response(message string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"message":` + message + `,"finish_reason":"tool_calls"}]}`
}

func TestChatToolChecks(t *testing.T) {
	chTurn := checktest.Call{URL: completionsURL, Req: request(userMessage), Resp: response(callsMessage)}
	cutStream := "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},\"finish_reason\":null}]}\n\n"
	checktest.RunCases(t, []checktest.Case{
		{Name: "parallel calls answered in any order", Check: "OAI-TOOL-001",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage, callsMessage, toolB, toolA, answer)}}},
		{Name: "one call unanswered before the next user message", Check: "OAI-TOOL-001",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage, callsMessage, toolA, userMessage)}},
			Want:  []string{"0: tool call call_b (get_time) of the assistant message messages[1] has no tool message after it: the user message messages[3] comes first"}},
		{Name: "client-authored history", Check: "OAI-TOOL-001",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(`{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}`, `{"role":"tool","tool_call_id":"1","content":"ok"}`)}}},

		{Name: "tool message answers another call", Check: "OAI-TOOL-002",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage, callsMessage, toolA, `{"role":"tool","tool_call_id":"call_z","content":"?"}`, toolB)}},
			Want:  []string{"0: tool message messages[3] answers tool_call_id call_z, which is not among the tool_calls of messages[1] (call_a, call_b)"}},
		{Name: "tool message first", Check: "OAI-TOOL-002",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(toolA, userMessage)}},
			Want:  []string{"0: it is the first message"}},
		{Name: "tool message after a plain assistant message", Check: "OAI-TOOL-002",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage, answer, toolA)}},
			Want:  []string{"0: it follows the assistant message messages[1]"}},

		{Name: "arguments echoed", Check: "OAI-TOOL-003",
			Calls: []checktest.Call{chTurn, {URL: completionsURL, Req: request(userMessage, callsMessage, toolA, toolB)}}},
		{Name: "arguments re-escaped but equal", Check: "OAI-TOOL-003",
			Calls: []checktest.Call{chTurn, {URL: completionsURL, Req: request(userMessage, strings.Replace(callsMessage, `\"Paris\"`, `\"Par\u0069s\"`, 1), toolA, toolB)}}},
		{Name: "arguments rewritten, reported once", Check: "OAI-TOOL-003",
			Calls: []checktest.Call{chTurn,
				{URL: completionsURL, Req: request(userMessage, strings.Replace(callsMessage, `{\"city\":\"Paris\"}`, `{\"city\": \"Paris\"}`, 1), toolA, toolB)},
				{URL: completionsURL, Req: request(userMessage, strings.Replace(callsMessage, `{\"city\":\"Paris\"}`, `{\"city\": \"Paris\"}`, 1), toolA, toolB, answer, userMessage)}},
			Want: []string{"1: first difference at byte 8"}},

		{Name: "empty tool message", Check: "OAI-TOOL-004",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage, callsMessage, `{"role":"tool","tool_call_id":"call_a","content":[]}`, toolB)}},
			Want:  []string{"0: tool message messages[2] for call call_a is empty"}},
		{Name: "empty tool message, reported once", Check: "OAI-TOOL-004",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage, callsMessage, `{"role":"tool","tool_call_id":"call_a","content":""}`, toolB), Resp: response(answer)},
				{URL: completionsURL, Req: request(userMessage, callsMessage, `{"role":"tool","tool_call_id":"call_a","content":""}`, toolB, answer, userMessage)}},
			Want: []string{"0: tool message messages[2] for call call_a is empty"}},
		{Name: "call from a cut stream answered as cancelled", Check: "OAI-TOOL-004",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage), Resp: cutStream},
				{URL: completionsURL, Req: request(userMessage, callsMessage, `{"role":"tool","tool_call_id":"call_a","content":"Cancelled: the stream was interrupted."}`, toolB)}}},
		{Name: "call from a cut stream answered as done", Check: "OAI-TOOL-004",
			Calls: []checktest.Call{{URL: completionsURL, Req: request(userMessage), Resp: cutStream},
				{URL: completionsURL, Req: request(userMessage, callsMessage, toolA, toolB)}},
			Want: []string{"1: tool call call_a came from interaction 0, whose stream never finished"}},
	})
}

func TestChatCompat(t *testing.T) {
	const (
		dsURL     = "https://api.deepseek.com/chat/completions"
		withRC    = `{"role":"assistant","content":"","reasoning_content":"Need the weather.","tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`
		withoutRC = `{"role":"assistant","content":"","tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`
	)
	turn := func(url, model string) checktest.Call {
		return checktest.Call{URL: url, Req: `{"model":"` + model + `","messages":[` + userMessage + `]}`, Resp: response(withRC)}
	}
	next := func(url, model string, msgs ...string) checktest.Call {
		return checktest.Call{URL: url, Req: `{"model":"` + model + `","messages":[` + strings.Join(msgs, ",") + `]}`}
	}
	checktest.RunCases(t, []checktest.Case{
		{Name: "echoed", Check: "OAI-COMPAT-001",
			Calls: []checktest.Call{turn(dsURL, "deepseek-chat"), next(dsURL, "deepseek-chat", userMessage, withRC, toolA)}},
		{Name: "dropped", Check: "OAI-COMPAT-001",
			Calls: []checktest.Call{turn(dsURL, "deepseek-chat"), next(dsURL, "deepseek-chat", userMessage, withoutRC, toolA)},
			Want:  []string{"1: assistant message messages[1] (tool call call_a) has no reasoning_content, but interaction 0 produced it with 17 bytes of reasoning_content, which DeepSeek requires"}},
		{Name: "dropped behind a gateway, by model name", Check: "OAI-COMPAT-001",
			Calls: []checktest.Call{turn("http://127.0.0.1:4000/v1/chat/completions", "kimi-k2-thinking"), next("http://127.0.0.1:4000/v1/chat/completions", "kimi-k2-thinking", userMessage, withoutRC, toolA)},
			Want:  []string{"1: which Moonshot requires"}},
		{Name: "older turn not judged", Check: "OAI-COMPAT-001",
			Calls: []checktest.Call{turn(dsURL, "deepseek-chat"), next(dsURL, "deepseek-chat", userMessage, withoutRC, toolA, answer, userMessage)}},
		{Name: "other hosts not judged", Check: "OAI-COMPAT-001",
			Calls: []checktest.Call{turn("https://openrouter.ai/api/v1/chat/completions", "deepseek/deepseek-r1"), next("https://openrouter.ai/api/v1/chat/completions", "deepseek/deepseek-r1", userMessage, withoutRC, toolA)}},
		{Name: "client-authored call not judged", Check: "OAI-COMPAT-001",
			Calls: []checktest.Call{next(dsURL, "deepseek-chat", userMessage, withoutRC, toolA)}},
	})
	const (
		orURL       = "https://openrouter.ai/api/v1/chat/completions"
		withDetails = `{"role":"assistant","content":"","reasoning_details":[{"type":"reasoning.encrypted","data":"gAAAA-one","index":0}],"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`
	)
	checktest.RunCases(t, []checktest.Case{
		{Name: "reasoning_details echoed", Check: "OAI-COMPAT-002",
			Calls: []checktest.Call{{URL: orURL, Req: `{"model":"openai/gpt-5","messages":[` + userMessage + `]}`, Resp: response(withDetails)},
				next(orURL, "openai/gpt-5", userMessage, withDetails, toolA)}},
		{Name: "reasoning_details dropped, reported once", Check: "OAI-COMPAT-002",
			Calls: []checktest.Call{{URL: orURL, Req: `{"model":"openai/gpt-5","messages":[` + userMessage + `]}`, Resp: response(withDetails)},
				{URL: orURL, Req: `{"model":"openai/gpt-5","messages":[` + userMessage + `,` + withoutRC + `,` + toolA + `]}`, Resp: response(answer)},
				next(orURL, "openai/gpt-5", userMessage, withoutRC, toolA, answer, userMessage)},
			Want: []string{"1: assistant message has no reasoning_details, but interaction 0 produced a reasoning.encrypted entry with a data"}},
	})
}

// What OpenAI-compatible servers stream and the SDKs read past is a
// warning, never an error: comment lines (OpenRouter), a chunk id that
// changes, a last chunk without finish_reason, an error object inside a 200
// stream. Only what no client can use (arguments that are not JSON) errs.
func TestCompatibleStreamGrammar(t *testing.T) {
	chunk := func(id, delta, finish string) string {
		return `data: {"id":"` + id + `","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}` + "\n\n"
	}
	req := `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`
	for _, tc := range []struct {
		name, body string
		severity   check.Severity
	}{
		{"comment lines", ": OPENROUTER PROCESSING\n\n" + chunk("c1", `{"role":"assistant","content":"hi"}`, `"stop"`) + ": OPENROUTER PROCESSING\n\ndata: [DONE]\n\n", ""},
		{"chunk id changes", chunk("c1", `{"role":"assistant","content":"h"}`, "null") + chunk("c2", `{"content":"i"}`, `"stop"`) + "data: [DONE]\n\n", check.SeverityWarning},
		{"no finish_reason", chunk("c1", `{"role":"assistant","content":"hi"}`, "null") + "data: [DONE]\n\n", check.SeverityWarning},
		{"error object inside a 200 stream", chunk("c1", `{"role":"assistant","content":"h"}`, "null") + `data: {"id":"c1","object":"chat.completion.chunk","error":{"code":502,"message":"Upstream error"},"choices":[]}` + "\n\ndata: [DONE]\n\n", ""},
		{"arguments that are not JSON", chunk("c1", `{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]}`, `"tool_calls"`) + "data: [DONE]\n\n", check.SeverityError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := checktest.Traffic(t, checktest.Call{URL: "https://openrouter.ai/api/v1/chat/completions", Req: req, Resp: tc.body})
			var worst check.Severity
			for _, f := range check.Judge(tr, []*check.Check{checks.Lookup("OAI-STREAM-001")}) {
				if worst != check.SeverityError {
					worst = f.Severity
				}
			}
			if worst != tc.severity {
				t.Errorf("worst OAI-STREAM-001 finding %q, want %q", worst, tc.severity)
			}
		})
	}
}
