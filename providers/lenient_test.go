package providers_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// TestCodecsNoStricterThanProviders: every codec decodes the forms its
// provider's parser takes beside the documented one — a body padded with
// whitespace, a field it does not know, null for an optional list — keeps
// the messages, and encodes back to the same JSON value.
func TestCodecsNoStricterThanProviders(t *testing.T) {
	cases := []struct {
		wire traffic.Wire
		base string // a minimal request, ending in "}"
		null string // an optional list field the API reads null as absent for
		msgs int
	}{
		{traffic.WireAnthropic, `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":"hi"}]`, `"stop_sequences":null`, 1},
		{traffic.WireOpenAI, `{"model":"m","messages":[{"role":"user","content":"hi"}]`, `"tools":null`, 1},
		{traffic.WireResponses, `{"model":"m","input":[{"role":"user","content":"hi"}]`, `"tools":null`, 1},
		{traffic.WireGemini, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]`, `"tools":null`, 1},
		{traffic.WireBedrock, `{"messages":[{"role":"user","content":[{"text":"hi"}]}]`, `"toolConfig":null`, 1},
	}
	for _, tc := range cases {
		codec := providers.For(tc.wire)
		variants := map[string]string{
			"padded with whitespace": " \r\n\t" + tc.base + "}\n\n ",
			"an unknown field":       tc.base + `,"a_field_from_next_year":{"x":[1,"2"]}}`,
			"null for a list":        tc.base + "," + tc.null + "}",
		}
		for name, body := range variants {
			t.Run(string(tc.wire)+"/"+name, func(t *testing.T) {
				req, err := codec.DecodeRequest([]byte(body))
				if err != nil {
					t.Fatalf("decode %s: %v", body, err)
				}
				if len(req.Messages) != tc.msgs {
					t.Errorf("%d messages, want %d", len(req.Messages), tc.msgs)
				}
				enc, err := codec.EncodeRequest(req)
				if err != nil {
					t.Fatalf("encode: %v", err)
				}
				if !rawjson.Equal(enc, []byte(strings.TrimSpace(body))) {
					t.Errorf("encoding changed the JSON value\nin:  %s\nout: %s", body, enc)
				}
			})
		}
	}
}
