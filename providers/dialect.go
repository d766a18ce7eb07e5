package providers

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/llmtck/llmtck/engine"
)

// hostDialects names the dialect of the hosts llmtck knows: a suffix of
// the host, lower case.
var hostDialects = []struct {
	suffix  string
	dialect engine.Dialect
}{
	{"api.anthropic.com", engine.DialectDirect},
	{"api.openai.com", engine.DialectDirect},
	{"generativelanguage.googleapis.com", engine.DialectDirect},
	{"amazonaws.com", engine.DialectBedrock}, // bedrock-runtime.<region>.amazonaws.com
	{"aiplatform.googleapis.com", engine.DialectVertex},
	{"-aiplatform.googleapis.com", engine.DialectVertex}, // <region>-aiplatform.googleapis.com
	{"openai.azure.com", engine.DialectAzure},
	{"cognitiveservices.azure.com", engine.DialectAzure},
	{"services.ai.azure.com", engine.DialectAzure},
	{"models.ai.azure.com", engine.DialectAzure},
	{"openrouter.ai", engine.DialectOpenRouter},
	{"api.deepseek.com", engine.DialectDeepSeek},
	{"api.groq.com", engine.DialectGroq},
	{"api.x.ai", engine.DialectXAI},
	{"api.mistral.ai", engine.DialectMistral},
	{"api.together.xyz", engine.DialectTogether},
	{"api.together.ai", engine.DialectTogether},
	{"api.fireworks.ai", engine.DialectFireworks},
	{"api.moonshot.ai", engine.DialectMoonshot},
	{"api.moonshot.cn", engine.DialectMoonshot},
	{"api.z.ai", engine.DialectZAI},
	{"open.bigmodel.cn", engine.DialectZAI},
}

// DetectDialect names who served a call from its URL and, when the URL
// names no host (path-only or response-only recordings), from the model
// name a compatible server is known by.
func DetectDialect(rawURL string, wire engine.Wire, model string) engine.Dialect {
	u, err := parseURL(rawURL)
	if err != nil {
		u = url.URL{}
	}
	host, port, path := strings.ToLower(u.Hostname()), u.Port(), u.Path
	switch {
	case wire == engine.WireBedrock:
		return engine.DialectDirect // Converse is Bedrock's own wire
	case strings.HasPrefix(host, "bedrock-mantle."):
		return engine.DialectBedrock // Bedrock's OpenAI-compatible endpoint
	case strings.Contains(path, "/model/") && (strings.HasSuffix(path, "/converse") || strings.HasSuffix(path, "/converse-stream") ||
		strings.HasSuffix(path, "/invoke") || strings.HasSuffix(path, "/invoke-with-response-stream")):
		return engine.DialectBedrock
	case strings.Contains(path, "/openai/deployments/"):
		return engine.DialectAzure
	case strings.HasPrefix(path, "/openai/v1/") && (host == "" || azureHost(host)):
		return engine.DialectAzure
	case strings.HasPrefix(path, "/api/chat") || strings.HasPrefix(path, "/api/generate") || port == "11434":
		return engine.DialectOllama
	}
	if host == "localhost" || loopbackAddr(host) {
		// llmtck's own replay server and simulators, or a local stand-in:
		// judged as the provider it stands in for.
		return engine.DialectUnknown
	}
	for _, h := range hostDialects {
		if hostIn(host, h.suffix) {
			return h.dialect
		}
	}
	if host != "" {
		return engine.DialectCompatible
	}
	if strings.HasPrefix(path, "/api/v1/") {
		return engine.DialectOpenRouter // openrouter.ai/api/v1, recorded without its host
	}
	if wire == engine.WireOpenAI || wire == engine.WireResponses {
		if d := modelDialect(model); d != "" {
			return d
		}
	}
	return engine.DialectUnknown
}

// hostIn reports whether host is domain or one of its subdomains; a domain
// that starts with a dash ends a host name (<region>-aiplatform...).
func hostIn(host, domain string) bool {
	if !strings.HasSuffix(host, domain) {
		return false
	}
	rest := host[:len(host)-len(domain)]
	return rest == "" || strings.HasSuffix(rest, ".") || strings.HasPrefix(domain, "-")
}

// modelDialect guesses the server of a path-only OpenAI-wire recording from
// the model it names: vendors' own names, or a router's vendor/model.
func modelDialect(model string) engine.Dialect {
	m := strings.ToLower(model)
	switch {
	case m == "":
		return ""
	case strings.Contains(m, "/"):
		return engine.DialectCompatible // a router's vendor/model
	case strings.HasPrefix(m, "deepseek"):
		return engine.DialectDeepSeek
	case strings.HasPrefix(m, "grok"):
		return engine.DialectXAI
	case strings.HasPrefix(m, "mistral"), strings.HasPrefix(m, "magistral"), strings.HasPrefix(m, "codestral"), strings.HasPrefix(m, "devstral"):
		return engine.DialectMistral
	case strings.HasPrefix(m, "kimi"), strings.HasPrefix(m, "moonshot"):
		return engine.DialectMoonshot
	case strings.HasPrefix(m, "glm"):
		return engine.DialectZAI
	case strings.HasPrefix(m, "gpt"), strings.HasPrefix(m, "o1"), strings.HasPrefix(m, "o3"), strings.HasPrefix(m, "o4"), strings.HasPrefix(m, "chatgpt"), strings.HasPrefix(m, "codex"):
		return ""
	}
	return engine.DialectCompatible
}

func azureHost(host string) bool {
	for _, h := range hostDialects {
		if h.dialect == engine.DialectAzure && strings.HasSuffix(host, "."+h.suffix) {
			return true
		}
	}
	return false
}

// loopbackAddr reports whether host is a loopback address. A name is not
// parsed: a failed parse costs an error value, and this runs for every call
// the linter decodes.
func loopbackAddr(host string) bool {
	if host == "" || !(host[0] >= '0' && host[0] <= '9' || strings.Contains(host, ":")) {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}
