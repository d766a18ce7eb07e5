package responses_test

import (
	"encoding/json"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
	"github.com/llmtck/llmtck/conformance/checks/responses"
	"github.com/llmtck/llmtck/internal/rawjson"
)

const (
	srcResponsesTools      = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
	srcResponsesEdited     = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml"
	srcResponsesRejected   = "docker__cagent/e2e__testdata__cassettes__TestExec_ToolCallsNeedAcceptance.yaml"
	srcResponsesOtherModel = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_thinking_with_tool_calls_from_other_model.yaml"
	srcResponsesStream     = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_phase_streamed_on_part_start.yaml"
	srcResponsesToolCalls  = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
)

// Real recordings of the wave2 set, relative to the corpus root.
const srcXAIResponses = "wave2/0xPlaygrounds__rig/tests__cassettes__xai__reasoning_tool_roundtrip__streaming.yaml"

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, responses.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	checktest.Fixture{Check: "OAI-RSN-001", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "OAI-RSN-001", Name: "real-reasoning-stream", Pass: true, Source: srcResponsesStream},
	// xAI's Responses API took a reasoning item followed by its function call
	// echoed without the fc_ id (rig's recording, 200).
	checktest.Fixture{Check: "OAI-RSN-001", Name: "real-xai-call-echoed-without-id", Pass: true, Source: srcXAIResponses},
	// OpenAI answered 200 to a call echoed without its id whose call_id is
	// the fc_ id the reasoning produced: a call without id is matched by
	// its type, not its call_id.
	checktest.Fixture{Check: "OAI-RSN-001", Name: "call-without-id-call-id-is-item-id", Pass: true, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 1, "input.2.id")
			checktest.SetJSON(t, c, 1, "input.2.call_id", `"fc_68c42d3e9e4881968b15fbb8253f58540e8bc41441c948f6"`)
			checktest.SetJSON(t, c, 1, "input.3.call_id", `"fc_68c42d3e9e4881968b15fbb8253f58540e8bc41441c948f6"`)
		}},
	// The corpus's real violation: the API answered 400 here.
	checktest.Fixture{Check: "OAI-RSN-001", Name: "real-edited-history-rejected", Interaction: 1, Source: srcResponsesEdited},
	checktest.Fixture{Check: "OAI-RSN-001", Name: "reasoning-moved-after-call", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { moveItem(t, c, 1, "input", 1, 2) }},

	checktest.Fixture{Check: "OAI-RSN-002", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "OAI-RSN-002", Name: "real-call-id-dropped-with-reasoning", Pass: true, Source: srcResponsesRejected},
	checktest.Fixture{Check: "OAI-RSN-002", Name: "reasoning-dropped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "input.1") }},

	checktest.Fixture{Check: "OAI-RSN-003", Name: "real-stored", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "OAI-RSN-003", Name: "stateless-with-encrypted-content", Pass: true, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "store", "false") }},
	// One harness mistake, two bytes of JSON: turning store off while
	// keeping reasoning items by id only.
	checktest.Fixture{Check: "OAI-RSN-003", Name: "stateless-id-only-reasoning", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "store", "false")
			checktest.DeleteJSON(t, c, 1, "input.1.encrypted_content")
		}},

	checktest.Fixture{Check: "OAI-RSN-004", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "OAI-RSN-004", Name: "real-reasoning-stream", Pass: true, Source: srcResponsesStream},
	checktest.Fixture{Check: "OAI-RSN-004", Name: "real-cross-provider-history", Pass: true, Source: srcResponsesOtherModel},
	checktest.Fixture{Check: "OAI-RSN-004", Name: "encrypted-content-byte-flipped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 1, "request", `Mq865810g==`, `Mq865811g==`)
		}},
	// Sent back without its id (Ruby and Python SDK users do): still compared,
	// matched by the function call that follows it.
	checktest.Fixture{Check: "OAI-RSN-004", Name: "id-less-encrypted-content-byte-flipped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 1, "input.1.id")
			checktest.ReplaceOnce(t, c, 1, "request", `Mq865810g==`, `Mq865811g==`)
		}},
	checktest.Fixture{Check: "OAI-RSN-004", Name: "streamed-encrypted-content-byte-flipped", Interaction: 1, Source: srcResponsesStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 1, "request", `UcqGK8PU="`, `UcqGK9PU="`)
		}},

	checktest.Fixture{Check: "OAI-RSN-005", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "OAI-RSN-005", Name: "switched-to-gpt-4-1", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "model", `"gpt-4.1"`) }},
	checktest.Fixture{Check: "OAI-RSN-005", Name: "switched-to-another-family", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "model", `"o4-mini"`) }},

	checktest.Fixture{Check: "OAI-TOOL-010", Name: "real-rejected-call-answered", Pass: true, Source: srcResponsesRejected},
	checktest.Fixture{Check: "OAI-TOOL-010", Name: "function-call-output-dropped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "input.3") }},

	checktest.Fixture{Check: "OAI-TOOL-011", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "OAI-TOOL-011", Name: "function-call-dropped", Interaction: 1, Source: srcResponsesRejected,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "input.3") }},

	checktest.Fixture{Check: "OAI-TOOL-012", Name: "real-reasoning-stream", Pass: true, Source: srcResponsesStream},
	checktest.Fixture{Check: "OAI-TOOL-012", Name: "output-sent-as-role-tool", Interaction: 1, Source: srcResponsesRejected,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "input.4", `{"content":"The user rejected the tool call.","role":"tool","tool_call_id":"call_5W18F6XkDh9NllAH9r0P9GuF"}`)
		}},
	checktest.Fixture{Check: "OAI-TOOL-012", Name: "call-id-in-item-id", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "input.2.id", `"call_gL7JE6GDeGGsFubqO2XGytyO"`)
		}},

	checktest.Fixture{Check: "OAI-CANCEL-001", Name: "real-rejected-call-answered", Pass: true, Source: srcResponsesRejected},
	checktest.Fixture{Check: "OAI-CANCEL-001", Name: "real-reasoning-then-call", Pass: true, Source: srcResponsesTools},
	checktest.Fixture{Check: "OAI-CANCEL-001", Name: "user-text-between-call-and-output", Interaction: 1, Source: srcResponsesRejected,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			insertItem(t, c, 1, "input", 4, `{"content":"[user interrupted]","role":"user"}`)
		}},
	checktest.Fixture{Check: "OAI-CANCEL-001", Name: "empty-output", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.SetJSON(t, c, 1, "input.3.output", `""`) }},

	checktest.Fixture{Check: "OAI-EPH-001", Name: "real-reasoning-tool-calls", Pass: true, Source: srcResponsesToolCalls},
	checktest.Fixture{Check: "OAI-EPH-001", Name: "ephemeral-item-with-default-store", Interaction: 0, Source: srcResponsesToolCalls,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 0, "input.-1", `{"role":"user","content":"<system-reminder>Keep it short.</system-reminder>"}`)
		}},
}

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
	checktest.SetJSON(t, c, i, key, string(rawjson.ArrayOf(items)))
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
	checktest.SetJSON(t, c, i, key, string(rawjson.ArrayOf(items)))
}

// topArray returns the elements of the top-level array key of interaction
// i's request body, raw.
func topArray(t *testing.T, c *cassette.Cassette, i int, key string) []json.RawMessage {
	t.Helper()
	fields, err := rawjson.Fields(*checktest.Body(t, c, i, "request"))
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
