package openai_test

import (
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

const (
	// Claude through OpenRouter, streamed: a reasoning.text entry signed,
	// then a tool call; the next request echoes reasoning_details.
	srcORSigned = "wave2/0xPlaygrounds__rig/tests__cassettes__openrouter__reasoning_tool_order_matrix__streaming_signed_agent_roundtrip.yaml"
	// An OpenAI reasoning model through OpenRouter: reasoning.encrypted
	// entries carried into the next turn.
	srcOREncrypted = "wave2/0xPlaygrounds__rig/tests__cassettes__openrouter__streaming_tools__stream_encrypted_reasoning_survives_into_the_next_turn.yaml"
)

var compatFixtures = []checktest.Fixture{
	{Check: "OAI-COMPAT-002", Name: "real-signed-reasoning-details", Pass: true, Source: srcORSigned},
	{Check: "OAI-COMPAT-002", Name: "real-encrypted-reasoning-details", Pass: true, Source: srcOREncrypted},
	{Check: "OAI-COMPAT-002", Name: "signature-altered", Interaction: 1, Source: srcORSigned,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 1, "request", `"signature":"signature_REDACTED_1"`, `"signature":"signature_REDACTED_9"`)
		}},
	{Check: "OAI-COMPAT-002", Name: "encrypted-data-altered", Interaction: 1, Source: srcOREncrypted,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 1, "request", `"data":"encrypted_reasoning_REDACTED_1"`, `"data":"encrypted_reasoning_REDACTED_7"`)
		}},
}

const (
	// DeepSeek V4 with thinking on: tool_choice required, then a named
	// function; DeepSeek answered both 400.
	srcDSForcedChoice = "wave2/0xPlaygrounds__rig/tests__cassettes__deepseek__wire_shape_matrix__forced_tool_choice_under_thinking_is_rejected_upstream.yaml"
	// DeepSeek with thinking on and tools, tool_choice left to the model.
	srcDSToolLoop = "wave2/0xPlaygrounds__rig/tests__cassettes__deepseek__reasoning_tool_roundtrip__nonstreaming.yaml"
)

var deepseekFixtures = []checktest.Fixture{
	{Check: "OAI-COMPAT-003", Name: "real-thinking-tool-loop", Pass: true, Source: srcDSToolLoop},
	{Check: "OAI-COMPAT-003", Name: "real-forced-tool-choice-refused", Interaction: 0, Source: srcDSForcedChoice},
}
