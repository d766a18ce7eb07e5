package checks_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
)

// Chat Completions bodies for the tables.
const (
	chUser   = `{"role":"user","content":"Weather in Paris and the time?"}`
	chCalls  = `{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},{"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{}"}}]}`
	chToolA  = `{"role":"tool","tool_call_id":"call_a","content":"21C"}`
	chToolB  = `{"role":"tool","tool_call_id":"call_b","content":"noon"}`
	chAnswer = `{"role":"assistant","content":"21C at noon."}`
)

func chReq(msgs ...string) string {
	return `{"model":"gpt-4o","messages":[` + strings.Join(msgs, ",") + `]}`
}

func chResp(message string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"message":` + message + `,"finish_reason":"tool_calls"}]}`
}

func TestChatToolChecks(t *testing.T) {
	chTurn := oaiCall{url: chatURL, req: chReq(chUser), resp: chResp(chCalls)}
	cutStream := "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},\"finish_reason\":null}]}\n\n"
	runOAICases(t, []oaiCase{
		{name: "parallel calls answered in any order", check: "OAI-TOOL-001",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser, chCalls, chToolB, chToolA, chAnswer)}}},
		{name: "one call unanswered before the next user message", check: "OAI-TOOL-001",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser, chCalls, chToolA, chUser)}},
			want:  []string{"0: tool call call_b (get_time) of the assistant message messages[1] has no tool message after it: the user message messages[3] comes first"}},
		{name: "client-authored history", check: "OAI-TOOL-001",
			calls: []oaiCall{{url: chatURL, req: chReq(`{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}]}`, `{"role":"tool","tool_call_id":"1","content":"ok"}`)}}},

		{name: "tool message answers another call", check: "OAI-TOOL-002",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser, chCalls, chToolA, `{"role":"tool","tool_call_id":"call_z","content":"?"}`, chToolB)}},
			want:  []string{"0: tool message messages[3] answers tool_call_id call_z, which is not among the tool_calls of messages[1] (call_a, call_b)"}},
		{name: "tool message first", check: "OAI-TOOL-002",
			calls: []oaiCall{{url: chatURL, req: chReq(chToolA, chUser)}},
			want:  []string{"0: it is the first message"}},
		{name: "tool message after a plain assistant message", check: "OAI-TOOL-002",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser, chAnswer, chToolA)}},
			want:  []string{"0: it follows the assistant message messages[1]"}},

		{name: "arguments echoed", check: "OAI-TOOL-003",
			calls: []oaiCall{chTurn, {url: chatURL, req: chReq(chUser, chCalls, chToolA, chToolB)}}},
		{name: "arguments re-escaped but equal", check: "OAI-TOOL-003",
			calls: []oaiCall{chTurn, {url: chatURL, req: chReq(chUser, strings.Replace(chCalls, `\"Paris\"`, `\"Par\u0069s\"`, 1), chToolA, chToolB)}}},
		{name: "arguments rewritten, reported once", check: "OAI-TOOL-003",
			calls: []oaiCall{chTurn,
				{url: chatURL, req: chReq(chUser, strings.Replace(chCalls, `{\"city\":\"Paris\"}`, `{\"city\": \"Paris\"}`, 1), chToolA, chToolB)},
				{url: chatURL, req: chReq(chUser, strings.Replace(chCalls, `{\"city\":\"Paris\"}`, `{\"city\": \"Paris\"}`, 1), chToolA, chToolB, chAnswer, chUser)}},
			want: []string{"1: first difference at byte 8"}},

		{name: "empty tool message", check: "OAI-TOOL-004",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser, chCalls, `{"role":"tool","tool_call_id":"call_a","content":[]}`, chToolB)}},
			want:  []string{"0: tool message messages[2] for call call_a is empty"}},
		{name: "empty tool message, reported once", check: "OAI-TOOL-004",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser, chCalls, `{"role":"tool","tool_call_id":"call_a","content":""}`, chToolB), resp: chResp(chAnswer)},
				{url: chatURL, req: chReq(chUser, chCalls, `{"role":"tool","tool_call_id":"call_a","content":""}`, chToolB, chAnswer, chUser)}},
			want: []string{"0: tool message messages[2] for call call_a is empty"}},
		{name: "call from a cut stream answered as cancelled", check: "OAI-TOOL-004",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser), resp: cutStream},
				{url: chatURL, req: chReq(chUser, chCalls, `{"role":"tool","tool_call_id":"call_a","content":"Cancelled: the stream was interrupted."}`, chToolB)}}},
		{name: "call from a cut stream answered as done", check: "OAI-TOOL-004",
			calls: []oaiCall{{url: chatURL, req: chReq(chUser), resp: cutStream},
				{url: chatURL, req: chReq(chUser, chCalls, chToolA, chToolB)}},
			want: []string{"1: tool call call_a came from interaction 0, whose stream never finished"}},
	})
}

func TestChatCompat(t *testing.T) {
	const (
		dsURL     = "https://api.deepseek.com/chat/completions"
		withRC    = `{"role":"assistant","content":"","reasoning_content":"Need the weather.","tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`
		withoutRC = `{"role":"assistant","content":"","tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`
	)
	turn := func(url, model string) oaiCall {
		return oaiCall{url: url, req: `{"model":"` + model + `","messages":[` + chUser + `]}`, resp: chResp(withRC)}
	}
	next := func(url, model string, msgs ...string) oaiCall {
		return oaiCall{url: url, req: `{"model":"` + model + `","messages":[` + strings.Join(msgs, ",") + `]}`}
	}
	runOAICases(t, []oaiCase{
		{name: "echoed", check: "OAI-COMPAT-001",
			calls: []oaiCall{turn(dsURL, "deepseek-chat"), next(dsURL, "deepseek-chat", chUser, withRC, chToolA)}},
		{name: "dropped", check: "OAI-COMPAT-001",
			calls: []oaiCall{turn(dsURL, "deepseek-chat"), next(dsURL, "deepseek-chat", chUser, withoutRC, chToolA)},
			want:  []string{"1: assistant message messages[1] (tool call call_a) has no reasoning_content, but interaction 0 produced it with 17 bytes of reasoning_content, which DeepSeek requires"}},
		{name: "dropped behind a gateway, by model name", check: "OAI-COMPAT-001",
			calls: []oaiCall{turn("http://127.0.0.1:4000/v1/chat/completions", "kimi-k2-thinking"), next("http://127.0.0.1:4000/v1/chat/completions", "kimi-k2-thinking", chUser, withoutRC, chToolA)},
			want:  []string{"1: which Moonshot requires"}},
		{name: "older turn not judged", check: "OAI-COMPAT-001",
			calls: []oaiCall{turn(dsURL, "deepseek-chat"), next(dsURL, "deepseek-chat", chUser, withoutRC, chToolA, chAnswer, chUser)}},
		{name: "other hosts not judged", check: "OAI-COMPAT-001",
			calls: []oaiCall{turn("https://openrouter.ai/api/v1/chat/completions", "deepseek/deepseek-r1"), next("https://openrouter.ai/api/v1/chat/completions", "deepseek/deepseek-r1", chUser, withoutRC, chToolA)}},
		{name: "client-authored call not judged", check: "OAI-COMPAT-001",
			calls: []oaiCall{next(dsURL, "deepseek-chat", chUser, withoutRC, chToolA)}},
	})
	const (
		orURL       = "https://openrouter.ai/api/v1/chat/completions"
		withDetails = `{"role":"assistant","content":"","reasoning_details":[{"type":"reasoning.encrypted","data":"gAAAA-one","index":0}],"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`
	)
	runOAICases(t, []oaiCase{
		{name: "reasoning_details echoed", check: "OAI-COMPAT-002",
			calls: []oaiCall{{url: orURL, req: `{"model":"openai/gpt-5","messages":[` + chUser + `]}`, resp: chResp(withDetails)},
				next(orURL, "openai/gpt-5", chUser, withDetails, chToolA)}},
		{name: "reasoning_details dropped, reported once", check: "OAI-COMPAT-002",
			calls: []oaiCall{{url: orURL, req: `{"model":"openai/gpt-5","messages":[` + chUser + `]}`, resp: chResp(withDetails)},
				{url: orURL, req: `{"model":"openai/gpt-5","messages":[` + chUser + `,` + withoutRC + `,` + chToolA + `]}`, resp: chResp(chAnswer)},
				next(orURL, "openai/gpt-5", chUser, withoutRC, chToolA, chAnswer, chUser)},
			want: []string{"1: assistant message has no reasoning_details, but interaction 0 produced a reasoning.encrypted entry with a data"}},
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
			tr := oaiTraffic(t, oaiCall{url: "https://openrouter.ai/api/v1/chat/completions", req: req, resp: tc.body})
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
