package traffic

// Dialect names who served a call when it was not the wire's own provider
// API: a cloud gateway in front of Anthropic, OpenAI or Google models, or a
// server that speaks the OpenAI wire for other models. The rules a provider
// enforces are sometimes the gateway's or the server's own, so checks say
// which endpoints their evidence comes from.
type Dialect string

// The dialects llmtck recognises, by host or path.
const (
	DialectDirect  Dialect = "direct"  // the provider's own API: api.anthropic.com, api.openai.com, generativelanguage.googleapis.com
	DialectUnknown Dialect = "unknown" // the recording names no host (response-only fixtures, path-only recordings)

	DialectBedrock Dialect = "bedrock" // Amazon Bedrock (Converse, InvokeModel)
	DialectVertex  Dialect = "vertex"  // Google Vertex AI (Gemini, Claude through rawPredict)
	DialectAzure   Dialect = "azure"   // Azure OpenAI and Azure AI Foundry

	DialectOpenRouter Dialect = "openrouter"
	DialectDeepSeek   Dialect = "deepseek"
	DialectGroq       Dialect = "groq"
	DialectXAI        Dialect = "xai"
	DialectMistral    Dialect = "mistral"
	DialectTogether   Dialect = "together"
	DialectFireworks  Dialect = "fireworks"
	DialectMoonshot   Dialect = "moonshot"
	DialectZAI        Dialect = "zai"
	DialectOllama     Dialect = "ollama"
	DialectVLLM       Dialect = "vllm"
	DialectLlamaCpp   Dialect = "llamacpp"
	// DialectCompatible is any other server speaking a provider's wire.
	DialectCompatible Dialect = "compatible"
)

// Gateway reports whether d is a cloud gateway in front of the providers'
// own models.
func (d Dialect) Gateway() bool {
	return d == DialectBedrock || d == DialectVertex || d == DialectAzure
}
