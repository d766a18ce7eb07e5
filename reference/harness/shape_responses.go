package harness

import "github.com/llmtck/llmtck/engine"

// The loop talks to the Responses wire statelessly: every request has
// store:false and resends the whole history, asking for the reasoning
// payloads it will need to resend (wire-rules §3.1).
var responsesInclude = []string{"reasoning.encrypted_content"}

// responsesItems puts the history in the Responses wire's item form. The
// loop's own history already holds one message per item, in order, as the
// provider sent them; they pass unchanged. Besides:
//   - an assistant message that mixes reasoning or tool calls with text (a
//     starting transcript, a routed thought placed before a message item)
//     becomes one message per item, the message's own fields (id, phase…)
//     staying on its text;
//   - a reasoning item without encrypted_content is left out: with
//     store:false the server cannot look it up by id (R3). The
//     function_calls it produced then lose their fc_ item id, which would
//     demand it (R2); their call_id still pairs the outputs;
//   - a reasoning item that no item of its turn follows is left out: the
//     API rejects it alone (R1).
func responsesItems(msgs []engine.Message) []engine.Message {
	var split []engine.Message
	for _, m := range msgs {
		split = append(split, itemsOf(m)...)
	}
	out := make([]engine.Message, 0, len(split))
	orphaned := false // the turn's last reasoning item was left out
	for i, m := range split {
		if m.Role != engine.RoleAssistant {
			orphaned = false
			out = append(out, m)
			continue
		}
		if r, ok := reasoningOf(m); ok {
			followed := i+1 < len(split) && split[i+1].Role == engine.RoleAssistant
			orphaned = len(r.EncryptedContent) == 0
			if orphaned || !followed {
				continue
			}
			out = append(out, m)
			continue
		}
		if orphaned {
			m = withoutItemIDs(m)
		}
		out = append(out, m)
	}
	return out
}

// itemsOf splits an assistant message into one message per item: each
// reasoning or tool call block alone, runs of text and media together.
func itemsOf(m engine.Message) []engine.Message {
	if m.Role != engine.RoleAssistant || len(m.Blocks) < 2 || !mixed(m.Blocks) {
		return []engine.Message{m}
	}
	var out []engine.Message
	var parts []engine.Block
	own := true // the message's own fields go on its first text item
	flush := func() {
		if len(parts) == 0 {
			return
		}
		item := m
		item.Blocks = parts
		if !own {
			item.Extra = nil
		}
		own, parts = false, nil
		out = append(out, item)
	}
	for _, b := range m.Blocks {
		if !ownItem(b) {
			parts = append(parts, b)
			continue
		}
		flush()
		out = append(out, engine.Message{Role: engine.RoleAssistant, WireType: itemType(b), Blocks: []engine.Block{b}})
	}
	flush()
	return out
}

// mixed reports whether blocks hold an item of its own next to anything.
func mixed(blocks []engine.Block) bool {
	for _, b := range blocks {
		if ownItem(b) {
			return true
		}
	}
	return false
}

func ownItem(b engine.Block) bool {
	return b.Type == engine.BlockReasoning || b.Type == engine.BlockToolCall
}

func itemType(b engine.Block) string {
	switch {
	case b.WireType != "":
		return b.WireType
	case b.Type == engine.BlockReasoning:
		return "reasoning"
	}
	return "function_call"
}

// reasoningOf returns the reasoning block of a reasoning item.
func reasoningOf(m engine.Message) (engine.Block, bool) {
	if len(m.Blocks) == 1 && m.Blocks[0].Type == engine.BlockReasoning {
		return m.Blocks[0], true
	}
	return engine.Block{}, false
}

// withoutItemIDs copies m with its tool calls' item ids removed.
func withoutItemIDs(m engine.Message) engine.Message {
	blocks := make([]engine.Block, len(m.Blocks))
	copy(blocks, m.Blocks)
	for j := range blocks {
		if blocks[j].Type == engine.BlockToolCall {
			blocks[j].ItemID = ""
		}
	}
	m.Blocks = blocks
	return m
}
