package bedrock

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

func judgeRolesAlternate(tr *check.Traffic, r *check.Reporter) {
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		for k, m := range req.Messages {
			switch {
			case k == 0 && m.Role != traffic.RoleUser:
				r.Add(i, "request."+m.Path, "the conversation starts with a %s message; Converse wants a user message first", orNone(m.Role))
			case k > 0 && m.Role == req.Messages[k-1].Role:
				r.Add(i, "request."+m.Path, "two %s messages in a row (messages[%d] and messages[%d]); merge them into one", orNone(m.Role), k-1, k)
			}
		}
	})
}

func orNone(role traffic.Role) string {
	if role == "" {
		return "role-less"
	}
	return string(role)
}

func judgeNoBlankText(tr *check.Traffic, r *check.Reporter) {
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		for _, m := range req.Messages {
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockText && b.WireType == memberText && strings.TrimSpace(b.Text) == "" {
					r.Add(i, "request."+b.Path, "text block is blank (%q)", b.Text)
				}
			}
		}
	})
}

// memberText is a Converse text block's union member.
const memberText = "text"
