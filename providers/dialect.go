package providers

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

// hostDialects names the dialect of the hosts llmtck knows: a suffix of
// the host, lower case.
var hostDialects = []struct {
	suffix  string
	dialect traffic.Dialect
}{
	{"api.anthropic.com", traffic.DialectDirect},
	{"api.openai.com", traffic.DialectDirect},
	{"generativelanguage.googleapis.com", traffic.DialectDirect},
	{"amazonaws.com", traffic.DialectBedrock}, // bedrock-runtime.<region>.amazonaws.com
	{"aiplatform.googleapis.com", traffic.DialectVertex},
	{"-aiplatform.googleapis.com", traffic.DialectVertex}, // <region>-aiplatform.googleapis.com
	{"openai.azure.com", traffic.DialectAzure},
	{"cognitiveservices.azure.com", traffic.DialectAzure},
	{"services.ai.azure.com", traffic.DialectAzure},
	{"models.ai.azure.com", traffic.DialectAzure},
	{"openrouter.ai", traffic.DialectOpenRouter},
	{"api.deepseek.com", traffic.DialectDeepSeek},
	{"api.groq.com", traffic.DialectGroq},
	{"api.x.ai", traffic.DialectXAI},
	{"api.mistral.ai", traffic.DialectMistral},
	{"api.together.xyz", traffic.DialectTogether},
	{"api.together.ai", traffic.DialectTogether},
	{"api.fireworks.ai", traffic.DialectFireworks},
	{"api.moonshot.ai", traffic.DialectMoonshot},
	{"api.moonshot.cn", traffic.DialectMoonshot},
	{"api.z.ai", traffic.DialectZAI},
	{"open.bigmodel.cn", traffic.DialectZAI},
}

// DetectDialect names who served a call from its URL and, when the URL
// names no host (path-only or response-only recordings), from the model
// name a compatible server is known by.
func DetectDialect(rawURL string, wire traffic.Wire, model string) traffic.Dialect {
	u, err := parseURL(rawURL)
	if err != nil {
		u = url.URL{}
	}
	host, port, path := strings.ToLower(u.Hostname()), u.Port(), u.Path
	switch {
	case wire == traffic.WireBedrock:
		return traffic.DialectDirect // Converse is Bedrock's own wire
	case strings.HasPrefix(host, "bedrock-mantle."):
		return traffic.DialectBedrock // Bedrock's OpenAI-compatible endpoint
	case strings.Contains(path, "/model/") && (strings.HasSuffix(path, "/converse") || strings.HasSuffix(path, "/converse-stream") ||
		strings.HasSuffix(path, "/invoke") || strings.HasSuffix(path, "/invoke-with-response-stream")):
		return traffic.DialectBedrock
	case strings.Contains(path, "/openai/deployments/"):
		return traffic.DialectAzure
	case strings.HasPrefix(path, "/openai/v1/") && (host == "" || azureHost(host)):
		return traffic.DialectAzure
	case strings.HasPrefix(path, "/api/chat") || strings.HasPrefix(path, "/api/generate") || port == "11434":
		return traffic.DialectOllama
	}
	if host == "localhost" || loopbackAddr(host) {
		// llmtck's own replay server and simulators, or a local stand-in:
		// judged as the provider it stands in for.
		return traffic.DialectUnknown
	}
	for _, h := range hostDialects {
		if hostIn(host, h.suffix) {
			return h.dialect
		}
	}
	if host != "" {
		return traffic.DialectCompatible
	}
	if strings.HasPrefix(path, "/api/v1/") {
		return traffic.DialectOpenRouter // openrouter.ai/api/v1, recorded without its host
	}
	if wire == traffic.WireOpenAI || wire == traffic.WireResponses {
		if d := modelDialect(model); d != "" {
			return d
		}
	}
	return traffic.DialectUnknown
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
func modelDialect(model string) traffic.Dialect {
	m := strings.ToLower(model)
	switch {
	case m == "":
		return ""
	case strings.Contains(m, "/"):
		return traffic.DialectCompatible // a router's vendor/model
	case strings.HasPrefix(m, "deepseek"):
		return traffic.DialectDeepSeek
	case strings.HasPrefix(m, "grok"):
		return traffic.DialectXAI
	case strings.HasPrefix(m, "mistral"), strings.HasPrefix(m, "magistral"), strings.HasPrefix(m, "codestral"), strings.HasPrefix(m, "devstral"):
		return traffic.DialectMistral
	case strings.HasPrefix(m, "kimi"), strings.HasPrefix(m, "moonshot"):
		return traffic.DialectMoonshot
	case strings.HasPrefix(m, "glm"):
		return traffic.DialectZAI
	case strings.HasPrefix(m, "gpt"), strings.HasPrefix(m, "o1"), strings.HasPrefix(m, "o3"), strings.HasPrefix(m, "o4"), strings.HasPrefix(m, "chatgpt"), strings.HasPrefix(m, "codex"):
		return ""
	}
	return traffic.DialectCompatible
}

func azureHost(host string) bool {
	for _, h := range hostDialects {
		if h.dialect == traffic.DialectAzure && strings.HasSuffix(host, "."+h.suffix) {
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
