package responses

import "strings"

// nonReasoningPrefixes name the OpenAI model families that do not reason:
// the API refuses reasoning input items sent to them ("Reasoning input
// items can only be provided to a reasoning or computer use model",
// openai/openai-agents-python#569, #2602). A model not listed here is taken
// to reason, so a check never refuses what an unknown model might accept.
var nonReasoningPrefixes = []string{"gpt-4", "gpt-3.5", "chatgpt-4o"}

// Reasons reports whether model accepts reasoning input items. Gateway
// prefixes ("openai/gpt-4.1", "azure/…") are ignored.
func Reasons(model string) bool {
	m := bareModel(model)
	for _, p := range nonReasoningPrefixes {
		if strings.HasPrefix(m, p) {
			return false
		}
	}
	return true
}

// Family is the model family a reasoning payload is minted for: the model
// id without gateway prefix, date and size suffix ("gpt-5.4-mini-2026-03-01"
// → "gpt-5.4", "o4-mini" → "o4"). "" when model is "".
func Family(model string) string {
	m := bareModel(model)
	parts := strings.Split(m, "-")
	if len(parts) >= 2 && (parts[0] == "gpt" || parts[0] == "chatgpt") {
		return parts[0] + "-" + parts[1]
	}
	return parts[0]
}

// bareModel is model in lower case without a gateway prefix.
func bareModel(model string) string {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	return m
}
