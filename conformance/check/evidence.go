package check

import (
	"slices"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

// Evidence backs a rule the provider enforces: where its refusal was
// observed, and the public record of it. A rule observed on some endpoints
// only is an error there and a warning elsewhere: a gateway or a compatible
// server may accept what the provider's own API refuses, and llmtck never
// calls an error what nobody saw refused.
type Evidence struct {
	// Endpoints are the dialects the refusal is observed on; empty means
	// every endpoint (a stream no client can read, a body that does not
	// decode).
	Endpoints []traffic.Dialect `json:"endpoints,omitempty"`
	// Models says which models the rule holds for, when not all of them.
	Models string `json:"models,omitempty"`
	// Sources cite the observation: issue threads, provider documentation,
	// SDK source, recordings.
	Sources []string `json:"sources"`
}

// Holds reports whether the rule is observed on dialect d. A recording
// that names no host is judged as the provider's own API would judge it.
func (e Evidence) Holds(d traffic.Dialect) bool {
	if len(e.Endpoints) == 0 || d == "" || d == traffic.DialectUnknown {
		return true
	}
	return slices.Contains(e.Endpoints, d)
}

// String lists the endpoints, as a report shows them.
func (e Evidence) String() string {
	if len(e.Endpoints) == 0 {
		return "every endpoint"
	}
	names := make([]string, len(e.Endpoints))
	for i, d := range e.Endpoints {
		names[i] = string(d)
	}
	return strings.Join(names, ", ")
}

// Endpoints of the evidence that most checks share.
var (
	// AnthropicEndpoints: the Anthropic API and the gateways that run the
	// same validation on Anthropic bodies (Bedrock InvokeModel and Converse
	// relay its errors as "The model returned the following errors: …").
	AnthropicEndpoints = []traffic.Dialect{traffic.DialectDirect, traffic.DialectBedrock, traffic.DialectVertex}
	// OpenAIEndpoints: OpenAI's API and Azure OpenAI, which serves it.
	OpenAIEndpoints = []traffic.Dialect{traffic.DialectDirect, traffic.DialectAzure}
	// GeminiEndpoints: the Gemini API and Vertex AI.
	GeminiEndpoints = []traffic.Dialect{traffic.DialectDirect, traffic.DialectVertex}
)
