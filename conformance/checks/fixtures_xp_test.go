package checks_test

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/llmtck/llmtck/cassette"
)

const srcAnthropicRoundTrip = "pydantic__pydantic-ai/tests__cassettes__test_cache_prefix_stability__test_anthropic_thinking_roundtrip_wire_stable[vercel].yaml"

var xpFixtures = []fixtureSpec{
	fixtureSpec{Check: "XP-RAW-001", Name: "real-anthropic-signatures-byte-exact", Pass: true, Source: srcAnthropicRoundTrip},
	fixtureSpec{Check: "XP-RAW-001", Name: "real-encrypted-content-byte-exact", Pass: true, Source: srcResponsesTools},
	// pydantic-ai really echoes Gemini signatures in URL-safe base64.
	fixtureSpec{Check: "XP-RAW-001", Name: "real-gemini-signature-url-safe", Interaction: 1, Source: srcGemSigStream},
	fixtureSpec{Check: "XP-RAW-001", Name: "encrypted-content-unicode-escaped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { xpEscapeDash(t, c, 1, "input.1.encrypted_content") }},

	// The credentials below are made up, with the shapes of real ones.
	fixtureSpec{Check: "XP-SECRET-001", Name: "real-placeholder-api-key", Pass: true, Source: srcAntHTTPRR},
	fixtureSpec{Check: "XP-SECRET-001", Name: "real-no-credentials", Pass: true, Source: srcGemSigStream},
	fixtureSpec{Check: "XP-SECRET-001", Name: "real-encrypted-content", Pass: true, Source: srcResponsesTools},
	fixtureSpec{Check: "XP-SECRET-001", Name: "live-looking-api-key", Interaction: 0, Source: srcAntHTTPRR,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[0].Request.Header.Set("X-Api-Key", "sk-ant-api03-Q7mZ2xLp9VbN4kR8sT1wY6uJ3hG5fD0a")
		}},
	fixtureSpec{Check: "XP-SECRET-001", Name: "api-key-header-kept", Interaction: 0, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[0].Request.Header.Set("X-Goog-Api-Key", "gk-9fQ2mX7vL4pR8sT1wB6nY3cH")
		}},
	fixtureSpec{Check: "XP-SECRET-001", Name: "key-query-kept", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			c.Interactions[1].Request.URL += "&key=gk-9fQ2mX7vL4pR8sT1wB6nY3cH"
		}},
	fixtureSpec{Check: "XP-SECRET-001", Name: "key-pasted-in-prompt", Interaction: 0, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 0, "input.0.content", `"my key is sk-proj-Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd1EfG3hIj5KlM7nOp9QrS1tUv3W, why 401?"`)
		}},
}

// xpEscapeDash writes the first "-" of the JSON string at path as \u002d:
// the same value, other bytes, as some JSON encoders write it.
func xpEscapeDash(t *testing.T, c *cassette.Cassette, i int, path string) {
	t.Helper()
	raw := gjson.GetBytes(*bodyOf(t, c, i, "request"), path).Raw
	if !strings.Contains(raw, "-") {
		t.Fatalf("interaction %d: no '-' in %s", i, path)
	}
	setJSON(t, c, i, path, strings.Replace(raw, "-", `\u002d`, 1))
}
