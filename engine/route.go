package engine

import (
	"slices"
	"strings"
)

// Dispatch is how a set of thoughts is routed to one adapter.
type Dispatch struct {
	// Opaque thoughts go to the wire's reasoning channel with their payload.
	Opaque []Thought
	// Plain thoughts are inlined as text in a <thought> envelope.
	Plain []Thought
	// Elided thoughts are not sent to this adapter but stay in context for a
	// later adapter that declares their tag.
	Elided []Thought
}

// RouteThoughts routes thoughts for an adapter that can replay the tags in
// accepts (seed 003). A thought whose tag the adapter declares goes to the
// reasoning channel when it has a payload, or inline when it has none; a
// plain-text thought is always inlined; anything else is elided. thoughts
// itself is not changed: eliding never removes a thought from context.
func RouteThoughts(thoughts []Thought, accepts []string) Dispatch {
	var d Dispatch
	for _, t := range thoughts {
		switch {
		case t.ReplayCompatibility != ReplayPlainText && slices.Contains(accepts, t.ReplayCompatibility) && t.Opaque():
			d.Opaque = append(d.Opaque, t)
		case t.PlainText() || slices.Contains(accepts, t.ReplayCompatibility):
			d.Plain = append(d.Plain, t)
		default:
			d.Elided = append(d.Elided, t)
		}
	}
	return d
}

// ThoughtBlock returns the block that carries an opaque thought on its
// wire's reasoning channel, with the payload bytes untouched. ok is false
// for a tag no wire here defines a channel for.
func ThoughtBlock(t Thought) (b Block, ok bool) {
	switch t.ReplayCompatibility {
	case ReplayAnthropicThinking:
		return Block{Type: BlockThinking, WireType: "thinking", Text: t.Content, Signature: t.Payload}, true
	case ReplayAnthropicRedacted:
		return Block{Type: BlockRedacted, WireType: "redacted_thinking", Data: t.Payload}, true
	case ReplayResponsesReasoning:
		b := Block{Type: BlockReasoning, WireType: "reasoning", ItemID: t.ID, EncryptedContent: t.Payload}
		if t.Content != "" {
			b.Text = t.Content
			b.Content = []Block{{Type: BlockText, WireType: "summary_text", Text: t.Content}}
		}
		return b, true
	case ReplayGeminiSignature:
		return Block{Type: BlockThinking, Thought: true, Text: t.Content, Signature: t.Payload}, true
	case ReplayBedrockReasoning:
		return Block{Type: BlockThinking, WireType: bedrockReasoning, Text: t.Content, Signature: t.Payload}, true
	case ReplayBedrockRedacted:
		return Block{Type: BlockRedacted, WireType: bedrockReasoning, Data: t.Payload}, true
	}
	return Block{}, false
}

// bedrockReasoning is the Converse union member reasoning blocks come in.
const bedrockReasoning = "reasoningContent"

// PlainThoughtBlock renders a thought as an inline text block.
func PlainThoughtBlock(t Thought) Block {
	return Block{Type: BlockText, Text: "<thought>" + t.Content + "</thought>"}
}

// ThoughtFromBlock turns a reasoning block of a decoded response into a
// thought tagged for its wire, so it can be routed to other adapters. ok is
// false for a block that carries no reasoning.
func ThoughtFromBlock(b Block, raw RawThought) (Thought, bool) {
	switch {
	case b.Type == BlockThinking && b.Thought:
		raw.ReplayCompatibility, raw.Payload = ReplayGeminiSignature, b.Signature
	case b.Type == BlockThinking && b.WireType == bedrockReasoning:
		raw.ReplayCompatibility, raw.Payload = ReplayBedrockReasoning, b.Signature
	case b.Type == BlockRedacted && b.WireType == bedrockReasoning:
		raw.ReplayCompatibility, raw.Payload = ReplayBedrockRedacted, b.Data
	case b.Type == BlockThinking:
		raw.ReplayCompatibility, raw.Payload = ReplayAnthropicThinking, b.Signature
	case b.Type == BlockRedacted:
		raw.ReplayCompatibility, raw.Payload = ReplayAnthropicRedacted, b.Data
	case b.Type == BlockReasoning:
		raw.ReplayCompatibility, raw.Payload = ReplayResponsesReasoning, b.EncryptedContent
		if b.ItemID != "" {
			raw.ID = b.ItemID
		}
	default:
		return Thought{}, false
	}
	raw.Content = b.Text
	if raw.Content == "" && len(b.Content) > 0 {
		var parts []string
		for _, c := range b.Content {
			parts = append(parts, c.Text)
		}
		raw.Content = strings.Join(parts, "\n")
	}
	if len(raw.Payload) == 0 {
		raw.ReplayCompatibility = ""
	}
	t, err := NewThought(raw)
	return t, err == nil
}
