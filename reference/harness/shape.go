package harness

import (
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// shape puts the compiled system prompt and messages in the form the wire's
// codec writes. Chat Completions has no top-level system prompt: it leads
// the messages. The Anthropic wire has no tool role: results go first in one
// user message, followed by the next user message's content (ephemeral
// feedback included) so that roles still alternate. The Responses wire
// takes one item per message (responsesItems), Gemini one user turn of
// function responses per model turn (geminiContents). The transcript's
// messages and blocks are never changed: what differs is copied.
func shape(w traffic.Wire, system []traffic.Block, msgs []traffic.Message) ([]traffic.Block, []traffic.Message) {
	switch w {
	case traffic.WireOpenAI:
		if len(system) == 0 {
			return nil, msgs
		}
		lead := traffic.Message{Role: traffic.RoleSystem, Blocks: system, ContentString: len(system) == 1}
		return nil, append([]traffic.Message{lead}, msgs...)
	case traffic.WireAnthropic:
		return system, toolResultsInUserMessages(msgs)
	case traffic.WireBedrock:
		return system, joinUserRuns(toolResultsInUserMessages(msgs))
	case traffic.WireResponses:
		return system, responsesItems(msgs)
	case traffic.WireGemini:
		return system, geminiContents(msgs)
	}
	return system, msgs
}

func toolResultsInUserMessages(msgs []traffic.Message) []traffic.Message {
	out := make([]traffic.Message, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		if msgs[i].Role != traffic.RoleTool {
			out = append(out, msgs[i])
			continue
		}
		merged := traffic.Message{Role: traffic.RoleUser}
		for ; i < len(msgs) && msgs[i].Role == traffic.RoleTool; i++ {
			merged.Blocks = append(merged.Blocks, msgs[i].Blocks...)
		}
		if i < len(msgs) && msgs[i].Role == traffic.RoleUser && !leadsWithResult(msgs[i]) {
			merged.Blocks = append(merged.Blocks, msgs[i].Blocks...)
		} else {
			i-- // the loop's i++ comes back to it
		}
		out = append(out, merged)
	}
	return out
}

func leadsWithResult(m traffic.Message) bool {
	return len(m.Blocks) > 0 && m.Blocks[0].Type == traffic.BlockToolResult
}

// joinUserRuns joins consecutive user messages into one (a compaction
// summary and the next prompt, a cancelled call's results and the next
// prompt): Converse refuses two user messages in a row, where the Messages
// API joins them itself.
func joinUserRuns(msgs []traffic.Message) []traffic.Message {
	out := make([]traffic.Message, 0, len(msgs))
	for _, m := range msgs {
		if n := len(out); n > 0 && m.Role == traffic.RoleUser && out[n-1].Role == traffic.RoleUser {
			out[n-1] = engine.Joined(out[n-1], m)
			continue
		}
		out = append(out, m)
	}
	return out
}
