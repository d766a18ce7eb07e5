package checks_test

import (
	"net/http"
	"testing"

	"github.com/llmtck/llmtck/cassette"
)

const (
	srcAnthropicRoundtrip = "pydantic__pydantic-ai/tests__cassettes__test_cache_prefix_stability__test_anthropic_thinking_roundtrip_wire_stable[vercel].yaml"
	srcAnthropicToolThink = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_tool_with_thinking.yaml"
	srcChatMultiAgent     = "docker__cagent/e2e__testdata__cassettes__TestRuntime_MultiAgent_SessionReload.yaml"
	srcGeminiRetry        = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_model_retry.yaml"
	srcResponsesToolCalls = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
)

// reminder is the ephemeral message the fixtures add: sent once, at the
// tail, the way harnesses append a status line for one request.
const reminder = `{"role":"user","content":[{"type":"text","text":"<system-reminder>The working tree has 2 modified files.</system-reminder>"}]}`

var historyFixtures = []fixtureSpec{
	fixtureSpec{Check: "HIST-001", Name: "real-thinking-roundtrip", Pass: true, Source: srcAnthropicRoundtrip},
	fixtureSpec{Check: "HIST-001", Name: "real-interleaved-sub-agent", Pass: true, Source: srcChatMultiAgent},
	fixtureSpec{Check: "HIST-001", Name: "first-user-message-edited", Interaction: 2, Source: srcAnthropicRoundtrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 2, "messages.0.content.0.text", `"Briefly: what is 17 * 24? Think first."`)
		}},

	fixtureSpec{Check: "HIST-002", Name: "real-interleaved-sub-agent", Pass: true, Source: srcChatMultiAgent},
	fixtureSpec{Check: "HIST-002", Name: "tool-message-dropped", Interaction: 3, Source: srcChatMultiAgent,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 3, "messages.4") }},

	fixtureSpec{Check: "HIST-003", Name: "real-gemini-signatures-kept", Pass: true, Source: srcGeminiRetry},
	fixtureSpec{Check: "HIST-003", Name: "earlier-thinking-dropped", Interaction: 2, Source: srcAnthropicRoundtrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 2, "messages.1.content.0") }},
	fixtureSpec{Check: "HIST-003", Name: "function-call-signature-stripped", Interaction: 2, Source: srcGeminiRetry,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 2, "contents.1.parts.0.thoughtSignature") }},

	fixtureSpec{Check: "HIST-004", Name: "real-thinking-roundtrip", Pass: true, Source: srcAnthropicRoundtrip},
	// The corpus holds no compaction: hand-built.
	fixtureSpec{Check: "HIST-004", Name: "handbuilt-summary-compaction", Interaction: 1, Build: buildCompaction},

	fixtureSpec{Check: "ANT-EPH-001", Name: "real-thinking-roundtrip", Pass: true, Source: srcAnthropicRoundtrip},
	fixtureSpec{Check: "ANT-EPH-001", Name: "reminder-before-echoed-thinking", Interaction: 1, Source: srcAnthropicRoundtrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 0, "messages.-1", reminder) }},

	fixtureSpec{Check: "ANT-EPH-002", Name: "real-tool-with-thinking", Pass: true, Source: srcAnthropicToolThink},
	fixtureSpec{Check: "ANT-EPH-002", Name: "reminder-at-tail", Pass: true, Source: srcAnthropicRoundtrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) { setJSON(t, c, 0, "messages.-1", reminder) }},
	// No Anthropic recording continues after a tool result: hand-built.
	fixtureSpec{Check: "ANT-EPH-002", Name: "handbuilt-reminder-before-tool-result", Interaction: 0, Build: buildReminderInPair},

	// HIST-005 judges what a cassette declares ephemeral (llmtck_ephemeral).
	fixtureSpec{Check: "HIST-005", Name: "real-feedback-at-tail", Pass: true, Source: srcChatMultiAgent,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 3, "messages.-1", `{"role":"user","content":"`+retryFeedback+`"}`)
			c.Ephemeral = []string{retryFeedback}
		}},
	// No recording retries an answer with feedback in a user message: hand-built.
	fixtureSpec{Check: "HIST-005", Name: "handbuilt-feedback-dropped-after-retry", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return buildSchemaRetry(false) }},
	fixtureSpec{Check: "HIST-005", Name: "handbuilt-feedback-kept-after-retry", Interaction: 2,
		Build: func(t *testing.T) *cassette.Cassette { return buildSchemaRetry(true) }},

	fixtureSpec{Check: "OAI-EPH-001", Name: "real-reasoning-tool-calls", Pass: true, Source: srcResponsesToolCalls},
	fixtureSpec{Check: "OAI-EPH-001", Name: "ephemeral-item-with-default-store", Interaction: 0, Source: srcResponsesToolCalls,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 0, "input.-1", `{"role":"user","content":"<system-reminder>Keep it short.</system-reminder>"}`)
		}},
}

// buildCompaction: a coding session whose second request replaces the
// first five history messages with a summary and keeps the last turn.
func buildCompaction(t *testing.T) *cassette.Cassette {
	const sys = "You are a coding agent working in the user's repository."
	return anthropicCassette(
		antExchange(antBody(sys,
			user("The parser test fails, can you look?"),
			asst(text("Let me read the test.")),
			user("It is in parser_test.go"),
			asst(toolUse("toolu_01QmWx3", "read_file")),
			userBlocks(toolResult("toolu_01QmWx3", "func TestParse(t *testing.T) { want := 41 … }")),
			asst(text("The expected value 41 is stale; the parser now returns 42. I updated the test.")),
			user("Great, thanks. Please also add a changelog entry."),
		), antResponse(text("Added a changelog entry under Unreleased."))),
		antExchange(antBody(sys,
			user("Summary of the conversation so far: the parser test expected a stale value (41); it was updated to 42 in parser_test.go."),
			asst(text("The expected value 41 is stale; the parser now returns 42. I updated the test.")),
			user("Great, thanks. Please also add a changelog entry."),
			asst(text("Added a changelog entry under Unreleased.")),
			user("Now open a pull request."),
		), antResponse(text("Opened the pull request."))),
	)
}

// retryFeedback is a schema-retry message: sent once, after an answer that
// did not match the turn's output schema.
const retryFeedback = "Your answer did not match the required JSON schema: expected an object with a files array. Reply with the JSON object only."

// buildSchemaRetry: the first answer is prose, the harness retries once
// with retryFeedback, the second answer is valid JSON, and the user goes
// on. The next request keeps only the accepted answer or, when keep is
// set, the rejected answer and the feedback too (persisted).
func buildSchemaRetry(keep bool) *cassette.Cassette {
	const sys = "You are a coding agent working in the user's repository."
	prompt := user(`List the two largest files under src/ as JSON: {"files":[{"path":…,"bytes":…}]}.`)
	prose := asst(text("The two largest files are src/parser.go (48 KB) and src/lexer.go (31 KB)."))
	answer := asst(text(`{"files":[{"path":"src/parser.go","bytes":48213},{"path":"src/lexer.go","bytes":31877}]}`))
	next := user("Thanks. Which of the two has the most functions?")
	history := []string{prompt, answer, next}
	if keep {
		history = []string{prompt, prose, user(retryFeedback), answer, next}
	}
	c := anthropicCassette(
		antExchange(antBody(sys, prompt), antResponse(text("The two largest files are src/parser.go (48 KB) and src/lexer.go (31 KB)."))),
		antExchange(antBody(sys, prompt, prose, user(retryFeedback)),
			antResponse(text(`{"files":[{"path":"src/parser.go","bytes":48213},{"path":"src/lexer.go","bytes":31877}]}`))),
		antExchange(antBody(sys, history...), antResponse(text("src/parser.go: it defines 37 functions, against 21 in src/lexer.go."))),
	)
	c.Ephemeral = []string{retryFeedback}
	return c
}

// buildReminderInPair: a reminder sent once at the start of the user
// message that carries the tool result, then left out — so it sat inside
// the tool pair.
func buildReminderInPair(t *testing.T) *cassette.Cassette {
	const sys = "You are a coding agent working in the user's repository."
	u1 := user("What does parse() return for an empty input?")
	a1 := asst(think("I should read the parser.", "EqQBCkYIBxgCKkBzhNq3vJ2lW0hSignedThinkingFixture=="), toolUse("toolu_01Pq7Rt", "read_file"))
	return anthropicCassette(
		antExchange(antBody(sys, u1, a1,
			userBlocks(text("<system-reminder>The working tree has 2 modified files.</system-reminder>"),
				toolResult("toolu_01Pq7Rt", "func parse(s string) (int, error) { if s == \"\" { return 0, ErrEmpty } … }"))),
			antResponse(text("It returns 0 and ErrEmpty."))),
		antExchange(antBody(sys, u1, a1,
			userBlocks(toolResult("toolu_01Pq7Rt", "func parse(s string) (int, error) { if s == \"\" { return 0, ErrEmpty } … }")),
			asst(text("It returns 0 and ErrEmpty.")),
			user("Thanks.")),
			antResponse(text("You're welcome."))),
	)
}

func antExchange(req, resp string) *cassette.Interaction {
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

func anthropicCassette(in ...*cassette.Interaction) *cassette.Cassette {
	return &cassette.Cassette{Interactions: in}
}
