package providers_test

import (
	"testing"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// TestDetect names the wire and the dialect of the gateway and compatible
// endpoints llmtck knows, from the URL alone.
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		url     string
		wire    traffic.Wire
		dialect traffic.Dialect
	}{
		{"https://api.anthropic.com/v1/messages", traffic.WireAnthropic, traffic.DialectDirect},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse", traffic.WireBedrock, traffic.DialectDirect},
		{"https://bedrock-runtime.eu-west-1.amazonaws.com/model/amazon.nova-pro-v1:0/converse-stream", traffic.WireBedrock, traffic.DialectDirect},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1:0/invoke", traffic.WireAnthropic, traffic.DialectBedrock},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-v1:0/invoke-with-response-stream", traffic.WireAnthropic, traffic.DialectBedrock},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-lite-v1:0/invoke", traffic.WireUnknown, traffic.DialectBedrock},
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5:streamRawPredict", traffic.WireAnthropic, traffic.DialectVertex},
		{"https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:generateContent", traffic.WireGemini, traffic.DialectVertex},
		{"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", traffic.WireGemini, traffic.DialectDirect},
		{"https://my-res.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21", traffic.WireOpenAI, traffic.DialectAzure},
		{"https://my-res.openai.azure.com/openai/v1/responses", traffic.WireResponses, traffic.DialectAzure},
		{"https://api.groq.com/openai/v1/chat/completions", traffic.WireOpenAI, traffic.DialectGroq},
		{"https://bedrock-mantle.us-east-1.api.aws/openai/v1/responses", traffic.WireResponses, traffic.DialectBedrock},
		{"https://openrouter.ai/api/v1/chat/completions", traffic.WireOpenAI, traffic.DialectOpenRouter},
		{"https://api.deepseek.com/chat/completions", traffic.WireOpenAI, traffic.DialectDeepSeek},
		{"https://api.together.xyz/v1/chat/completions", traffic.WireOpenAI, traffic.DialectTogether},
		{"https://api.fireworks.ai/inference/v1/chat/completions", traffic.WireOpenAI, traffic.DialectFireworks},
		{"https://api.x.ai/v1/responses", traffic.WireResponses, traffic.DialectXAI},
		{"https://api.mistral.ai/v1/chat/completions", traffic.WireOpenAI, traffic.DialectMistral},
		{"http://gpu-box:11434/v1/chat/completions", traffic.WireOpenAI, traffic.DialectOllama},
		{"http://localhost:11434/api/chat", traffic.WireUnknown, traffic.DialectOllama},
		{"http://vllm.internal:8000/v1/chat/completions", traffic.WireOpenAI, traffic.DialectCompatible},
		{"http://127.0.0.1:8080/v1/messages", traffic.WireAnthropic, traffic.DialectUnknown},
		{"http://[::1]:8080/v1/messages", traffic.WireAnthropic, traffic.DialectUnknown},
		{"http://[::ffff:127.0.0.1]:8080/v1/messages", traffic.WireAnthropic, traffic.DialectUnknown},
		{"http://10.0.0.7:8000/v1/chat/completions", traffic.WireOpenAI, traffic.DialectCompatible},
		// A known host's subdomain is the host's; a name that only ends
		// like it is not.
		{"https://eu.api.anthropic.com/v1/messages", traffic.WireAnthropic, traffic.DialectDirect},
		{"https://notapi.anthropic.com/v1/messages", traffic.WireAnthropic, traffic.DialectCompatible},
		{"https://notopenrouter.ai/api/v1/chat/completions", traffic.WireOpenAI, traffic.DialectCompatible},
	} {
		if got := providers.Detect(tc.url, nil, nil); got != tc.wire {
			t.Errorf("Detect(%s) = %q, want %q", tc.url, got, tc.wire)
		}
		if got := providers.DetectDialect(tc.url, tc.wire, ""); got != tc.dialect {
			t.Errorf("DetectDialect(%s) = %q, want %q", tc.url, got, tc.dialect)
		}
	}
}

// A path-only recording (no host) is named by the model a compatible
// server is known by.
func TestDetectDialectByModel(t *testing.T) {
	for model, want := range map[string]traffic.Dialect{
		"deepseek-reasoner":         traffic.DialectDeepSeek,
		"grok-4":                    traffic.DialectXAI,
		"anthropic/claude-sonnet-4": traffic.DialectCompatible,
		"gpt-4o":                    traffic.DialectUnknown,
	} {
		if got := providers.DetectDialect("/v1/chat/completions", traffic.WireOpenAI, model); got != want {
			t.Errorf("model %s: dialect %q, want %q", model, got, want)
		}
	}
}

// Gateway calls decode as the wire they carry, with the model from the URL
// where the body has none.
func TestDecodeGatewayCalls(t *testing.T) {
	msg := `"messages":[{"role":"user","content":"Hi"}],"max_tokens":64`
	for _, tc := range []struct {
		url, body string
		wire      traffic.Wire
		dialect   traffic.Dialect
		model     string
		stream    bool
	}{
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
			`{"anthropic_version":"vertex-2023-10-16",` + msg + `,"stream":true}`, traffic.WireAnthropic, traffic.DialectVertex, "claude-sonnet-4-5@20250929", true},
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5:rawPredict",
			`{"anthropic_version":"vertex-2023-10-16",` + msg + `}`, traffic.WireAnthropic, traffic.DialectVertex, "claude-haiku-4-5", false},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream",
			`{"anthropic_version":"bedrock-2023-05-31",` + msg + `}`, traffic.WireAnthropic, traffic.DialectBedrock, "anthropic.claude-3-5-haiku-20241022-v1:0", true},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
			`{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}`, traffic.WireBedrock, traffic.DialectDirect, "us.anthropic.claude-sonnet-4-5-20250929-v1:0", false},
		{"https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"generation_config":{"thinking_config":{"include_thoughts":true}}}`, traffic.WireGemini, traffic.DialectVertex, "gemini-3-pro-preview", true},
		{"https://res.openai.azure.com/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21",
			`{"messages":[{"role":"user","content":"Hi"}]}`, traffic.WireOpenAI, traffic.DialectAzure, "", false},
	} {
		ex := providers.Decode(0, providers.Call{Method: "POST", URL: tc.url, RequestBody: []byte(tc.body)})
		if ex.Wire != tc.wire || ex.Dialect != tc.dialect {
			t.Errorf("%s: wire %q dialect %q, want %q %q", tc.url, ex.Wire, ex.Dialect, tc.wire, tc.dialect)
			continue
		}
		if ex.Request == nil {
			t.Errorf("%s: request does not decode: %s", tc.url, ex.RequestErr)
			continue
		}
		if ex.Request.Model != tc.model || ex.Request.Stream != tc.stream {
			t.Errorf("%s: model %q stream %v, want %q %v", tc.url, ex.Request.Model, ex.Request.Stream, tc.model, tc.stream)
		}
	}
}
