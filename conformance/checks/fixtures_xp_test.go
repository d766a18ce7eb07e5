package checks_test

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/llmtck/llmtck/internal/cassette"
)

const srcAnthropicRoundTrip = "pydantic__pydantic-ai/tests__cassettes__test_cache_prefix_stability__test_anthropic_thinking_roundtrip_wire_stable[vercel].yaml"

var xpFixtures = []fixtureSpec{
	fixtureSpec{Check: "XP-RAW-001", Name: "real-anthropic-signatures-byte-exact", Pass: true, Source: srcAnthropicRoundTrip},
	fixtureSpec{Check: "XP-RAW-001", Name: "real-encrypted-content-byte-exact", Pass: true, Source: srcResponsesTools},
	// pydantic-ai really echoes Gemini signatures in URL-safe base64.
	fixtureSpec{Check: "XP-RAW-001", Name: "real-gemini-signature-url-safe", Interaction: 1, Source: srcGemSigStream},
	fixtureSpec{Check: "XP-RAW-001", Name: "encrypted-content-unicode-escaped", Interaction: 1, Source: srcResponsesTools,
		Mutate: func(t *testing.T, c *cassette.Cassette) { xpEscapeDash(t, c, 1, "input.1.encrypted_content") }},
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
