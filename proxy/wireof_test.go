package proxy

import (
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/reqmatch"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// volatileOf is what replay leaves out of a request: the volatile fields of
// the wire providers.Detect names.
func volatileOf(url string, body []byte) [][]string {
	return reqmatch.Volatile(string(providers.Detect(url, body, nil)))
}

// cassette.Matcher cannot ask providers which wire a request is on (providers
// reads cassettes), so reqmatch.WireOf answers for it: it must leave out the
// same fields replay does, on every corpus request and on the routes and
// shapes providers tells apart.
func TestWireOfAgreesWithProviders(t *testing.T) {
	for _, w := range []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses} {
		if reqmatch.Volatile(string(w)) == nil {
			t.Errorf("reqmatch has no volatile fields under the name of %s", w)
		}
	}
	type req struct {
		url  string
		body []byte
	}
	reqs := []req{
		{"https://api.anthropic.com/v1/messages?beta=true", nil},
		{"https://api.openai.com/v1/threads/t/messages", nil},
		{"https://x/v1/projects/p/locations/l/publishers/anthropic/models/claude:streamRawPredict", nil},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3/invoke", nil},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova/invoke", nil},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova/converse", nil},
		{"https://api.groq.com/openai/v1/chat/completions/", nil},
		{"https://api.openai.com/v1/responses", nil},
		{"https://g/v1beta/models/gemini:generateContent", nil},
		{"https://gateway/custom", []byte(`{"anthropic_version":"x","messages":[]}`)},
		{"https://gateway/custom", []byte(`{"messages":[],"note":"anthropic_version"}`)},
		{"https://gateway/custom", []byte(`{"input":"x","note":"anthropic_version"}`)},
		{"https://gateway/custom", []byte(`{"system":"s","messages":[],"note":"anthropic_version"}`)},
		{"https://gateway/custom", []byte(`{"contents":[],"note":"anthropic_version"}`)},
		{"https://gateway/search", []byte(`{"messages":[]}`)},
		{"", []byte(`{"messages":[{"role":"user","content":"hi"}]}`)},
		{"", []byte(`{"messages":[{"content":[{"type":"tool_use"}]}]}`)},
		{"", []byte(`{"input":"hi"}`)},
		{"", []byte(`not json`)},
		{"%zz/v1/messages", []byte(`{"anthropic_version":"x"}`)},
	}
	for _, path := range corpus.Files(t) {
		c, err := cassette.Load(path)
		if err != nil {
			continue // the corpus holds files no reader takes, on purpose
		}
		for _, in := range c.Interactions {
			reqs = append(reqs, req{in.Request.URL, in.Request.Body})
		}
	}
	for _, r := range reqs {
		got, want := reqmatch.Volatile(reqmatch.WireOf(r.url, r.body)), volatileOf(r.url, r.body)
		if len(got) != len(want) || len(got) > 0 && got[0][0] != want[0][0] {
			t.Errorf("%s %.60s: WireOf leaves out %v, replay %v", r.url, r.body, got, want)
		}
	}
}
