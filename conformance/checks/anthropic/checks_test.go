package anthropic_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// call is one hand-written Anthropic call for the table tests.
type call struct {
	Req, Resp string
	Status    int    // 200 when 0
	URL       string // the Anthropic API when ""
	Header    http.Header
}

const messagesURL = "https://api.anthropic.com/v1/messages"

// trafficOf decodes the calls as a cassette would be.
func trafficOf(t testing.TB, exs ...call) *check.Traffic {
	t.Helper()
	return trafficThrough(t, nil, exs...)
}

// trafficThrough is trafficOf with the requests decoded through memo,
// as check and the recorder decode them: a request that repeats the one
// before shares its messages in memory. A nil memo decodes each alone.
func trafficThrough(t testing.TB, memo *traffic.Memo, exs ...call) *check.Traffic {
	t.Helper()
	tr := &check.Traffic{Path: t.Name()}
	for i, e := range exs {
		url, status := e.URL, e.Status
		if url == "" {
			url = messagesURL
		}
		if status == 0 && e.Resp != "" {
			status = 200 // no response at all for a live request
		}
		ex := providers.Decode(i, providers.Call{Method: "POST", URL: url, RequestHeader: e.Header,
			RequestBody: []byte(e.Req), Status: status, ResponseBody: []byte(e.Resp), Memo: memo})
		if ex.RequestErr != "" || ex.ResponseErr != "" {
			t.Fatalf("call %d does not decode: %s %s", i, ex.RequestErr, ex.ResponseErr)
		}
		tr.Exchanges = append(tr.Exchanges, ex)
	}
	return tr
}

// sigToken is a signature-shaped token (base64 of 48 bytes) named by letter.
func sigToken(letter string) string {
	return base64.StdEncoding.EncodeToString([]byte(strings.Repeat(letter, 48)))
}

var (
	sigA, sigB, sigC = sigToken("a"), sigToken("b"), sigToken("c")
)

func thinkingBlock(text, sig string) string {
	return fmt.Sprintf(`{"type":"thinking","thinking":%q,"signature":%q}`, text, sig)
}

func redacted(data string) string {
	return fmt.Sprintf(`{"type":"redacted_thinking","data":%q}`, data)
}

func textBlock(s string) string { return fmt.Sprintf(`{"type":"text","text":%q}`, s) }

func toolUse(id string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"get_weather","input":{"city":"Paris"}}`, id)
}

func toolResult(id, content string) string {
	return fmt.Sprintf(`{"type":"tool_result","tool_use_id":%q,"content":%q}`, id, content)
}

func user(s string) string { return fmt.Sprintf(`{"role":"user","content":%q}`, s) }

func userBlocks(blocks ...string) string {
	return `{"role":"user","content":[` + strings.Join(blocks, ",") + `]}`
}

func assistant(blocks ...string) string {
	return `{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`
}

// req builds a request body; extra is raw top-level fields ("" for none).
func requestBody(extra string, msgs ...string) string {
	if extra != "" {
		extra += ","
	}
	return `{"model":"claude-sonnet-4-5","max_tokens":4096,` + extra + `"messages":[` + strings.Join(msgs, ",") + `]}`
}

const thinkOn = `"thinking":{"type":"enabled","budget_tokens":2048}`

// resp builds a message response body.
func response(blocks ...string) string {
	return `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[` +
		strings.Join(blocks, ",") + `],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
}

// want is an expected finding: interaction, severity and a piece of its message.
type wantFinding struct {
	i   int
	sev check.Severity
	has string
}

func TestAnthropicChecks(t *testing.T) {
	tests := []struct {
		name  string
		check string
		exs   []call
		want  []wantFinding // nil: the check raises nothing
	}{
		{
			name: "client-authored history is not judged", check: "ANT-THINK-001",
			exs: []call{{Req: requestBody(thinkOn, user("hi"), assistant(thinkingBlock("made up", "sig-a"), textBlock("hello")), user("again")), Resp: response(textBlock("ok"))}},
		},
		{
			name: "client-authored history is not synthesized", check: "ANT-THINK-003",
			exs: []call{{Req: requestBody(thinkOn, user("hi"), assistant(thinkingBlock("made up", "sig-a"), textBlock("hello")), user("again")), Resp: response(textBlock("ok"))}},
		},
		{
			name: "echo compared with the response that produced it, several calls back", check: "ANT-THINK-001",
			exs: []call{
				{Req: requestBody(thinkOn, user("weather?")), Resp: response(thinkingBlock("Need the weather.", sigA), toolUse("toolu_1"))},
				{Req: requestBody("", user("title for this chat")), Resp: response(textBlock("Weather chat"))},
				{Req: requestBody(thinkOn, user("weather?"), assistant(thinkingBlock("Need the weather.", sigB), toolUse("toolu_1")),
					userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("21C"))},
			},
			want: []wantFinding{{2, check.SeverityError, "differs from the one interaction 0 (response content[0]) produced"}},
		},
		{
			name: "a signature re-escaped but equal in value is unchanged", check: "ANT-THINK-001",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t", "EqQB/x"+sigA), textBlock("a"))},
				{Req: strings.Replace(requestBody(thinkOn, user("q"), assistant(thinkingBlock("t", "EqQB/x"+sigA), textBlock("a")), user("q2")), "EqQB/x", `EqQB\/x`, 1), Resp: response(textBlock("b"))},
			},
		},
		{
			name: "redacted data echoed as a thinking signature changes the type", check: "ANT-THINK-001",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: response(redacted(sigA), textBlock("a"))},
				{Req: requestBody(thinkOn, user("q"), assistant(thinkingBlock("", sigA), textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{1, check.SeverityError, "the block type was changed"}},
		},
		{
			name: "signature from Amazon Bedrock echoed to the Anthropic API", check: "ANT-THINK-003",
			exs: []call{
				{URL: "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1:0/invoke",
					Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t", sigA), textBlock("a"))},
				{Req: requestBody(thinkOn, user("q"), assistant(thinkingBlock("t", sigA), textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{1, check.SeverityError, "on Amazon Bedrock is echoed to the Anthropic API"}},
		},
		{
			name: "another model family is a warning", check: "ANT-THINK-003",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t", sigA), textBlock("a"))},
				{Req: strings.Replace(requestBody(thinkOn, user("q"), assistant(thinkingBlock("t", sigA), textBlock("a")), user("q2")), "claude-sonnet-4-5", "claude-opus-4-1", 1), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{1, check.SeverityWarning, "a model drops thinking blocks of another model"}},
		},
		{
			name: "the same family under a dated name", check: "ANT-THINK-003",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t", sigA), textBlock("a"))},
				{Req: strings.Replace(requestBody(thinkOn, user("q"), assistant(thinkingBlock("t", sigA), textBlock("a")), user("q2")), "claude-sonnet-4-5", "claude-sonnet-4-5-20250929", 1), Resp: response(textBlock("b"))},
			},
		},
		{
			name: "a Gemini thought signature from the same cassette", check: "ANT-THINK-003",
			exs: []call{
				{URL: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent",
					Req:  `{"contents":[{"role":"user","parts":[{"text":"q"}]}]}`,
					Resp: `{"candidates":[{"content":{"role":"model","parts":[{"text":"a","thoughtSignature":"` + sigC + `"}]},"finishReason":"STOP"}]}`},
				{Req: requestBody(thinkOn, user("q"), assistant(thinkingBlock("", sigC), textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{1, check.SeverityError, "is the gemini payload produced by interaction 0"}},
		},
		{
			name: "a synthesized block beside a recorded tool call", check: "ANT-THINK-003",
			exs: []call{
				{Req: requestBody(thinkOn, user("w")), Resp: response(toolUse("toolu_1"))},
				{Req: requestBody(thinkOn, user("w"), assistant(thinkingBlock("I will call it.", sigB), toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("21C"))},
			},
			want: []wantFinding{{1, check.SeverityError, "(synthesized)"}},
		},
		{
			name: "adaptive thinking: a loop opened without thinking is fine", check: "ANT-THINK-004",
			exs: []call{
				{Req: requestBody(`"thinking":{"type":"adaptive"}`, user("w")), Resp: response(toolUse("toolu_1"))},
				{Req: requestBody(`"thinking":{"type":"adaptive"}`, user("w"), assistant(toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("21C"))},
			},
		},
		{
			name: "adaptive thinking: dropping the loop's thinking is not", check: "ANT-THINK-004",
			exs: []call{
				{Req: requestBody(`"thinking":{"type":"adaptive"}`, user("w")), Resp: response(thinkingBlock("t", sigA), toolUse("toolu_1"))},
				{Req: requestBody(`"thinking":{"type":"adaptive"}`, user("w"), assistant(toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("21C"))},
			},
			want: []wantFinding{{1, check.SeverityError, "found tool_use"}},
		},
		{
			name: "later steps of a loop need no thinking of their own", check: "ANT-THINK-004",
			exs: []call{{Req: requestBody(thinkOn, user("w"),
				assistant(thinkingBlock("t", sigA), toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C")),
				assistant(toolUse("toolu_2")), userBlocks(toolResult("toolu_2", "22C"))), Resp: response(textBlock("ok"))}},
		},
		{
			name: "a prefill ending in thinking", check: "ANT-THINK-005",
			exs:  []call{{Req: requestBody(thinkOn, user("w"), assistant(thinkingBlock("t", sigA))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityError, "a prefill cannot end in thinking"}},
		},
		{
			name: "cache_control markers are not part of the prefix", check: "ANT-THINK-009",
			exs: []call{
				{Req: requestBody(thinkOn+`,"system":"be brief"`, user("q")), Resp: response(thinkingBlock("t", sigA), textBlock("a"))},
				{Req: requestBody(thinkOn+`,"system":[{"type":"text","text":"be brief","cache_control":{"type":"ephemeral"}}]`,
					`{"role":"user","content":[{"type":"text","text":"q","cache_control":{"type":"ephemeral"}}]}`,
					assistant(thinkingBlock("t", sigA), textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
		},
		{
			name: "one finding per request, counting the later blocks", check: "ANT-THINK-009",
			exs: []call{
				{Req: requestBody(thinkOn+`,"system":"v1"`, user("q")), Resp: response(thinkingBlock("t1", sigA), textBlock("a"))},
				{Req: requestBody(thinkOn+`,"system":"v1"`, user("q"), assistant(thinkingBlock("t1", sigA), textBlock("a")), user("q2")), Resp: response(thinkingBlock("t2", sigB), textBlock("b"))},
				{Req: requestBody(thinkOn+`,"system":"v2"`, user("q"), assistant(thinkingBlock("t1", sigA), textBlock("a")), user("q2"),
					assistant(thinkingBlock("t2", sigB), textBlock("b")), user("q3")), Resp: response(textBlock("c"))},
			},
			want: []wantFinding{{2, check.SeverityWarning, "system prompt differs from the one the block was created with; 1 later echoed thinking block(s) are invalidated too"}},
		},
		{
			name: "an earlier message edited (ephemeral reminder removed)", check: "ANT-THINK-009",
			exs: []call{
				{Req: requestBody(thinkOn, userBlocks(textBlock("q"), textBlock("<reminder>today is Monday</reminder>"))), Resp: response(thinkingBlock("t1", sigA), textBlock("a"))},
				{Req: requestBody(thinkOn, user("q"), assistant(thinkingBlock("t1", sigA), textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{1, check.SeverityWarning, "messages[0] differs from the one the block was created after"}},
		},
		{
			name: "messages dropped before the block", check: "ANT-THINK-009",
			exs: []call{
				{Req: requestBody(thinkOn, user("q"), assistant(textBlock("a")), user("q2")), Resp: response(thinkingBlock("t1", sigA), textBlock("b"))},
				{Req: requestBody(thinkOn, user("q2"), assistant(thinkingBlock("t1", sigA), textBlock("b")), user("q3")), Resp: response(textBlock("c"))},
			},
			want: []wantFinding{{1, check.SeverityWarning, "messages[0] differs"}},
		},
		{
			name: "binding errors requested make it an error", check: "ANT-THINK-009",
			exs: []call{
				{Req: requestBody(thinkOn+`,"system":"v1"`, user("q")), Resp: response(thinkingBlock("t1", sigA), textBlock("a"))},
				{Req: requestBody(`"thinking":{"type":"enabled","budget_tokens":2048,"block_binding":{"prefix_mismatch_behavior":"error"}},"system":"v2"`,
					user("q"), assistant(thinkingBlock("t1", sigA), textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{1, check.SeverityError, "system prompt differs"}},
		},
		{
			name: "a pause_turn continuation merged after its prefill", check: "ANT-THINK-009",
			exs: []call{
				{Req: requestBody(thinkOn, user("search")), Resp: response(thinkingBlock("t1", sigA), textBlock("searching"))},
				{Req: requestBody(thinkOn, user("search"), assistant(thinkingBlock("t1", sigA), textBlock("searching"))), Resp: response(thinkingBlock("t2", sigB), textBlock("found"))},
				{Req: requestBody(thinkOn, user("search"), assistant(thinkingBlock("t1", sigA), textBlock("searching"), thinkingBlock("t2", sigB), textBlock("found")), user("thanks")), Resp: response(textBlock("np"))},
			},
		},
		{
			name: "a pause_turn continuation merged after its prefill stays in place", check: "ANT-THINK-010",
			exs: []call{
				{Req: requestBody(thinkOn, user("search")), Resp: response(thinkingBlock("t1", sigA), textBlock("searching"))},
				{Req: requestBody(thinkOn, user("search"), assistant(thinkingBlock("t1", sigA), textBlock("searching"))), Resp: response(thinkingBlock("t2", sigB), textBlock("found"))},
				{Req: requestBody(thinkOn, user("search"), assistant(thinkingBlock("t1", sigA), textBlock("searching"), thinkingBlock("t2", sigB), textBlock("found")), user("thanks")), Resp: response(textBlock("np"))},
			},
		},
		{
			name: "redacted block filtered out of the latest message", check: "ANT-THINK-010",
			exs: []call{
				{Req: requestBody(thinkOn, user("w")), Resp: response(thinkingBlock("t", sigA), redacted(sigB), toolUse("toolu_1"))},
				{Req: requestBody(thinkOn, user("w"), assistant(thinkingBlock("t", sigA), toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityError, "leaves out its redacted_thinking block content[1]"}},
		},
		{
			name: "empty-text block filtered out of an older message", check: "ANT-THINK-010",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t", sigA), thinkingBlock("", sigB), textBlock("a"))},
				{Req: requestBody(thinkOn, user("q"), assistant(thinkingBlock("t", sigA), textBlock("a")), user("q2"), assistant(textBlock("b")), user("q3")), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityWarning, "its thinking text is empty"}},
		},
		{
			name: "thinking of an older turn left out while later thinking is echoed", check: "ANT-THINK-010",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t1", sigA), textBlock("a"))},
				{Req: requestBody(thinkOn, user("q"), assistant(thinkingBlock("t1", sigA), textBlock("a")), user("q2")), Resp: response(thinkingBlock("t2", sigB), textBlock("b"))},
				{Req: requestBody(thinkOn, user("q"), assistant(textBlock("a")), user("q2"), assistant(thinkingBlock("t2", sigB), textBlock("b")), user("q3")), Resp: response(textBlock("c"))},
			},
			want: []wantFinding{{2, check.SeverityWarning, "a block between others was left out"}},
		},
		{
			name: "older-turn thinking dropped with nothing later is fine", check: "ANT-THINK-010",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t1", sigA), textBlock("a"))},
				{Req: requestBody(thinkOn, user("q"), assistant(textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
		},
		{
			name: "two blocks swapped", check: "ANT-THINK-010",
			exs: []call{
				{Req: requestBody(thinkOn, user("w")), Resp: response(thinkingBlock("t", sigA), redacted(sigB), toolUse("toolu_1"))},
				{Req: requestBody(thinkOn, user("w"), assistant(redacted(sigB), thinkingBlock("t", sigA), toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityError, "thinking blocks were reordered"}},
		},
		{
			name: "interleaved beta lets the budget exceed max_tokens", check: "ANT-THINK-011",
			exs: []call{{Header: http.Header{"Anthropic-Beta": {"context-1m-2025-08-07,interleaved-thinking-2025-05-14"}},
				Req: requestBody(`"thinking":{"type":"enabled","budget_tokens":10000}`, user("q")), Resp: response(textBlock("a"))}},
		},
		{
			name: "manual thinking on a 4.7 model", check: "ANT-THINK-011",
			exs:  []call{{Req: strings.Replace(requestBody(thinkOn, user("q")), "claude-sonnet-4-5", "claude-opus-4-7", 1), Resp: response(textBlock("a"))}},
			want: []wantFinding{{0, check.SeverityInfo, "is rejected on claude-opus-4-7"}},
		},
		{
			name: "a tool_use in the final message is unanswered", check: "ANT-TOOL-001",
			exs:  []call{{Req: requestBody("", user("w"), assistant(toolUse("toolu_1"))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityError, "there is no next message"}},
		},
		{
			name: "parallel calls: one result missing", check: "ANT-TOOL-001",
			exs:  []call{{Req: requestBody("", user("w"), assistant(toolUse("toolu_1"), toolUse("toolu_2")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityError, "tool_use toolu_2 of messages[1] not answered"}},
		},
		{
			// The rule is observed on Anthropic's API and its gateways; a server
			// of its own that speaks the wire gets a warning, not an error.
			name: "parallel calls: one result missing, on a compatible server", check: "ANT-TOOL-001",
			exs: []call{{URL: "https://llm-gateway.example.com/v1/messages",
				Req: requestBody("", user("w"), assistant(toolUse("toolu_1"), toolUse("toolu_2")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityWarning, "has no tool_result for it (an error on direct, bedrock, vertex; not observed on compatible)"}},
		},
		{
			name: "a result for a call two messages back", check: "ANT-TOOL-002",
			exs: []call{{Req: requestBody("", user("w"), assistant(toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C")),
				assistant(textBlock("more?")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityError, "it was called in messages[1]"}},
		},
		{
			name: "repeated ids are info, malformed server ids errors", check: "ANT-TOOL-004",
			exs: []call{{Req: requestBody("", user("w"), assistant(toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C")),
				assistant(toolUse("toolu_1"), `{"type":"server_tool_use","id":"srv-1","name":"web_search","input":{}}`), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityInfo, "is used again"}, {0, check.SeverityError, `server_tool_use id "srv-1" does not match`}},
		},
		{
			name: "key order changed in an echoed input", check: "ANT-TOOL-005",
			exs: []call{
				{Req: requestBody("", user("w")), Resp: response(`{"type":"tool_use","id":"toolu_1","name":"f","input":{"b":1,"a":2}}`)},
				{Req: requestBody("", user("w"), assistant(`{"type":"tool_use","id":"toolu_1","name":"f","input":{"a":2,"b":1}}`), userBlocks(toolResult("toolu_1", "ok"))), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityWarning, "the same value re-encoded"}},
		},
		{
			name: "an encoder's HTML escapes in an echoed input", check: "ANT-TOOL-005",
			exs: []call{
				{Req: requestBody("", user("w")), Resp: response(`{"type":"tool_use","id":"toolu_1","name":"f","input":{"q":"<a> & b"}}`)},
				{Req: requestBody("", user("w"), assistant(`{"type":"tool_use","id":"toolu_1","name":"f","input":{"q":"\u003ca\u003e \u0026 b"}}`), userBlocks(toolResult("toolu_1", "ok"))), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityInfo, "other string escapes"}},
		},
		{
			name: "cancellation results: explained, flagged as errors", check: "ANT-CANCEL-001",
			exs: []call{{Req: requestBody("", user("w"), assistant(toolUse("toolu_1"), toolUse("toolu_2"), toolUse("toolu_3")),
				userBlocks(`{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"Cancelled by user before execution; no side effects."}`,
					`{"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":""}`,
					toolResult("toolu_3", "The user denied this tool call."), textBlock("[Request interrupted by user]"))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityInfo, "error tool_result for toolu_2 has no explanation"}, {0, check.SeverityInfo, "toolu_3 reads as a cancellation"}},
		},
		{
			name: "a cut-off thinking block echoed without signature", check: "ANT-CANCEL-002",
			exs: []call{
				{Req: requestBody(thinkOn, user("q")), Resp: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[]}}\n\n" +
					"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n" +
					"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Let me see\"}}\n\n"},
				{Req: requestBody(thinkOn, user("q"), assistant(`{"type":"thinking","thinking":"Let me see","signature":""}`), user("go on")), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityError, "whose stream was cut off before the block was finished"}},
		},
		{
			name: "the text of a cut-off stream persisted", check: "ANT-CANCEL-002",
			exs: []call{
				{Req: requestBody("", user("q")), Resp: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[]}}\n\n" +
					"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
					"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Day 1: Alfama. Day 2:\"}}\n\n"},
				{Req: requestBody("", user("q"), assistant(textBlock("Day 1: Alfama. Day 2:")), user("go on")), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityWarning, "keeps the partial answer of interaction 0"}},
		},
		{
			name: "the text of a cut-off stream kept with an interruption note", check: "ANT-CANCEL-002",
			exs: []call{
				{Req: requestBody("", user("q")), Resp: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[]}}\n\n" +
					"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
					"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Day 1: Alfama. Day 2:\"}}\n\n"},
				{Req: requestBody("", user("q"), assistant(textBlock("Day 1: Alfama. Day 2:")), user("[Request interrupted by user] go on")), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityInfo, "keeps the partial answer of interaction 0"}},
		},
		{
			name: "a tool_use cut by an error event, then echoed", check: "ANT-CANCEL-002",
			exs: []call{
				{Req: requestBody("", user("q")), Resp: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[]}}\n\n" +
					"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}}\n\n" +
					"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \\\"Pa\"}}\n\n" +
					"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"},
				{Req: requestBody("", user("q"), assistant(toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))},
			},
			want: []wantFinding{{1, check.SeverityError, "tool_use toolu_1 comes from"}},
		},
		{
			name: "the final assistant message may be empty", check: "ANT-MSG-001",
			exs: []call{{Req: requestBody("", user("q"), `{"role":"assistant","content":""}`), Resp: response(textBlock("ok"))}},
		},
		{
			name: "an empty message in the middle", check: "ANT-MSG-001",
			exs:  []call{{Req: requestBody("", user("q"), `{"role":"assistant","content":[]}`, user("q2")), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityError, "messages[1] (assistant) has empty content"}},
		},
		{
			name: "whitespace text beside a tool_use is accepted", check: "ANT-MSG-001",
			exs: []call{{Req: requestBody("", user("q"), assistant(textBlock(" "), toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))}},
		},
		{
			name: "empty text beside a tool_use is not", check: "ANT-MSG-001",
			exs:  []call{{Req: requestBody("", user("q"), assistant(textBlock(""), toolUse("toolu_1")), userBlocks(toolResult("toolu_1", "21C"))), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityError, "is empty"}},
		},
		{
			name: "a fault in history is reported where it was introduced", check: "ANT-MSG-001",
			exs: []call{
				{Req: requestBody("", user(" ")), Resp: response(textBlock("a"))},
				{Req: requestBody("", user(" "), assistant(textBlock("a")), user("q2")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{0, check.SeverityError, "messages[0] (user) has empty content"}},
		},
		{
			name: "and again when the provider rejected it", check: "ANT-MSG-001",
			exs: []call{
				{Req: requestBody("", user(" ")), Status: 400, Resp: `{"type":"error","error":{"type":"invalid_request_error","message":"messages: text content blocks must contain non-whitespace text"}}`},
				{Req: requestBody("", user(" ")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{0, check.SeverityError, "has empty content"}, {1, check.SeverityError, "has empty content"}},
		},
		{
			name: "roles repeat on Amazon Bedrock InvokeModel, answered 200", check: "ANT-MSG-002",
			exs: []call{{URL: "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1:0/invoke",
				Req: requestBody("", user("q"), user("q2")), Resp: response(textBlock("ok"))}},
			want: []wantFinding{{0, check.SeverityInfo, "second user message in a row"}},
		},
		{
			name: "roles repeat and the recorded response refused it", check: "ANT-MSG-002",
			exs: []call{{Req: requestBody("", user("q"), user("q2")), Status: 400,
				Resp: `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate between \"user\" and \"assistant\", but found multiple \"user\" roles in a row"}}`}},
			want: []wantFinding{{0, check.SeverityError, "second user message in a row"}},
		},
		{
			name: "a missing version header is reported once per cassette", check: "ANT-HDR-001",
			exs: []call{
				{Header: http.Header{"Content-Type": {"application/json"}}, Req: requestBody("", user("q")), Resp: response(textBlock("a"))},
				{Header: http.Header{"Content-Type": {"application/json"}}, Req: requestBody("", user("q2")), Resp: response(textBlock("b"))},
			},
			want: []wantFinding{{0, check.SeverityInfo, "2 of 2 recorded requests have no anthropic-version header"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.check+"/"+tt.name, func(t *testing.T) {
			c := checks.Lookup(tt.check)
			if c == nil {
				t.Fatalf("no check %s", tt.check)
			}
			got := check.Judge(trafficOf(t, tt.exs...), []*check.Check{c})
			if len(got) != len(tt.want) {
				t.Fatalf("got %d findings, want %d:\n%s", len(got), len(tt.want), checktest.FindingLines(got))
			}
			for _, w := range tt.want {
				found := false
				for _, f := range got {
					found = found || f.Interaction == w.i && f.Severity == w.sev && strings.Contains(f.Message, w.has)
				}
				if !found {
					t.Errorf("no %s finding at %d containing %q; got:\n%s", w.sev, w.i, w.has, checktest.FindingLines(got))
				}
			}
		})
	}
}

// A message judged in an accepted request is not judged again in a request
// that repeats it in the same context; one that repeats the request before
// it in memory (decoded through a memo) takes that over from it, and still
// judges again what the provider refused, and what it sends in another
// context.
func TestAnthropicFreshThroughAMemo(t *testing.T) {
	empty := `{"role":"assistant","content":[]}` // ANT-MSG-001, an error in the middle of a history
	history := []string{user("q1"), assistant(textBlock("a")), user("q2"), empty, user("q3")}
	calls := func(extra4 string) []call { // the fourth request's top-level fields ("" for none)
		return []call{
			{Req: requestBody("", history[:1]...), Resp: response(textBlock("a"))},
			{Req: requestBody("", history[:3]...), Resp: response(textBlock("b"))},
			{Req: requestBody("", history...), Resp: response(textBlock("c"))},
			{Req: requestBody(extra4, append(history, assistant(textBlock("c")), user("q4"))...), Resp: response(textBlock("d"))},
		}
	}
	refused := calls("")
	refused[2].Status = 400
	refused[2].Resp = `{"type":"error","error":{"type":"invalid_request_error","message":"messages.3: all messages must have non-empty content"}}`
	for _, tc := range []struct {
		name string
		exs  []call
		want []int // the interactions reported
	}{
		{"accepted: reported where it was introduced", calls(""), []int{2}},
		{"refused: reported again when repeated", refused, []int{2, 3}},
		{"another system prompt: judged again", calls(`"system":"be brief"`), []int{2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := trafficThrough(t, traffic.NewMemo(), tc.exs...)
			if !thread.StartsWith(tr.Exchanges[3].Request.Messages, tr.Exchanges[2].Request.Messages) {
				t.Fatal("the memo no longer hands the last request the messages of the one before: this test tests nothing")
			}
			var got []int
			for _, f := range check.Judge(tr, []*check.Check{checks.Lookup("ANT-MSG-001")}) {
				got = append(got, f.Interaction)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("interactions with ANT-MSG-001 findings mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// TestAnthropicLint judges a live request against the recorded history, as
// the proxy does: the echo is compared with the response two calls back.
func TestAnthropicLint(t *testing.T) {
	tr := trafficOf(t,
		call{Req: requestBody(thinkOn, user("q")), Resp: response(thinkingBlock("t", sigA), textBlock("a"))},
		call{Req: requestBody("", user("unrelated")), Resp: response(textBlock("x"))},
		call{Req: requestBody(thinkOn, user("q"), assistant(thinkingBlock("t!", sigA), textBlock("a")), user("q2"))},
	)
	got := checktest.LintNext(tr.Exchanges[:2], tr.Exchanges[2], []*check.Check{checks.Lookup("ANT-THINK-001")})
	if len(got) != 1 || got[0].Interaction != 2 || got[0].Diff == "" {
		t.Fatalf("want one ANT-THINK-001 finding with a byte diff at 2, got:\n%s", checktest.FindingLines(got))
	}
	if !strings.Contains(got[0].Diff, "first difference at byte 1") {
		t.Errorf("diff does not point at the edit:\n%s", got[0].Diff)
	}
}

// TestAnthropicLintJudgesAConfigurationOnce: ANT-THINK-011 judges a
// thinking configuration at the first request that sends it; live, the
// next turn of the conversation, which resends it, is not told again,
// though only that turn's findings are wanted.
func TestAnthropicLintJudgesAConfigurationOnce(t *testing.T) {
	onOpus46 := func(msgs ...string) string {
		return strings.Replace(requestBody(thinkOn, msgs...), "claude-sonnet-4-5", "claude-opus-4-6", 1)
	}
	tr := trafficOf(t,
		call{Req: onOpus46(user("q")), Resp: response(thinkingBlock("t", sigA), textBlock("a"))},
		call{Req: onOpus46(user("q"), assistant(thinkingBlock("t", sigA), textBlock("a")), user("q2"))},
	)
	cs := []*check.Check{checks.Lookup("ANT-THINK-011")}
	if got := checktest.LintNext(nil, tr.Exchanges[0], cs); len(got) != 1 || !strings.Contains(got[0].Message, "deprecated") {
		t.Fatalf("the first request: want one finding that manual thinking is deprecated, got:\n%s", checktest.FindingLines(got))
	}
	if got := checktest.LintNext(tr.Exchanges[:1], tr.Exchanges[1], cs); len(got) != 0 {
		t.Errorf("the next turn, which resends the configuration: want no finding, got:\n%s", checktest.FindingLines(got))
	}
}

// growingConversation builds n interactions of conversations that grow
// to turns turns each (then a new one starts): every request resends the
// whole history, each response thinks, says something and calls a tool.
func growingConversation(tb testing.TB, n, turns int) *check.Traffic {
	tb.Helper()
	thought := strings.Repeat("Weighing the options step by step. ", 6)
	var exs []call
	var history []string
	for i := 0; i < n; i++ {
		if i%turns == 0 {
			history = []string{user("Plan a trip, one tool call at a time.")}
		}
		id := fmt.Sprintf("toolu_%04d", i)
		sig := base64.StdEncoding.EncodeToString([]byte(strings.Repeat(fmt.Sprintf("signature %06d ", i), 16)))
		out := []string{thinkingBlock(thought+id, sig), textBlock("Checking " + id), toolUse(id)}
		exs = append(exs, call{Req: requestBody(thinkOn, history...), Resp: response(out...)})
		history = append(history, assistant(out...), userBlocks(toolResult(id, strings.Repeat("result data ", 15))))
	}
	return trafficOf(tb, exs...)
}

// familyChecks is every check of this family (ANT-EPH-* belong to the
// history checks).
func familyChecks() []*check.Check {
	var out []*check.Check
	for _, c := range checks.All() {
		if c.Wire == traffic.WireAnthropic && !strings.HasPrefix(c.ID, "ANT-EPH-") {
			out = append(out, c)
		}
	}
	return out
}

// BenchmarkAnthropicChecks judges 1,000 interactions of conversations that
// grow to 200 turns (about 200,000 messages resent in all) with the whole
// Anthropic family. A fresh check.Traffic each time defeats the analysis cache.
func BenchmarkAnthropicChecks(b *testing.B) {
	tr := growingConversation(b, 1000, 200)
	checks := familyChecks()
	b.ResetTimer()
	for b.Loop() {
		if fs := check.Judge(&check.Traffic{Exchanges: tr.Exchanges}, checks); len(fs) != 0 {
			b.Fatalf("clean traffic raised:\n%s", checktest.FindingLines(fs[:min(len(fs), 5)]))
		}
	}
}

// TestAnthropicChecksScale checks the family stays linear: four times the
// traffic must cost about four times as much, far from the sixteen times of
// a quadratic walk. The cost is counted in bytes allocated, not wall-clock
// time, which failed under load (issue 15).
func TestAnthropicChecksScale(t *testing.T) {
	small, large := growingConversation(t, 200, 25), growingConversation(t, 800, 25)
	checks := familyChecks()
	measure := func(tr *check.Traffic) uint64 { return checktest.AllocatedJudging(tr, checks) }
	if s, l := measure(small), measure(large); l > 8*s {
		t.Errorf("200 interactions allocated %d bytes, 800 allocated %d: not linear", s, l)
	} else {
		t.Logf("200 interactions: %d bytes, 800: %d bytes (%.1f×)", s, l, float64(l)/float64(s))
	}
}

// FuzzAnthropicChecks feeds the family two calls whose bodies are anything
// that decodes: no check may panic, whatever shape the history has.
func FuzzAnthropicChecks(f *testing.F) {
	for _, path := range corpus.Files(f) {
		c, err := cassette.Load(path)
		if err != nil || len(c.Interactions) < 2 || !strings.Contains(c.Interactions[0].Request.URL, "anthropic") {
			continue
		}
		in := c.Interactions
		if corpus.FuzzSeed(in[0].Request.Body, in[0].Response.Body, in[1].Request.Body, in[1].Response.Body) {
			f.Add(in[0].Request.Body, in[0].Response.Body, in[1].Request.Body, in[1].Response.Body)
		}
	}
	f.Add([]byte(requestBody(thinkOn, user("w"))), []byte(response(thinkingBlock("t", sigA), redacted(sigB), toolUse("toolu_1"))),
		[]byte(requestBody(thinkOn, user("w"), assistant(redacted(sigB), toolUse("toolu_1"), thinkingBlock("", "")), userBlocks(textBlock(""), toolResult("toolu_1", "")))),
		[]byte(response()))
	// A configuration judged once, at its first request (ANT-THINK-011),
	// resent by the next turn.
	onOpus46 := func(msgs ...string) []byte {
		return []byte(strings.Replace(requestBody(thinkOn, msgs...), "claude-sonnet-4-5", "claude-opus-4-6", 1))
	}
	f.Add(onOpus46(user("q")), []byte(response(thinkingBlock("t", sigA), textBlock("a"))),
		onOpus46(user("q"), assistant(thinkingBlock("t", sigA), textBlock("a")), user("q2")), []byte(response(textBlock("b"))))
	checks := familyChecks()
	f.Fuzz(func(t *testing.T, req0, resp0, req1, resp1 []byte) {
		var exs []traffic.Exchange
		for i, body := range [][2][]byte{{req0, resp0}, {req1, resp1}} {
			exs = append(exs, providers.Decode(i, providers.Call{Method: "POST", URL: messagesURL, Wire: traffic.WireAnthropic,
				RequestBody: body[0], Status: 200, ResponseBody: body[1]}))
		}
		whole := check.Judge(&check.Traffic{Exchanges: exs}, checks)
		for _, fd := range whole {
			if fd.Check == "" || fd.Message == "" {
				t.Fatalf("finding without check or message: %+v", fd)
			}
		}
		checktest.LastJudgedLiveAsWhole(t, exs, checks, whole)
	})
}
