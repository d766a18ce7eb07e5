package harness

import "github.com/llmtck/llmtck/engine"

// shape rewrites the transcript's wire-neutral tool messages into the form
// the wire's codec writes. The Anthropic wire has no tool role: results go
// first in one user message, followed by the next user message's content
// (ephemeral feedback included) so that roles still alternate. Other wires
// take tool messages as they are.
func shape(w engine.Wire, msgs []engine.Message) []engine.Message {
	if w != engine.WireAnthropic {
		return msgs
	}
	out := make([]engine.Message, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		if msgs[i].Role != engine.RoleTool {
			out = append(out, msgs[i])
			continue
		}
		merged := engine.Message{Role: engine.RoleUser}
		for ; i < len(msgs) && msgs[i].Role == engine.RoleTool; i++ {
			merged.Blocks = append(merged.Blocks, msgs[i].Blocks...)
		}
		if i < len(msgs) && msgs[i].Role == engine.RoleUser && !leadsWithResult(msgs[i]) {
			merged.Blocks = append(merged.Blocks, msgs[i].Blocks...)
		} else {
			i-- // the loop's i++ comes back to it
		}
		out = append(out, merged)
	}
	return out
}

func leadsWithResult(m engine.Message) bool {
	return len(m.Blocks) > 0 && m.Blocks[0].Type == engine.BlockToolResult
}
