package harness

import "github.com/llmtck/llmtck/engine"

// shape puts the compiled system prompt and messages in the form the wire's
// codec writes. Chat Completions has no top-level system prompt: it leads
// the messages. The Anthropic wire has no tool role: results go first in one
// user message, followed by the next user message's content (ephemeral
// feedback included) so that roles still alternate. The Responses wire
// takes one item per message (responsesItems), Gemini one user turn of
// function responses per model turn (geminiContents). The transcript's
// messages and blocks are never changed: what differs is copied.
func shape(w engine.Wire, system []engine.Block, msgs []engine.Message) ([]engine.Block, []engine.Message) {
	switch w {
	case engine.WireOpenAI:
		if len(system) == 0 {
			return nil, msgs
		}
		lead := engine.Message{Role: engine.RoleSystem, Blocks: system, ContentString: len(system) == 1}
		return nil, append([]engine.Message{lead}, msgs...)
	case engine.WireAnthropic:
		return system, toolResultsInUserMessages(msgs)
	case engine.WireBedrock:
		return system, joinUserRuns(toolResultsInUserMessages(msgs))
	case engine.WireResponses:
		return system, responsesItems(msgs)
	case engine.WireGemini:
		return system, geminiContents(msgs)
	}
	return system, msgs
}

func toolResultsInUserMessages(msgs []engine.Message) []engine.Message {
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

// joinUserRuns joins consecutive user messages into one (a compaction
// summary and the next prompt, a cancelled call's results and the next
// prompt): Converse refuses two user messages in a row, where the Messages
// API joins them itself.
func joinUserRuns(msgs []engine.Message) []engine.Message {
	out := make([]engine.Message, 0, len(msgs))
	for _, m := range msgs {
		if n := len(out); n > 0 && m.Role == engine.RoleUser && out[n-1].Role == engine.RoleUser {
			joined := out[n-1]
			joined.Blocks = append(append([]engine.Block(nil), joined.Blocks...), m.Blocks...)
			joined.ContentString = false
			out[n-1] = joined
			continue
		}
		out = append(out, m)
	}
	return out
}
