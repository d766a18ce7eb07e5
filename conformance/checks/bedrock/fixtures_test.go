package bedrock_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance/checks/bedrock"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

const (
	// Claude 3.7 Sonnet on Bedrock Converse, thinking on: a signed
	// reasoning block and a toolUse, answered by a toolResult.
	srcBdrThink = "wave2/pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_anthropic_tool_with_thinking.yaml"
	// Claude 3.7 Sonnet: redacted reasoning echoed in the next turn.
	srcBdrRedacted = "wave2/pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_model_thinking_part_redacted.yaml"
	// DeepSeek R1 on Bedrock: its reasoning echoed as plain text, unsigned.
	srcBdrDeepSeek = "wave2/pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__test_bedrock_model_thinking_part_deepseek.yaml"
)

const callID = "tooluse_W9DaUFg4Tj2cRPpndqxWSg"

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, bedrock.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	{Check: "BDR-MSG-001", Name: "real-tool-loop", Pass: true, Source: srcBdrThink},
	{Check: "BDR-MSG-001", Name: "two-user-messages", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.3", `{"role":"user","content":[{"text":"and then?"}]}`)
		}},

	{Check: "BDR-MSG-002", Name: "real-tool-loop", Pass: true, Source: srcBdrThink},
	{Check: "BDR-MSG-002", Name: "real-deepseek-history", Pass: true, Source: srcBdrDeepSeek},
	{Check: "BDR-MSG-002", Name: "whitespace-text", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.1.content.1.text", `" "`)
		}},

	{Check: "BDR-TOOL-001", Name: "real-tool-loop", Pass: true, Source: srcBdrThink},
	{Check: "BDR-TOOL-001", Name: "result-for-another-call", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.2.content.0.toolResult.toolUseId", `"tooluse_other"`)
		}},

	{Check: "BDR-TOOL-002", Name: "real-tool-loop", Pass: true, Source: srcBdrThink},
	{Check: "BDR-TOOL-002", Name: "tool-history-without-tool-config", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "toolConfig") }},

	{Check: "BDR-TOOL-003", Name: "real-tool-loop", Pass: true, Source: srcBdrThink},
	{Check: "BDR-TOOL-003", Name: "error-result-without-content", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.2.content.0.toolResult", `{"toolUseId":"`+callID+`","content":[],"status":"error"}`)
		}},

	{Check: "BDR-THINK-001", Name: "real-signed-reasoning", Pass: true, Source: srcBdrThink},
	{Check: "BDR-THINK-001", Name: "real-redacted-reasoning", Pass: true, Source: srcBdrRedacted},
	{Check: "BDR-THINK-001", Name: "reasoning-text-edited", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 1, "request", "The user is asking for the largest city", "The user asks for the largest city")
		}},
	{Check: "BDR-THINK-001", Name: "redacted-content-edited", Interaction: 1, Source: srcBdrRedacted,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 1, "request", `"RXU4RUNr`, `"RXU4RUNs`)
		}},

	{Check: "BDR-THINK-002", Name: "real-signed-reasoning", Pass: true, Source: srcBdrThink},
	{Check: "BDR-THINK-002", Name: "real-deepseek-unsigned", Pass: true, Source: srcBdrDeepSeek},
	{Check: "BDR-THINK-002", Name: "signature-dropped", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 1, "messages.1.content.0.reasoningContent.reasoningText.signature")
		}},

	{Check: "BDR-THINK-003", Name: "real-signed-reasoning", Pass: true, Source: srcBdrThink},
	{Check: "BDR-THINK-003", Name: "reasoning-in-user-message", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "messages.2.content.1", `{"reasoningContent":{"reasoningText":{"text":"noted"}}}`)
		}},

	{Check: "BDR-THINK-004", Name: "real-tool-loop", Pass: true, Source: srcBdrThink},
	{Check: "BDR-THINK-004", Name: "reasoning-dropped-from-tool-loop", Interaction: 1, Source: srcBdrThink,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "messages.1.content.0") }},
}
