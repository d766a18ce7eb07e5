package checks_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/llmtck/llmtck/cassette"
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
	// srcAnthropicToolStream (fixtures_stream_test.go) is cagent's streamed tool call.
)

// The cagent recording's tool call, and its assistant message in request 1.
const antCagentToolID = "toolu_012gmfqnoTX8c5aV3vMWUnas"

var anthropicFixtures = []fixtureSpec{
	fixtureSpec{Check: "ANT-THINK-001", Name: "real-three-turn-round-trip", Pass: true, Source: srcAntRoundTrip},
	fixtureSpec{Check: "ANT-THINK-001", Name: "signature-byte-flipped", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { antFlipByte(t, c, 1, "messages.1.content.0.signature", 40) }},
	fixtureSpec{Check: "ANT-THINK-001", Name: "redacted-data-byte-flipped", Interaction: 1, Source: srcAntRedacted,
		Mutate: func(t *testing.T, c *cassette.Cassette) { antFlipByte(t, c, 1, "messages.1.content.0.data", 40) }},
	fixtureSpec{Check: "ANT-THINK-001", Name: "thinking-text-rewrapped", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			antEditString(t, c, 1, "messages.1.content.0.thinking", func(s string) string { return strings.Replace(s, "\n\n", "\n", 1) })
		}},

	fixtureSpec{Check: "ANT-THINK-002", Name: "real-redacted-echo", Pass: true, Source: srcAntRedacted},
	fixtureSpec{Check: "ANT-THINK-002", Name: "signature-deleted", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "messages.1.content.0.signature") }},

	fixtureSpec{Check: "ANT-THINK-003", Name: "real-redacted-echo", Pass: true, Source: srcAntRedacted},
	fixtureSpec{Check: "ANT-THINK-003", Name: "gemini-dummy-signature", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "messages.1.content.0.signature", `"skip_thought_signature_validator"`)
		}},
	fixtureSpec{Check: "ANT-THINK-003", Name: "synthesized-thinking-block", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			sig := base64.StdEncoding.EncodeToString([]byte("a thinking block the harness made up to satisfy thinking-first"))
			antInsert(t, c, 1, "messages.1.content", 0, `{"type":"thinking","thinking":"I should list the directory.","signature":"`+sig+`"}`)
		}},

	fixtureSpec{Check: "ANT-THINK-004", Name: "real-tool-loop-with-thinking", Pass: true, Source: srcAntToolThinking},
	fixtureSpec{Check: "ANT-THINK-004", Name: "thinking-dropped-from-tool-loop", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "messages.1.content.0") }},

	fixtureSpec{Check: "ANT-THINK-005", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	fixtureSpec{Check: "ANT-THINK-005", Name: "text-before-thinking", Interaction: 1, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { antSwap(t, c, 1, "messages.1.content", 0, 1) }},

	fixtureSpec{Check: "ANT-THINK-006", Name: "real-pause-turn-continuation", Pass: true, Source: srcAntPauseTurn},
	fixtureSpec{Check: "ANT-THINK-006", Name: "continuation-without-thinking-config", Interaction: 1, Source: srcAntPauseTurn,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "thinking") }},

	fixtureSpec{Check: "ANT-THINK-007", Name: "real-tool-loop-with-thinking", Pass: true, Source: srcAntToolThinking},
	fixtureSpec{Check: "ANT-THINK-007", Name: "budget-changed-mid-loop", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "thinking.budget_tokens", "2000") }},

	fixtureSpec{Check: "ANT-THINK-008", Name: "real-tool-choice-auto", Pass: true, Source: srcAntToolThinking},
	fixtureSpec{Check: "ANT-THINK-008", Name: "tool-choice-any", Interaction: 0, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 0, "tool_choice", `{"type":"any"}`) }},

	fixtureSpec{Check: "ANT-THINK-009", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	fixtureSpec{Check: "ANT-THINK-009", Name: "system-prompt-added", Interaction: 1, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "system", `"Today is Monday."`) }},
	fixtureSpec{Check: "ANT-THINK-009", Name: "tool-description-edited", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "tools.0.description", `"Returns the user's country."`)
		}},

	fixtureSpec{Check: "ANT-THINK-010", Name: "real-tool-loop-with-thinking", Pass: true, Source: srcAntToolThinking},
	fixtureSpec{Check: "ANT-THINK-010", Name: "thinking-moved-after-text", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { antSwap(t, c, 1, "messages.1.content", 0, 1) }},

	fixtureSpec{Check: "ANT-THINK-011", Name: "real-minimum-budget", Pass: true, Source: srcAntThinking},
	// Two changes for a pass fixture: the beta header is what allows the budget.
	fixtureSpec{Check: "ANT-THINK-011", Name: "interleaved-budget-above-max-tokens", Pass: true, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[0].Request.Header.Set("Anthropic-Beta", "interleaved-thinking-2025-05-14")
			setJSON(t, c, 0, "thinking.budget_tokens", "8000")
		}},
	fixtureSpec{Check: "ANT-THINK-011", Name: "budget-not-below-max-tokens", Interaction: 0, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 0, "thinking.budget_tokens", "4096") }},

	fixtureSpec{Check: "ANT-TOOL-001", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	fixtureSpec{Check: "ANT-TOOL-001", Name: "tool-result-dropped", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "messages.2.content.0") }},

	fixtureSpec{Check: "ANT-TOOL-002", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	fixtureSpec{Check: "ANT-TOOL-002", Name: "tool-use-message-dropped", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "messages.1") }},

	fixtureSpec{Check: "ANT-TOOL-003", Name: "real-tool-result", Pass: true, Source: srcAntToolThinking},
	fixtureSpec{Check: "ANT-TOOL-003", Name: "text-before-tool-result", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			antInsert(t, c, 1, "messages.2.content", 0, `{"type":"text","text":"Here is the tool output."}`)
		}},

	fixtureSpec{Check: "ANT-TOOL-004", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	fixtureSpec{Check: "ANT-TOOL-004", Name: "foreign-tool-id", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			antRenameAll(t, c, 1, antCagentToolID, "functions.list_directory:0")
		}},

	fixtureSpec{Check: "ANT-TOOL-005", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	fixtureSpec{Check: "ANT-TOOL-005", Name: "tool-input-changed", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "messages.1.content.0.input", `{"path":"testdata/working_dir/"}`)
		}},

	fixtureSpec{Check: "ANT-CANCEL-001", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	fixtureSpec{Check: "ANT-CANCEL-001", Name: "interrupted-without-tool-result", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "messages.2.content.0", `{"type":"text","text":"[Request interrupted by user for tool use]"}`)
		}},

	fixtureSpec{Check: "ANT-CANCEL-002", Name: "real-tool-call", Pass: true, Source: srcAnthropicToolStream},
	fixtureSpec{Check: "ANT-CANCEL-002", Name: "tool-input-cut-then-echoed", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			truncateAt(t, c, 0, `data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}`)
		}},
	// An error event ends the stream with the tool input unfinished; the
	// next request still echoes the call.
	fixtureSpec{Check: "ANT-CANCEL-002", Name: "tool-input-cut-by-error-event", Interaction: 1, Source: srcAnthropicToolStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			truncateAt(t, c, 0, "event: content_block_delta\n"+`data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}`)
			body := bodyOf(t, c, 0, "response")
			*body = append(*body, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"...)
		}},

	fixtureSpec{Check: "ANT-MSG-001", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	fixtureSpec{Check: "ANT-MSG-001", Name: "blank-user-text", Interaction: 1, Source: srcAntThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "messages.2.content.0.text", `" \n"`) }},
	// The API takes a whitespace-only text block beside other content
	// (LibreChat-AI/agents#124 tried the shapes on the API).
	fixtureSpec{Check: "ANT-MSG-001", Name: "whitespace-text-beside-tool-use", Pass: true, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "messages.1.content.1.text", `" "`) }},
	fixtureSpec{Check: "ANT-MSG-001", Name: "empty-text-beside-tool-use", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 1, "messages.1.content.1.text", `""`) }},

	fixtureSpec{Check: "ANT-MSG-002", Name: "real-thinking-echo", Pass: true, Source: srcAntThinking},
	fixtureSpec{Check: "ANT-MSG-002", Name: "second-user-message", Interaction: 1, Source: srcAntToolThinking,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "messages.-1", `{"role":"user","content":"Answer in one sentence."}`)
		}},

	fixtureSpec{Check: "ANT-HDR-001", Name: "real-placeholder-api-key", Pass: true, Source: srcAntHTTPRR},
	fixtureSpec{Check: "ANT-HDR-001", Name: "version-header-dropped", Interaction: 0, Source: srcAntLegacyStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { antDelHeader(t, c, 0, "Anthropic-Version") }},
}

// antRequestString reads the string at a gjson path of interaction i's
// request body, failing when it is not a string.
func antRequestString(t *testing.T, c *cassette.Cassette, i int, path string) string {
	t.Helper()
	v := gjson.GetBytes(*bodyOf(t, c, i, "request"), path)
	if v.Type != gjson.String {
		t.Fatalf("interaction %d: %s is %s, want a string", i, path, v.Type)
	}
	return v.Str
}

// antEditString replaces the string at path with edit's result, which must differ.
func antEditString(t *testing.T, c *cassette.Cassette, i int, path string, edit func(string) string) {
	t.Helper()
	old := antRequestString(t, c, i, path)
	s := edit(old)
	if s == old {
		t.Fatalf("interaction %d: editing %s changed nothing", i, path)
	}
	body := bodyOf(t, c, i, "request")
	out, err := sjson.SetBytes(*body, path, s)
	if err != nil {
		t.Fatal(err)
	}
	*body = out
}

// antFlipByte changes the character at offset at of the string at path (a
// signature or data token) to another base64 character.
func antFlipByte(t *testing.T, c *cassette.Cassette, i int, path string, at int) {
	t.Helper()
	antEditString(t, c, i, path, func(s string) string {
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

// antSwap exchanges elements x and y of the array at path.
func antSwap(t *testing.T, c *cassette.Cassette, i int, path string, x, y int) {
	t.Helper()
	items := antArray(t, c, i, path)
	if x >= len(items) || y >= len(items) {
		t.Fatalf("interaction %d: %s has %d elements", i, path, len(items))
	}
	items[x], items[y] = items[y], items[x]
	setJSON(t, c, i, path, "["+strings.Join(items, ",")+"]")
}

// antInsert inserts raw JSON as element at of the array at path.
func antInsert(t *testing.T, c *cassette.Cassette, i int, path string, at int, raw string) {
	t.Helper()
	items := antArray(t, c, i, path)
	items = append(items[:at], append([]string{raw}, items[at:]...)...)
	setJSON(t, c, i, path, "["+strings.Join(items, ",")+"]")
}

func antArray(t *testing.T, c *cassette.Cassette, i int, path string) []string {
	t.Helper()
	v := gjson.GetBytes(*bodyOf(t, c, i, "request"), path)
	if !v.IsArray() {
		t.Fatalf("interaction %d: %s is not an array", i, path)
	}
	var items []string
	for _, e := range v.Array() {
		items = append(items, e.Raw)
	}
	return items
}

// antRenameAll replaces every occurrence of old in interaction i's request
// body: renaming an id in the call and its result is one change.
func antRenameAll(t *testing.T, c *cassette.Cassette, i int, old, new string) {
	t.Helper()
	body := bodyOf(t, c, i, "request")
	if !strings.Contains(string(*body), old) {
		t.Fatalf("interaction %d: %q not in the request", i, old)
	}
	*body = []byte(strings.ReplaceAll(string(*body), old, new))
}

func antDelHeader(t *testing.T, c *cassette.Cassette, i int, name string) {
	t.Helper()
	h := c.Interactions[i].Request.Header
	if h.Get(name) == "" {
		t.Fatalf("interaction %d: no %s header", i, name)
	}
	h.Del(name)
}
