package anthropic_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks/anthropic"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

// Real Anthropic traffic the family's fixtures are made from.
const (
	srcAntToolThinking = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_tool_with_thinking.yaml"
	srcAntThinking     = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_model_thinking_part.yaml"
	srcAntRedacted     = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_model_thinking_part_redacted.yaml"
	srcAntRoundTrip    = "pydantic__pydantic-ai/tests__cassettes__test_cache_prefix_stability__test_anthropic_thinking_roundtrip_wire_stable[vercel].yaml"
	srcAntPauseTurn    = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_pause_turn_web_search_streaming_vcr.yaml"
	srcAntLegacyStream = "traceloop__openllmetry/packages__opentelemetry-instrumentation-anthropic__tests__cassettes__test_thinking__test_anthropic_thinking_streaming_legacy.yaml"
	srcAntHTTPRR       = "tmc__langchaingo/llms__anthropic__internal__anthropicclient__testdata__TestClient_CreateMessageStream.httprr"
	// cagent's streamed tool call.
	srcAnthropicToolStream = "docker__cagent/e2e__testdata__cassettes__TestExec_Anthropic_ToolCall.yaml"
)

// The cagent recording's tool call, and its assistant message in request 1.
const cagentToolID = "toolu_012gmfqnoTX8c5aV3vMWUnas"

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, anthropic.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	checktest.Fixture{Check: "ANT-THINK-001", Name: "real-three-turn-round-trip", Pass: true, Source: srcAntRoundTrip},
	checktest.Fixture{Check: "ANT-THINK-001", Name: "signature-byte-flipped", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { flipByte(t, c, 1, "messages.1.content.0.signature", 40) }},
	checktest.Fixture{Check: "ANT-THINK-001", Name: "redacted-data-byte-flipped", Interaction: 1, Source: srcAntRedacted,
		Mutate: func(t *testing.T, c *cassette.Cassette) { flipByte(t, c, 1, "messages.1.content.0.data", 40) }},
	checktest.Fixture{Check: "ANT-THINK-001", Name: "thinking-text-rewrapped", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			editString(t, c, 1, "messages.1.content.0.thinking", func(s string) string { return strings.Replace(s, "\n\n", "\n", 1) })
		}},

	checktest.Fixture{Check: "ANT-THINK-002", Name: "real-redacted-echo", Pass: true, Source: srcAntRedacted},
	checktest.Fixture{Check: "ANT-THINK-002", Name: "signature-deleted", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 1, "messages.1.content.0.signature")
		}},

	checktest.Fixture{Check: "ANT-THINK-003", Name: "real-redacted-echo", Pass: true, Source: srcAntRedacted},
	checktest.Fixture{Check: "ANT-THINK-003", Name: "gemini-dummy-signature", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.1.content.0.signature", `"skip_thought_signature_validator"`)
		}},
	checktest.Fixture{Check: "ANT-THINK-003", Name: "synthesized-thinking-block", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			sig := base64.StdEncoding.EncodeToString([]byte("a thinking block the harness made up to satisfy thinking-first"))
			insert(t, c, 1, "messages.1.content", 0, `{"type":"thinking","thinking":"I should list the directory.","signature":"`+sig+`"}`)
		}},

	checktest.Fixture{Check: "ANT-THINK-004", Name: "real-tool-loop-with-thinking", Pass: true, Source: srcAntToolThinking},
	checktest.Fixture{Check: "ANT-THINK-004", Name: "thinking-dropped-from-tool-loop", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "messages.1.content.0") }},

	checktest.Fixture{Check: "ANT-THINK-005", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	checktest.Fixture{Check: "ANT-THINK-005", Name: "text-before-thinking", Interaction: 1, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { swap(t, c, 1, "messages.1.content", 0, 1) }},

	checktest.Fixture{Check: "ANT-THINK-006", Name: "real-pause-turn-continuation", Pass: true, Source: srcAntPauseTurn},
	checktest.Fixture{Check: "ANT-THINK-006", Name: "continuation-without-thinking-config", Interaction: 1, Source: srcAntPauseTurn,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "thinking") }},

	checktest.Fixture{Check: "ANT-THINK-007", Name: "real-tool-loop-with-thinking", Pass: true, Source: srcAntToolThinking},
	checktest.Fixture{Check: "ANT-THINK-007", Name: "budget-changed-mid-loop", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "thinking.budget_tokens", "2000") }},

	checktest.Fixture{Check: "ANT-THINK-008", Name: "real-tool-choice-auto", Pass: true, Source: srcAntToolThinking},
	checktest.Fixture{Check: "ANT-THINK-008", Name: "tool-choice-any", Interaction: 0, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 0, "tool_choice", `{"type":"any"}`) }},

	checktest.Fixture{Check: "ANT-THINK-009", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	checktest.Fixture{Check: "ANT-THINK-009", Name: "system-prompt-added", Interaction: 1, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "system", `"Today is Monday."`) }},
	checktest.Fixture{Check: "ANT-THINK-009", Name: "tool-description-edited", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "tools.0.description", `"Returns the user's country."`)
		}},

	checktest.Fixture{Check: "ANT-THINK-010", Name: "real-tool-loop-with-thinking", Pass: true, Source: srcAntToolThinking},
	checktest.Fixture{Check: "ANT-THINK-010", Name: "thinking-moved-after-text", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { swap(t, c, 1, "messages.1.content", 0, 1) }},

	checktest.Fixture{Check: "ANT-THINK-011", Name: "real-minimum-budget", Pass: true, Source: srcAntThinking},
	// Two changes for a pass fixture: the beta header is what allows the budget.
	checktest.Fixture{Check: "ANT-THINK-011", Name: "interleaved-budget-above-max-tokens", Pass: true, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[0].Request.Header.Set("Anthropic-Beta", "interleaved-thinking-2025-05-14")
			checktest.SetJSON(t, c, 0, "thinking.budget_tokens", "8000")
		}},
	checktest.Fixture{Check: "ANT-THINK-011", Name: "budget-not-below-max-tokens", Interaction: 0, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 0, "thinking.budget_tokens", "4096") }},

	checktest.Fixture{Check: "ANT-TOOL-001", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-TOOL-001", Name: "tool-result-dropped", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "messages.2.content.0") }},

	checktest.Fixture{Check: "ANT-TOOL-002", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-TOOL-002", Name: "tool-use-message-dropped", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "messages.1") }},

	checktest.Fixture{Check: "ANT-TOOL-003", Name: "real-tool-result", Pass: true, Source: srcAntToolThinking},
	checktest.Fixture{Check: "ANT-TOOL-003", Name: "text-before-tool-result", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			insert(t, c, 1, "messages.2.content", 0, `{"type":"text","text":"Here is the tool output."}`)
		}},

	checktest.Fixture{Check: "ANT-TOOL-004", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-TOOL-004", Name: "foreign-tool-id", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			renameAll(t, c, 1, cagentToolID, "functions.list_directory:0")
		}},

	checktest.Fixture{Check: "ANT-TOOL-005", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-TOOL-005", Name: "tool-input-changed", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.1.content.0.input", `{"path":"testdata/working_dir/"}`)
		}},

	checktest.Fixture{Check: "ANT-CANCEL-001", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-CANCEL-001", Name: "interrupted-without-tool-result", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.2.content.0", `{"type":"text","text":"[Request interrupted by user for tool use]"}`)
		}},

	checktest.Fixture{Check: "ANT-CANCEL-002", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	checktest.Fixture{Check: "ANT-CANCEL-002", Name: "tool-input-cut-then-echoed", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.TruncateAt(t, c, 0, `data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}`)
		}},
	// An error event ends the stream with the tool input unfinished; the
	// next request still echoes the call.
	checktest.Fixture{Check: "ANT-CANCEL-002", Name: "tool-input-cut-by-error-event", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.TruncateAt(t, c, 0, "event: content_block_delta\n"+`data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}`)
			body := checktest.Body(t, c, 0, "response")
			*body = append(*body, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"...)
		}},

	checktest.Fixture{Check: "ANT-MSG-001", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	checktest.Fixture{Check: "ANT-MSG-001", Name: "blank-user-text", Interaction: 1, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.2.content.0.text", `" \n"`)
		}},
	// The API takes a whitespace-only text block beside other content
	// (LibreChat-AI/agents#124 tried the shapes on the API).
	checktest.Fixture{Check: "ANT-MSG-001", Name: "whitespace-text-beside-tool-use", Pass: true, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.1.content.1.text", `" "`)
		}},
	checktest.Fixture{Check: "ANT-MSG-001", Name: "empty-text-beside-tool-use", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.1.content.1.text", `""`)
		}},

	checktest.Fixture{Check: "ANT-MSG-002", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	checktest.Fixture{Check: "ANT-MSG-002", Name: "second-user-message", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.-1", `{"role":"user","content":"Answer in one sentence."}`)
		}},

	checktest.Fixture{Check: "ANT-HDR-001", Name: "real-placeholder-api-key", Pass: true, Source: srcAntHTTPRR},
	checktest.Fixture{Check: "ANT-HDR-001", Name: "version-header-dropped", Interaction: 0, Source: srcAntLegacyStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { delHeader(t, c, 0, "Anthropic-Version") }},

	checktest.Fixture{Check: "ANT-EPH-001", Name: "real-thinking-roundtrip", Pass: true, Source: srcAntRoundTrip},
	checktest.Fixture{Check: "ANT-EPH-001", Name: "reminder-before-echoed-thinking", Interaction: 1, Source: srcAntRoundTrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 0, "messages.-1", reminder) }},

	checktest.Fixture{Check: "ANT-EPH-002", Name: "real-tool-with-thinking", Pass: true, Source: srcAntToolThinking},
	checktest.Fixture{Check: "ANT-EPH-002", Name: "reminder-at-tail", Pass: true, Source: srcAntRoundTrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 0, "messages.-1", reminder) }},
	// No Anthropic recording continues after a tool result: hand-built.
	checktest.Fixture{Check: "ANT-EPH-002", Name: "handbuilt-reminder-before-tool-result", Interaction: 0, Build: buildReminderInPair},
}

// requestString reads the string at a gjson path of interaction i's
// request body, failing when it is not a string.
func requestString(t *testing.T, c *cassette.Cassette, i int, path string) string {
	t.Helper()
	v := gjson.GetBytes(*checktest.Body(t, c, i, "request"), path)
	if v.Type != gjson.String {
		t.Fatalf("interaction %d: %s is %s, want a string", i, path, v.Type)
	}
	return v.Str
}

// editString replaces the string at path with edit's result, which must differ.
func editString(t *testing.T, c *cassette.Cassette, i int, path string, edit func(string) string) {
	t.Helper()
	old := requestString(t, c, i, path)
	s := edit(old)
	if s == old {
		t.Fatalf("interaction %d: editing %s changed nothing", i, path)
	}
	body := checktest.Body(t, c, i, "request")
	out, err := sjson.SetBytes(*body, path, s)
	if err != nil {
		t.Fatal(err)
	}
	*body = out
}

// flipByte changes the character at offset at of the string at path (a
// signature or data token) to another base64 character.
func flipByte(t *testing.T, c *cassette.Cassette, i int, path string, at int) {
	t.Helper()
	editString(t, c, i, path, func(s string) string {
		if at >= len(s) {
			t.Fatalf("%s has %d characters, no offset %d", path, len(s), at)
		}
		flip := byte('A')
		if s[at] == 'A' {
			flip = 'B'
		}
		return s[:at] + string(flip) + s[at+1:]
	})
}

// swap exchanges elements x and y of the array at path.
func swap(t *testing.T, c *cassette.Cassette, i int, path string, x, y int) {
	t.Helper()
	items := array(t, c, i, path)
	if x >= len(items) || y >= len(items) {
		t.Fatalf("interaction %d: %s has %d elements", i, path, len(items))
	}
	items[x], items[y] = items[y], items[x]
	checktest.SetJSON(t, c, i, path, "["+strings.Join(items, ",")+"]")
}

// insert inserts raw JSON as element at of the array at path.
func insert(t *testing.T, c *cassette.Cassette, i int, path string, at int, raw string) {
	t.Helper()
	items := array(t, c, i, path)
	items = append(items[:at], append([]string{raw}, items[at:]...)...)
	checktest.SetJSON(t, c, i, path, "["+strings.Join(items, ",")+"]")
}

func array(t *testing.T, c *cassette.Cassette, i int, path string) []string {
	t.Helper()
	v := gjson.GetBytes(*checktest.Body(t, c, i, "request"), path)
	if !v.IsArray() {
		t.Fatalf("interaction %d: %s is not an array", i, path)
	}
	var items []string
	for _, e := range v.Array() {
		items = append(items, e.Raw)
	}
	return items
}

// renameAll replaces every occurrence of old in interaction i's request
// body: renaming an id in the call and its result is one change.
func renameAll(t *testing.T, c *cassette.Cassette, i int, old, new string) {
	t.Helper()
	body := checktest.Body(t, c, i, "request")
	if !strings.Contains(string(*body), old) {
		t.Fatalf("interaction %d: %q not in the request", i, old)
	}
	*body = []byte(strings.ReplaceAll(string(*body), old, new))
}

func delHeader(t *testing.T, c *cassette.Cassette, i int, name string) {
	t.Helper()
	h := c.Interactions[i].Request.Header
	if h.Get(name) == "" {
		t.Fatalf("interaction %d: no %s header", i, name)
	}
	h.Del(name)
}

// reminder is the ephemeral message the fixtures add: sent once, at the
// tail, the way harnesses append a status line for one request.
const reminder = `{"role":"user","content":[{"type":"text","text":"<system-reminder>The working tree has 2 modified files.</system-reminder>"}]}`

// buildReminderInPair: a reminder sent once at the start of the user
// message that carries the tool result, then left out — so it sat inside
// the tool pair.
func buildReminderInPair(t *testing.T) *cassette.Cassette {
	const sys = "You are a coding agent working in the user's repository."
	u1 := userBlocks(textBlock("What does parse() return for an empty input?"))
	a1 := assistant(thinkingBlock("I should read the parser.", "EqQBCkYIBxgCKkBzhNq3vJ2lW0hSignedThinkingFixture=="), ephToolUse("toolu_01Pq7Rt", "read_file"))
	return &cassette.Cassette{Interactions: []*cassette.Interaction{
		ephInteraction(ephBody(sys, u1, a1,
			userBlocks(textBlock("<system-reminder>The working tree has 2 modified files.</system-reminder>"),
				toolResult("toolu_01Pq7Rt", "func parse(s string) (int, error) { if s == \"\" { return 0, ErrEmpty } … }"))),
			ephResponse(textBlock("It returns 0 and ErrEmpty."))),
		ephInteraction(ephBody(sys, u1, a1,
			userBlocks(toolResult("toolu_01Pq7Rt", "func parse(s string) (int, error) { if s == \"\" { return 0, ErrEmpty } … }")),
			assistant(textBlock("It returns 0 and ErrEmpty.")),
			userBlocks(textBlock("Thanks."))),
			ephResponse(textBlock("You're welcome."))),
	}}
}

// The hand-built ephemeral fixtures' bodies: a coding agent's request
// with a system prompt, its tool call and the response.

func ephBody(system string, msgs ...string) string {
	return fmt.Sprintf(`{"model":"claude-sonnet-4-5","max_tokens":2048,"system":%q,"messages":[%s]}`, system, strings.Join(msgs, ","))
}

func ephToolUse(id, name string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":{"path":"parser_test.go"}}`, id, name)
}

func ephResponse(blocks ...string) string {
	return `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[` +
		strings.Join(blocks, ",") + `],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
}

func ephInteraction(req, resp string) *cassette.Interaction {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	return &cassette.Interaction{
		Request: cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages",
			Header: h("Content-Type", "application/json", "Anthropic-Version", "2023-06-01", "X-Api-Key", "<redacted>"),
			Body:   []byte(req)},
		Response: cassette.Response{Status: 200, StatusText: "200 OK",
			Header: h("Content-Type", "application/json"), Body: []byte(resp)},
	}
}
