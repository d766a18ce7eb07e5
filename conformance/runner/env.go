package runner

import "strings"

// Placeholder credentials the command is given: every SDK wants a key
// before it sends anything, the simulated providers need none, and a real
// key in the environment is never handed to a test run.
const placeholderKey = "llmtck-placeholder-key"

// Environment is base with what a harness reads to play one scenario set
// over it:
//
//   - ANTHROPIC_BASE_URL, OPENAI_BASE_URL (with /v1, as the OpenAI SDKs'
//     default has), GOOGLE_GEMINI_BASE_URL and AWS_ENDPOINT_URL_BEDROCK_RUNTIME,
//     which the official SDKs read, and LLMTCK_BASE_URL: all the one
//     listener serving every provider of the scenario;
//   - LLMTCK_SCENARIO (the scenario file's path) and LLMTCK_SCENARIO_NAME;
//   - placeholder API keys and AWS credentials, region us-east-1, Vertex
//     off, and loopback exempt from any HTTP proxy.
func Environment(base []string, baseURL, scenarioPath, name string) []string {
	set := [][2]string{
		{"LLMTCK_BASE_URL", baseURL},
		{"LLMTCK_SCENARIO", scenarioPath},
		{"LLMTCK_SCENARIO_NAME", name},
		{"ANTHROPIC_BASE_URL", baseURL},
		{"OPENAI_BASE_URL", baseURL + "/v1"},
		{"GOOGLE_GEMINI_BASE_URL", baseURL},
		{"AWS_ENDPOINT_URL_BEDROCK_RUNTIME", baseURL},
		{"ANTHROPIC_API_KEY", placeholderKey},
		{"OPENAI_API_KEY", placeholderKey},
		{"GEMINI_API_KEY", placeholderKey},
		{"GOOGLE_API_KEY", placeholderKey},
		{"GOOGLE_GENAI_USE_VERTEXAI", "false"},
		{"AWS_ACCESS_KEY_ID", "AKIDLLMTCKPLACEHOLDER"},
		{"AWS_SECRET_ACCESS_KEY", placeholderKey},
		{"AWS_REGION", "us-east-1"},
		{"AWS_DEFAULT_REGION", "us-east-1"},
		{"NO_PROXY", noProxy(base, "NO_PROXY")},
		{"no_proxy", noProxy(base, "no_proxy")},
	}
	// Credentials that would take precedence over the placeholders.
	drop := map[string]bool{"ANTHROPIC_AUTH_TOKEN": true, "AWS_SESSION_TOKEN": true, "AWS_PROFILE": true, "AWS_ENDPOINT_URL": true,
		"AWS_BEARER_TOKEN_BEDROCK": true, "GOOGLE_VERTEX_BASE_URL": true, "GOOGLE_CLOUD_PROJECT": true}
	for _, kv := range set {
		drop[kv[0]] = true
	}
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			out = append(out, kv)
		}
	}
	for _, kv := range set {
		out = append(out, kv[0]+"="+kv[1])
	}
	return out
}

// noProxy is the variable named key of env with loopback added.
func noProxy(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, _ := strings.Cut(kv, "="); k == key {
			v = val
		}
	}
	if v == "" {
		return "127.0.0.1,localhost"
	}
	return v + ",127.0.0.1,localhost"
}
