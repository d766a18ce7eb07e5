package openai

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// judgeReasoningContentEchoed (OAI-COMPAT-001): on DeepSeek and Moonshot, an assistant
// tool-call message of the current tool loop (after the last user message)
// carries back the reasoning_content its recorded response produced. Calls
// with no recorded origin, or whose response had no reasoning_content, are
// not judged: nothing says thinking mode was on.
func judgeReasoningContentEchoed(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, origins func(id string) *source) {
		host := reasoningHost(ex.URL, req.Model)
		if host == "" {
			return
		}
		msgs := req.Messages
		start := 0
		for i := range msgs {
			if msgs[i].Role == traffic.RoleUser {
				start = i + 1
			}
		}
		for i := start; i < len(msgs); i++ {
			m := &msgs[i]
			if m.Role != traffic.RoleAssistant || reasoning(m) != nil {
				continue
			}
			for _, c := range callsOf(m) {
				o := origins(c.ID)
				if o == nil {
					continue
				}
				rb := reasoning(o.message)
				if rb == nil {
					continue
				}
				r.Add(ex.Index, "request."+m.Path, "assistant message %s (tool call %s) has no reasoning_content, but interaction %d produced it with %d bytes of reasoning_content, which %s requires back in thinking mode",
					m.Path, c.ID, o.exchange, len(rb.Text), host)
				break
			}
		}
	})
}

// reasoningHost names the OpenAI-compatible host that requires
// reasoning_content back — by URL host, or by model name when the URL is a
// gateway or proxy — or returns "". A router's vendor/model name
// ("deepseek/deepseek-r1") is left to the router, which does not require it.
func reasoningHost(rawURL, model string) string {
	host := traffic.HostOf(rawURL)
	switch {
	case strings.Contains(host, "deepseek"):
		return "DeepSeek"
	case strings.Contains(host, "moonshot"):
		return "Moonshot"
	case strings.Contains(model, "/"):
		return ""
	}
	m := strings.ToLower(model)
	switch {
	case strings.HasPrefix(m, "deepseek"):
		return "DeepSeek"
	case strings.HasPrefix(m, "kimi"), strings.HasPrefix(m, "moonshot"):
		return "Moonshot"
	}
	return ""
}

// judgeNoForcedToolChoice (OAI-COMPAT-003): DeepSeek's thinking mode takes
// tool_choice auto or none only.
func judgeNoForcedToolChoice(tr *check.Traffic, r *check.Reporter) {
	for i := tr.WantedFrom(); i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		req := ex.Request
		if ex.Wire != traffic.WireOpenAI || req == nil || reasoningHost(ex.URL, req.Model) != "DeepSeek" || len(req.ToolChoice) == 0 {
			continue
		}
		thinking := strings.Contains(strings.ToLower(req.Model), "reasoner")
		if raw, ok := req.Extra["thinking"]; ok {
			var t struct {
				Type string `json:"type"`
			}
			thinking = json.Unmarshal(raw, &t) == nil && t.Type == "enabled"
		}
		if !thinking {
			continue
		}
		choice, isString := rawjson.String(req.ToolChoice)
		if isString && (choice == "auto" || choice == "none") {
			continue
		}
		r.Add(ex.Index, "request.tool_choice", "tool_choice %s with thinking on: DeepSeek's thinking mode takes auto or none", rawjson.Compact(req.ToolChoice))
	}
}
