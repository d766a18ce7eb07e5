package reference

import (
	"slices"
	"time"

	rspwire "github.com/llmtck/llmtck/providers/responses"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// adapt is the history as the adapter of to.wire, for model to.model, is
// given it. Messages another wire produced are rebuilt in the model's plain
// terms (their wire-specific fields belong to that wire), and their opaque
// reasoning is routed by replay tag: kept for an adapter that declares the
// tag, inlined when it is plain text, elided otherwise. On Responses a
// message another model family produced is rebuilt the same way with its
// reasoning elided: a model that does not reason refuses reasoning items
// and another family cannot decrypt them (OAI-RSN-005). Eliding changes
// only this request: conv keeps every thought for a later adapter that can
// replay it.
func adapt(conv *conversation, to source, b breaks) []traffic.Message {
	w := to.wire
	accepts := b.replayTags(w)
	var out []traffic.Message
	for i, m := range conv.msgs {
		from := conv.origin[i]
		switched := !b.keepReasoningOnSwitch && from.wire == w && modelSwitched(w, from.model, to.model)
		if from.wire == "" || (from.wire == w && !switched) || m.Role != traffic.RoleAssistant {
			out = append(out, m)
			continue
		}
		tags := accepts
		if switched {
			tags = nil
		}
		rebuilt := traffic.Message{Role: traffic.RoleAssistant}
		for _, blk := range m.Blocks {
			rebuilt.Blocks = append(rebuilt.Blocks, carry(blk, w, tags, b.leakThoughts)...)
		}
		if len(rebuilt.Blocks) == 0 {
			continue
		}
		// Item-per-message wires (Responses) split one reply in several
		// assistant messages; the others take it as one.
		if n := len(out); n > 0 && w != traffic.WireResponses && out[n-1].Role == traffic.RoleAssistant && conv.origin[i-1] == from {
			out[n-1].Blocks = append(append([]traffic.Block(nil), out[n-1].Blocks...), rebuilt.Blocks...)
			continue
		}
		out = append(out, rebuilt)
	}
	return out
}

// carry is what of block b, produced by another wire, goes to an adapter
// on wire w that replays the tags in accepts: a thought for the side
// channel has no place in a replayed history, so it is left out. leak is the broken engine that sends an
// opaque thought the adapter did not declare, relabelled as its own.
func carry(b traffic.Block, w traffic.Wire, accepts []string, leak bool) []traffic.Block {
	if isReasoning(b) {
		now := time.Now()
		t, ok := engine.ThoughtFromBlock(b, engine.RawThought{ID: "thought", CreatedAt: now, UpdatedAt: now})
		if !ok {
			return nil // nothing any adapter could replay
		}
		if leak && t.Opaque() && len(accepts) > 0 && !slices.Contains(accepts, t.ReplayCompatibility) {
			t.ReplayCompatibility = accepts[0]
		}
		d := engine.RouteThoughts([]engine.Thought{t}, w, accepts)
		switch {
		case len(d.Opaque) > 0:
			if tb, ok := engine.ThoughtBlock(t); ok {
				return []traffic.Block{tb}
			}
		case len(d.Plain) > 0 && t.Content != "":
			return []traffic.Block{engine.PlainThoughtBlock(t)}
		}
		return nil
	}
	switch b.Type {
	case traffic.BlockText:
		if b.Text == "" {
			return nil
		}
		return []traffic.Block{textBlock(b.Text)}
	case traffic.BlockToolCall:
		args, err := engine.ToolArguments(b.Input)
		if err != nil {
			args = b.Input
		}
		return []traffic.Block{{Type: traffic.BlockToolCall, ID: b.ID, Name: b.Name, Input: args}}
	}
	return []traffic.Block{b}
}

// isReasoning reports whether b carries reasoning: thinking, redacted
// thinking, a Responses reasoning item, a Gemini thought part.
func isReasoning(b traffic.Block) bool {
	switch b.Type {
	case traffic.BlockThinking, traffic.BlockRedacted, traffic.BlockReasoning:
		return true
	}
	return false
}

// modelSwitched reports whether a Responses message produced by model from
// must lose its reasoning to go to model to.
func modelSwitched(w traffic.Wire, from, to string) bool {
	if w != traffic.WireResponses || from == "" || to == "" {
		return false
	}
	return !rspwire.Reasons(to) || rspwire.Family(from) != rspwire.Family(to)
}
