package engine

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Dispatch is how a set of thoughts is routed to one adapter.
type Dispatch struct {
	// Opaque thoughts go to the wire's reasoning channel with their payload.
	Opaque []Thought
	// Plain thoughts are inlined as text in a <thought> envelope.
	Plain []Thought
	// Side thoughts are opaque thoughts whose tag the adapter declares but
	// whose wire has no reasoning channel for it (a DeepSeek handle on Chat
	// Completions, an Anthropic signature declared by a Gemini adapter):
	// they go with the request under the side-channel key, payload bytes
	// untouched.
	Side []Thought
	// Present thoughts are already in the history as sent (their payload,
	// or their text, is there): they are not sent a second time.
	Present []Thought
	// Elided thoughts are not sent to this adapter but stay in context for a
	// later adapter that declares their tag.
	Elided []Thought
}

// SideChannelKey is the request body key side-channel thoughts are sent
// under: an array of {"id", "replayCompatibility", "payload"}. It is the
// same top-level key on every wire, since none of the five defines a field
// for another vendor's reasoning (docs/reference-model.md, seed 003):
//
//	anthropic  {"model":…, "messages":…, "llmtck_thoughts":[…]}
//	openai     {"model":…, "messages":…, "llmtck_thoughts":[…]}   (Chat Completions: no reasoning channel at all)
//	responses  {"model":…, "input":…,    "llmtck_thoughts":[…]}
//	gemini     {"contents":…,            "llmtck_thoughts":[…]}
//	bedrock    {"messages":…,            "llmtck_thoughts":[…]}
//
// Each provider's own endpoint refuses an unknown top-level field, so a
// side channel is only for an adapter whose server reads it: an adapter
// declares a foreign tag only when it talks to such a server.
const SideChannelKey = "llmtck_thoughts"

// ThoughtWire is the wire whose typed reasoning channel carries thoughts
// tagged tag; ok is false for a tag no wire here has a channel for.
func ThoughtWire(tag string) (w traffic.Wire, ok bool) {
	switch tag {
	case ReplayAnthropicThinking, ReplayAnthropicRedacted:
		return traffic.WireAnthropic, true
	case ReplayResponsesReasoning:
		return traffic.WireResponses, true
	case ReplayGeminiSignature:
		return traffic.WireGemini, true
	case ReplayBedrockReasoning, ReplayBedrockRedacted:
		return traffic.WireBedrock, true
	}
	return "", false
}

// RouteThoughts routes thoughts for an adapter on wire that can replay the
// tags in accepts (docs/reference-model.md, seed 003). A thought with a
// payload is opaque whatever its tag and is never inlined: when the adapter
// declares its tag (every adapter declares plain-text) it goes to the
// wire's typed reasoning channel if the tag belongs to that wire, else to
// the side channel; otherwise it is elided. The channel is chosen by (tag,
// wire), never by the tag alone: an Anthropic signature on a Gemini request
// would be a thoughtSignature Gemini cannot verify. A thought without a
// payload is inlined when it is plain text or its tag is declared, else
// elided. thoughts itself is not changed: eliding never removes a thought
// from context.
func RouteThoughts(thoughts []Thought, wire traffic.Wire, accepts []string) Dispatch {
	var d Dispatch
	for _, t := range thoughts {
		declared := t.ReplayCompatibility == ReplayPlainText || slices.Contains(accepts, t.ReplayCompatibility)
		switch {
		case t.Opaque() && declared:
			if w, ok := ThoughtWire(t.ReplayCompatibility); ok && w == wire {
				d.Opaque = append(d.Opaque, t)
			} else {
				d.Side = append(d.Side, t)
			}
		case !t.Opaque() && (t.PlainText() || declared):
			d.Plain = append(d.Plain, t)
		default:
			d.Elided = append(d.Elided, t)
		}
	}
	return d
}

// SideChannel is the value of SideChannelKey for thoughts, or nil when
// there are none. Payloads are written as the exact JSON they hold.
func SideChannel(thoughts []Thought) json.RawMessage {
	if len(thoughts) == 0 {
		return nil
	}
	out := []byte{'['}
	for i, t := range thoughts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"id":`...)
		out = append(out, rawjson.Quote(t.ID)...)
		out = append(out, `,"replayCompatibility":`...)
		out = append(out, rawjson.Quote(t.ReplayCompatibility)...)
		out = append(out, `,"payload":`...)
		out = append(out, t.Payload...)
		out = append(out, '}')
	}
	return append(out, ']')
}

// ThoughtBlock returns the block that carries an opaque thought on its
// wire's reasoning channel, with the payload bytes untouched. ok is false
// for a tag no wire here defines a channel for.
func ThoughtBlock(t Thought) (b traffic.Block, ok bool) {
	switch t.ReplayCompatibility {
	case ReplayAnthropicThinking:
		return traffic.Block{Type: traffic.BlockThinking, WireType: "thinking", Text: t.Content, Signature: t.Payload}, true
	case ReplayAnthropicRedacted:
		return traffic.Block{Type: traffic.BlockRedacted, WireType: "redacted_thinking", Data: t.Payload}, true
	case ReplayResponsesReasoning:
		b := traffic.Block{Type: traffic.BlockReasoning, WireType: "reasoning", ItemID: t.ID, EncryptedContent: t.Payload}
		if t.Content != "" {
			b.Text = t.Content
			b.Content = []traffic.Block{{Type: traffic.BlockText, WireType: "summary_text", Text: t.Content}}
		}
		return b, true
	case ReplayGeminiSignature:
		return traffic.Block{Type: traffic.BlockThinking, Thought: true, Text: t.Content, Signature: t.Payload}, true
	case ReplayBedrockReasoning:
		return traffic.Block{Type: traffic.BlockThinking, WireType: bedrockReasoning, Text: t.Content, Signature: t.Payload}, true
	case ReplayBedrockRedacted:
		return traffic.Block{Type: traffic.BlockRedacted, WireType: bedrockReasoning, Data: t.Payload}, true
	}
	return traffic.Block{}, false
}

// bedrockReasoning is the Converse union member reasoning blocks come in.
const bedrockReasoning = "reasoningContent"

// PlainThoughtBlock renders a thought as an inline text block. A closing
// tag inside the content is escaped, so the content cannot end its
// envelope early and write outside it.
func PlainThoughtBlock(t Thought) traffic.Block {
	return traffic.Block{Type: traffic.BlockText, Text: "<thought>" + thoughtClose.ReplaceAllString(t.Content, "<\\/thought>") + "</thought>"}
}

// thoughtClose is the envelope's end tag in any letter case.
var thoughtClose = regexp.MustCompile(`(?i)</thought\s*>`)

// ThoughtFromBlock turns a reasoning block of a decoded response into a
// thought tagged for its wire, so it can be routed to other adapters. ok is
// false for a block that carries no reasoning.
func ThoughtFromBlock(b traffic.Block, raw RawThought) (Thought, bool) {
	switch {
	case b.Type == traffic.BlockThinking && b.Thought:
		raw.ReplayCompatibility, raw.Payload = ReplayGeminiSignature, b.Signature
	case b.Type == traffic.BlockThinking && b.WireType == bedrockReasoning:
		raw.ReplayCompatibility, raw.Payload = ReplayBedrockReasoning, b.Signature
	case b.Type == traffic.BlockRedacted && b.WireType == bedrockReasoning:
		raw.ReplayCompatibility, raw.Payload = ReplayBedrockRedacted, b.Data
	case b.Type == traffic.BlockThinking:
		raw.ReplayCompatibility, raw.Payload = ReplayAnthropicThinking, b.Signature
	case b.Type == traffic.BlockRedacted:
		raw.ReplayCompatibility, raw.Payload = ReplayAnthropicRedacted, b.Data
	case b.Type == traffic.BlockReasoning:
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
