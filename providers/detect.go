package providers

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers/bedrock"
	"github.com/llmtck/llmtck/traffic"
)

// Detect names the wire of one call from its URL and, when the URL says
// nothing (response-only fixtures, unusual gateways), from the shape of its
// bodies. OpenAI-compatible hosts (Groq, OpenRouter, DeepSeek…) use the
// chat-completions path and so decode as traffic.WireOpenAI.
func Detect(rawURL string, reqBody, respBody []byte) traffic.Wire {
	if w := detectPath(rawURL); w != traffic.WireUnknown {
		return w
	}
	if rawURL != "" && !bytes.Contains(reqBody, []byte(`"anthropic_version"`)) {
		// A URL that names no provider endpoint (a search API, a tool
		// server) is not provider traffic, whatever its body looks like.
		return traffic.WireUnknown
	}
	if w := detectRequestShape(reqBody); w != traffic.WireUnknown {
		return w
	}
	return detectResponseShape(respBody)
}

// detectPath recognises the endpoint paths of the four wires, including the
// Bedrock and Vertex routes that carry Anthropic bodies.
func detectPath(rawURL string) traffic.Wire {
	u, err := parseURL(rawURL)
	if err != nil || rawURL == "" {
		return traffic.WireUnknown
	}
	p := strings.TrimSuffix(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/messages") && !strings.Contains(p, "/threads/"):
		return traffic.WireAnthropic
	case strings.HasSuffix(p, ":rawPredict"), strings.HasSuffix(p, ":streamRawPredict"):
		return traffic.WireAnthropic // Vertex AI route for Claude
	case strings.Contains(p, "/model/") && (strings.HasSuffix(p, "/invoke") || strings.HasSuffix(p, "/invoke-with-response-stream")):
		// Bedrock InvokeModel takes each model family's native body: only
		// Claude's is the Anthropic wire (Nova, Llama, Titan are not).
		if m := strings.ToLower(p); strings.Contains(m, "anthropic") || strings.Contains(m, "claude") {
			return traffic.WireAnthropic
		}
		return traffic.WireUnknown
	case strings.Contains(p, "/model/") && (strings.HasSuffix(p, "/converse") || strings.HasSuffix(p, "/converse-stream")):
		return traffic.WireBedrock // Bedrock Converse, for every model it serves
	case strings.HasSuffix(p, "/chat/completions"):
		return traffic.WireOpenAI
	case strings.HasSuffix(p, "/responses"):
		return traffic.WireResponses
	case strings.HasSuffix(p, ":generateContent"), strings.HasSuffix(p, ":streamGenerateContent"):
		return traffic.WireGemini
	}
	return traffic.WireUnknown
}

// topKeys returns the top-level keys of a JSON object, or nil.
func topKeys(body []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return m
}

func detectRequestShape(body []byte) traffic.Wire {
	m := topKeys(body)
	switch {
	case m == nil:
		return traffic.WireUnknown
	case m["contents"] != nil:
		return traffic.WireGemini
	case m["input"] != nil && m["messages"] == nil:
		return traffic.WireResponses
	case m["anthropic_version"] != nil:
		return traffic.WireAnthropic
	case m["messages"] != nil:
		// Anthropic takes a top-level system and content blocks typed
		// tool_use/tool_result; chat takes tool_calls and role "tool".
		s := string(m["messages"])
		if m["system"] != nil || strings.Contains(s, `"tool_use"`) || strings.Contains(s, `"tool_result"`) || strings.Contains(s, `"thinking"`) {
			return traffic.WireAnthropic
		}
		return traffic.WireOpenAI
	}
	return traffic.WireUnknown
}

func detectResponseShape(b []byte) traffic.Wire {
	switch body.Sniff(b) {
	case body.EventStream:
		for _, ev := range sse.Parse(b) {
			if ev.Data == "" || ev.Data == "[DONE]" {
				continue
			}
			if w := detectResponseDoc([]byte(ev.Data)); w != traffic.WireUnknown {
				return w
			}
		}
		return traffic.WireUnknown
	case body.JSONLines:
		return detectResponseDoc(body.Lines(b)[0].Data)
	}
	return detectResponseDoc(b)
}

func detectResponseDoc(doc []byte) traffic.Wire {
	m := topKeys(doc)
	if m == nil {
		return traffic.WireUnknown
	}
	typ, _ := unquote(m["type"])
	obj, _ := unquote(m["object"])
	switch {
	case typ == "message" || strings.HasPrefix(typ, "message_") || strings.HasPrefix(typ, "content_block_"):
		return traffic.WireAnthropic
	case strings.HasPrefix(typ, "response.") || obj == "response":
		return traffic.WireResponses
	case strings.HasPrefix(obj, "chat.completion"):
		return traffic.WireOpenAI
	case m["candidates"] != nil || m["promptFeedback"] != nil:
		return traffic.WireGemini
	case bedrock.IsStreamEvent(doc):
		return traffic.WireBedrock
	}
	return traffic.WireUnknown
}

func unquote(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
