package providers

import (
	"testing"

	"github.com/llmtck/llmtck/traffic"
)

// FuzzDetect holds wire detection to its promises on any URL and bodies:
// it never panics, names a wire llmtck knows, answers the same each time,
// and the dialect it implies is decided as well.
func FuzzDetect(f *testing.F) {
	for _, s := range []struct{ url, req, resp string }{
		{"https://api.anthropic.com/v1/messages?beta=true", `{"model":"claude-x","messages":[]}`, ""},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3/invoke-with-response-stream", `{"anthropic_version":"bedrock-2023-05-31"}`, ""},
		{"https://x-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/google/models/g:streamGenerateContent?alt=sse", `{"contents":[]}`, ""},
		{"https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21", `{"messages":[]}`, ""},
		{"/api/v1/chat/completions", `{"model":"deepseek/deepseek-r1","messages":[]}`, ""},
		{"https://bedrock-runtime.us-west-2.amazonaws.com/model/m/converse", `{"messages":[{"role":"user","content":[{"text":"x"}]}]}`, ""},
		{"", "", `{"type":"message","content":[]}`},
		{"", "", "event: response.created\ndata: {}\n\n"},
		{"http://[::1", "\xff", "\x00\x00\x00\x10"},
	} {
		f.Add(s.url, []byte(s.req), []byte(s.resp))
	}
	known := map[traffic.Wire]bool{traffic.WireAnthropic: true, traffic.WireOpenAI: true, traffic.WireResponses: true, traffic.WireGemini: true, traffic.WireBedrock: true, traffic.WireUnknown: true}
	f.Fuzz(func(t *testing.T, url string, req, resp []byte) {
		w := Detect(url, req, resp)
		if !known[w] {
			t.Fatalf("Detect = %q, not a wire", w)
		}
		if again := Detect(url, req, resp); again != w {
			t.Fatalf("Detect is not stable: %q then %q", w, again)
		}
		if d := DetectDialect(url, w, ""); d == "" {
			t.Fatalf("no dialect for %q on %s", url, w)
		}
	})
}
