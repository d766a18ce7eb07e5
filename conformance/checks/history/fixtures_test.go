package history_test

import (
	"net/http"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks/history"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

const (
	srcAnthropicRoundtrip = "pydantic__pydantic-ai/tests__cassettes__test_cache_prefix_stability__test_anthropic_thinking_roundtrip_wire_stable[vercel].yaml"
	srcChatMultiAgent     = "docker__cagent/e2e__testdata__cassettes__TestRuntime_MultiAgent_SessionReload.yaml"
	srcGeminiRetry        = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_model_retry.yaml"
)

// reminder is the ephemeral message the fixtures add: sent once, at the
// tail, the way harnesses append a status line for one request.
const reminder = `{"role":"user","content":[{"type":"text","text":"<system-reminder>The working tree has 2 modified files.</system-reminder>"}]}`

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, history.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	checktest.Fixture{Check: "HIST-001", Name: "real-thinking-roundtrip", Pass: true, Source: srcAnthropicRoundtrip},
	checktest.Fixture{Check: "HIST-001", Name: "real-interleaved-sub-agent", Pass: true, Source: srcChatMultiAgent},
	checktest.Fixture{Check: "HIST-001", Name: "first-user-message-edited", Interaction: 2, Source: srcAnthropicRoundtrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 2, "messages.0.content.0.text", `"Briefly: what is 17 * 24? Think first."`)
		}},

	checktest.Fixture{Check: "HIST-002", Name: "real-interleaved-sub-agent", Pass: true, Source: srcChatMultiAgent},
	checktest.Fixture{Check: "HIST-002", Name: "tool-message-dropped", Interaction: 3, Source: srcChatMultiAgent,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 3, "messages.4") }},

	checktest.Fixture{Check: "HIST-003", Name: "real-gemini-signatures-kept", Pass: true, Source: srcGeminiRetry},
	checktest.Fixture{Check: "HIST-003", Name: "earlier-thinking-dropped", Interaction: 2, Source: srcAnthropicRoundtrip,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 2, "messages.1.content.0") }},
	checktest.Fixture{Check: "HIST-003", Name: "function-call-signature-stripped", Interaction: 2, Source: srcGeminiRetry,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 2, "contents.1.parts.0.thoughtSignature")
		}},

	checktest.Fixture{Check: "HIST-004", Name: "real-thinking-roundtrip", Pass: true, Source: srcAnthropicRoundtrip},
	// The corpus holds no compaction: hand-built.
	checktest.Fixture{Check: "HIST-004", Name: "handbuilt-summary-compaction", Interaction: 1, Build: buildCompaction},

	// HIST-005 judges what a cassette declares ephemeral (llmtck_ephemeral).
	checktest.Fixture{Check: "HIST-005", Name: "real-feedback-at-tail", Pass: true, Source: srcChatMultiAgent,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 3, "messages.-1", `{"role":"user","content":"`+retryFeedback+`"}`)
			c.Ephemeral = []string{retryFeedback}
		}},
	// No recording retries an answer with feedback in a user message: hand-built.
	checktest.Fixture{Check: "HIST-005", Name: "handbuilt-feedback-dropped-after-retry", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return buildSchemaRetry(false) }},
	checktest.Fixture{Check: "HIST-005", Name: "handbuilt-feedback-kept-after-retry", Interaction: 2,
		Build: func(t *testing.T) *cassette.Cassette { return buildSchemaRetry(true) }},
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
