package bedrock

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

func judgeToolUseAnswered(tr *check.Traffic, r *check.Reporter) {
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		msgs := req.Messages
		for k, m := range msgs {
			if m.Role == traffic.RoleAssistant && k+1 < len(msgs) {
				results := resultIDs(&msgs[k+1])
				var missing []string
				for _, b := range m.Blocks {
					if b.Type == traffic.BlockToolCall && !results[b.ID] {
						missing = append(missing, b.ID)
					}
				}
				if len(missing) > 0 {
					r.Add(i, "request."+msgs[k+1].Path, "no toolResult for %s of messages[%d]", strings.Join(missing, ", "), k)
				}
			}
			if m.Role != traffic.RoleUser {
				continue
			}
			calls := map[string]bool{}
			if k > 0 && msgs[k-1].Role == traffic.RoleAssistant {
				for _, b := range msgs[k-1].Blocks {
					if b.Type == traffic.BlockToolCall {
						calls[b.ID] = true
					}
				}
			}
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockToolResult && !calls[b.ToolCallID] {
					r.Add(i, "request."+b.Path, "toolResult %s answers no toolUse of the message before it", b.ToolCallID)
				}
			}
		}
	})
}

func resultIDs(m *traffic.Message) map[string]bool {
	ids := map[string]bool{}
	for _, b := range m.Blocks {
		if b.Type == traffic.BlockToolResult {
			ids[b.ToolCallID] = true
		}
	}
	return ids
}

func judgeToolConfigWithHistory(tr *check.Traffic, r *check.Reporter) {
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		if _, ok := req.Extra["toolConfig"]; ok {
			return
		}
		for _, m := range req.Messages {
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockToolCall || b.Type == traffic.BlockToolResult {
					r.Add(i, "request."+b.Path, "the history holds %s blocks but the request defines no toolConfig", b.WireType)
					return
				}
			}
		}
	})
}

func judgeErrorResultsExplained(tr *check.Traffic, r *check.Reporter) {
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		for _, m := range req.Messages {
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockToolResult && b.IsError && emptyContent(&b) {
					r.Add(i, "request."+b.Path, "toolResult %s has status \"error\" and no content", b.ToolCallID)
				}
			}
		}
	})
}

// emptyContent reports whether a tool result says nothing: no content
// block, or only blank text.
func emptyContent(b *traffic.Block) bool {
	for _, c := range b.Content {
		if c.Type != traffic.BlockText || strings.TrimSpace(c.Text) != "" || c.WireType == "json" {
			return false
		}
	}
	return true
}
