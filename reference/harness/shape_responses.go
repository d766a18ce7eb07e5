package harness

import "github.com/llmtck/llmtck/traffic"

// The loop talks to the Responses wire statelessly: every request has
// store:false and resends the whole history, asking for the reasoning
// payloads it will need to resend (docs/provider-rules.md §3.1).
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
func responsesItems(msgs []traffic.Message) []traffic.Message {
	var split []traffic.Message
	for _, m := range msgs {
		split = append(split, itemsOf(m)...)
	}
	out := make([]traffic.Message, 0, len(split))
	orphaned := false // the turn's last reasoning item was left out
	for i, m := range split {
		if m.Role != traffic.RoleAssistant {
			orphaned = false
			out = append(out, m)
			continue
		}
		if r, ok := reasoningOf(m); ok {
			followed := i+1 < len(split) && split[i+1].Role == traffic.RoleAssistant
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
func itemsOf(m traffic.Message) []traffic.Message {
	if m.Role != traffic.RoleAssistant || len(m.Blocks) < 2 || !mixed(m.Blocks) {
		return []traffic.Message{m}
	}
	var out []traffic.Message
	var parts []traffic.Block
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
		out = append(out, traffic.Message{Role: traffic.RoleAssistant, WireType: itemType(b), Blocks: []traffic.Block{b}})
	}
	flush()
	return out
}

// mixed reports whether blocks hold an item of its own next to anything.
func mixed(blocks []traffic.Block) bool {
	for _, b := range blocks {
		if ownItem(b) {
			return true
		}
	}
	return false
}

func ownItem(b traffic.Block) bool {
	return b.Type == traffic.BlockReasoning || b.Type == traffic.BlockToolCall
}

func itemType(b traffic.Block) string {
	switch {
	case b.WireType != "":
		return b.WireType
	case b.Type == traffic.BlockReasoning:
		return "reasoning"
	}
	return "function_call"
}

// reasoningOf returns the reasoning block of a reasoning item.
func reasoningOf(m traffic.Message) (traffic.Block, bool) {
	if len(m.Blocks) == 1 && m.Blocks[0].Type == traffic.BlockReasoning {
		return m.Blocks[0], true
	}
	return traffic.Block{}, false
}

// withoutItemIDs copies m with its tool calls' item ids removed.
func withoutItemIDs(m traffic.Message) traffic.Message {
	blocks := make([]traffic.Block, len(m.Blocks))
	copy(blocks, m.Blocks)
	for j := range blocks {
		if blocks[j].Type == traffic.BlockToolCall {
			blocks[j].ItemID = ""
		}
	}
	m.Blocks = blocks
	return m
}
