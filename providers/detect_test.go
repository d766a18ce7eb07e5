package providers_test

import (
	"testing"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/providers"
)

// TestDetect names the wire and the dialect of the gateway and compatible
// endpoints llmtck knows, from the URL alone.
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		url     string
		wire    engine.Wire
		dialect engine.Dialect
	}{
		{"https://api.anthropic.com/v1/messages", engine.WireAnthropic, engine.DialectDirect},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse", engine.WireBedrock, engine.DialectDirect},
		{"https://bedrock-runtime.eu-west-1.amazonaws.com/model/amazon.nova-pro-v1:0/converse-stream", engine.WireBedrock, engine.DialectDirect},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1:0/invoke", engine.WireAnthropic, engine.DialectBedrock},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-v1:0/invoke-with-response-stream", engine.WireAnthropic, engine.DialectBedrock},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-lite-v1:0/invoke", engine.WireUnknown, engine.DialectBedrock},
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5:streamRawPredict", engine.WireAnthropic, engine.DialectVertex},
		{"https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:generateContent", engine.WireGemini, engine.DialectVertex},
		{"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", engine.WireGemini, engine.DialectDirect},
		{"https://my-res.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21", engine.WireOpenAI, engine.DialectAzure},
		{"https://my-res.openai.azure.com/openai/v1/responses", engine.WireResponses, engine.DialectAzure},
		{"https://api.groq.com/openai/v1/chat/completions", engine.WireOpenAI, engine.DialectGroq},
		{"https://bedrock-mantle.us-east-1.api.aws/openai/v1/responses", engine.WireResponses, engine.DialectBedrock},
		{"https://openrouter.ai/api/v1/chat/completions", engine.WireOpenAI, engine.DialectOpenRouter},
		{"https://api.deepseek.com/chat/completions", engine.WireOpenAI, engine.DialectDeepSeek},
		{"https://api.together.xyz/v1/chat/completions", engine.WireOpenAI, engine.DialectTogether},
		{"https://api.fireworks.ai/inference/v1/chat/completions", engine.WireOpenAI, engine.DialectFireworks},
		{"https://api.x.ai/v1/responses", engine.WireResponses, engine.DialectXAI},
		{"https://api.mistral.ai/v1/chat/completions", engine.WireOpenAI, engine.DialectMistral},
		{"http://gpu-box:11434/v1/chat/completions", engine.WireOpenAI, engine.DialectOllama},
		{"http://localhost:11434/api/chat", engine.WireUnknown, engine.DialectOllama},
		{"http://vllm.internal:8000/v1/chat/completions", engine.WireOpenAI, engine.DialectCompatible},
		{"http://127.0.0.1:8080/v1/messages", engine.WireAnthropic, engine.DialectUnknown},
		{"http://[::1]:8080/v1/messages", engine.WireAnthropic, engine.DialectUnknown},
		{"http://[::ffff:127.0.0.1]:8080/v1/messages", engine.WireAnthropic, engine.DialectUnknown},
		{"http://10.0.0.7:8000/v1/chat/completions", engine.WireOpenAI, engine.DialectCompatible},
		// A known host's subdomain is the host's; a name that only ends
		// like it is not.
		{"https://eu.api.anthropic.com/v1/messages", engine.WireAnthropic, engine.DialectDirect},
		{"https://notapi.anthropic.com/v1/messages", engine.WireAnthropic, engine.DialectCompatible},
		{"https://notopenrouter.ai/api/v1/chat/completions", engine.WireOpenAI, engine.DialectCompatible},
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
	for model, want := range map[string]engine.Dialect{
		"deepseek-reasoner":         engine.DialectDeepSeek,
		"grok-4":                    engine.DialectXAI,
		"anthropic/claude-sonnet-4": engine.DialectCompatible,
		"gpt-4o":                    engine.DialectUnknown,
	} {
		if got := providers.DetectDialect("/v1/chat/completions", engine.WireOpenAI, model); got != want {
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
		wire      engine.Wire
		dialect   engine.Dialect
		model     string
		stream    bool
	}{
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
			`{"anthropic_version":"vertex-2023-10-16",` + msg + `,"stream":true}`, engine.WireAnthropic, engine.DialectVertex, "claude-sonnet-4-5@20250929", true},
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5:rawPredict",
			`{"anthropic_version":"vertex-2023-10-16",` + msg + `}`, engine.WireAnthropic, engine.DialectVertex, "claude-haiku-4-5", false},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream",
			`{"anthropic_version":"bedrock-2023-05-31",` + msg + `}`, engine.WireAnthropic, engine.DialectBedrock, "anthropic.claude-3-5-haiku-20241022-v1:0", true},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
			`{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}`, engine.WireBedrock, engine.DialectDirect, "us.anthropic.claude-sonnet-4-5-20250929-v1:0", false},
		{"https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"generation_config":{"thinking_config":{"include_thoughts":true}}}`, engine.WireGemini, engine.DialectVertex, "gemini-3-pro-preview", true},
		{"https://res.openai.azure.com/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21",
			`{"messages":[{"role":"user","content":"Hi"}]}`, engine.WireOpenAI, engine.DialectAzure, "", false},
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
