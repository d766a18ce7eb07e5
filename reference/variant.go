package reference

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// The broken engines: each breaks one behaviour of the reference engine,
// as little as it can, so the matrix test shows the check that catches it.
const (
	// VariantReencodeThinking re-encodes every echoed thinking signature
	// (and Gemini thoughtSignature) as unpadded URL-safe base64: the same
	// bytes, a different token. Targets ANT-THINK-003.
	VariantReencodeThinking Variant = "reencode-thinking"
	// VariantDropSignature echoes thinking without its signature (and
	// Gemini parts without their thoughtSignature). Targets ANT-THINK-002
	// and GEM-SIG-002.
	VariantDropSignature Variant = "drop-signature"
	// VariantForgetToolResult leaves the last tool result out of every
	// request that has one. Targets ANT-TOOL-001, OAI-TOOL-001,
	// OAI-TOOL-010 and GEM-TOOL-002.
	VariantForgetToolResult Variant = "forget-tool-result"
	// VariantPersistEphemeral keeps a schema retry's ephemeral feedback in
	// the history. Targets HIST-005.
	VariantPersistEphemeral Variant = "persist-ephemeral"
	// VariantDropCancelled leaves the results of cancelled tool calls out
	// of every request (the engine itself refuses a history that lacks
	// them, so the requests are edited). Targets ANT-TOOL-001 (the other
	// wires word their cancelled results differently and are not matched).
	VariantDropCancelled Variant = "drop-cancelled"
	// VariantReorderReasoning moves each Responses reasoning item after the
	// item it produced. Targets OAI-RSN-001.
	VariantReorderReasoning Variant = "reorder-reasoning"
	// VariantLeakThought sends an opaque thought to an adapter that did not
	// declare its tag, relabelled as the adapter's own (a Responses
	// encrypted_content as an Anthropic thinking signature). Targets
	// ANT-THINK-003.
	VariantLeakThought Variant = "leak-thought"
	// VariantKeepReasoningOnSwitch keeps the Responses reasoning items of
	// earlier turns when the conversation moves to another model (a model
	// that does not reason, or another family). Targets OAI-RSN-005.
	VariantKeepReasoningOnSwitch Variant = "keep-reasoning-on-switch"
)

// Variants lists the broken engines.
var Variants = []Variant{VariantReencodeThinking, VariantDropSignature, VariantForgetToolResult,
	VariantPersistEphemeral, VariantDropCancelled, VariantReorderReasoning, VariantLeakThought, VariantKeepReasoningOnSwitch}

// breaks are the engine behaviours a Variant breaks.
type breaks struct {
	persistEphemeral      bool                   // keep the ephemeral feedback in the history
	dropCancelled         bool                   // drop the results of cancelled tool calls
	leakThoughts          bool                   // route every opaque thought to every adapter
	keepReasoningOnSwitch bool                   // keep Responses reasoning when the model changes
	tamper                func(*traffic.Request) // rewrites each request before it is sent
}

func (v Variant) breaks() breaks {
	switch v {
	case VariantReencodeThinking:
		return breaks{tamper: eachSigned(reencode)}
	case VariantDropSignature:
		return breaks{tamper: eachSigned(func(json.RawMessage) json.RawMessage { return nil })}
	case VariantForgetToolResult:
		return breaks{tamper: forgetToolResult}
	case VariantPersistEphemeral:
		return breaks{persistEphemeral: true}
	case VariantDropCancelled:
		return breaks{tamper: dropCancelledResults}
	case VariantReorderReasoning:
		return breaks{tamper: reorderReasoning}
	case VariantLeakThought:
		return breaks{leakThoughts: true}
	case VariantKeepReasoningOnSwitch:
		return breaks{keepReasoningOnSwitch: true}
	}
	return breaks{}
}

// replayTags are the tags the adapter of wire w declares.
func (b breaks) replayTags(w traffic.Wire) []string { return engine.ReplayTags(w) }

// eachSigned applies f to the signature of every echoed thinking block.
func eachSigned(f func(json.RawMessage) json.RawMessage) func(*traffic.Request) {
	return func(req *traffic.Request) {
		for i := range req.Messages {
			for j := range req.Messages[i].Blocks {
				b := &req.Messages[i].Blocks[j]
				if len(b.Signature) > 0 {
					b.Signature = f(b.Signature)
				}
			}
		}
	}
}

// reencode writes a base64 token again, unpadded and URL-safe.
func reencode(tok json.RawMessage) json.RawMessage {
	s, ok := rawjson.String(tok)
	if !ok {
		return tok
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return tok
	}
	return rawjson.Quote(base64.RawURLEncoding.EncodeToString(raw))
}

// forgetToolResult removes the last tool result of the request.
func forgetToolResult(req *traffic.Request) {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := &req.Messages[i]
		for j := len(m.Blocks) - 1; j >= 0; j-- {
			if m.Blocks[j].Type == traffic.BlockToolResult {
				m.Blocks = append(m.Blocks[:j:j], m.Blocks[j+1:]...)
				if len(m.Blocks) == 0 {
					req.Messages = append(req.Messages[:i:i], req.Messages[i+1:]...)
				}
				return
			}
		}
	}
}

// reorderReasoning swaps each reasoning item with the item after it.
func reorderReasoning(req *traffic.Request) {
	ms := req.Messages
	for i := 0; i+1 < len(ms); i++ {
		if ms[i].WireType == "reasoning" && ms[i+1].Role == traffic.RoleAssistant && ms[i+1].WireType != "reasoning" {
			ms[i], ms[i+1] = ms[i+1], ms[i]
			i++
		}
	}
}

// dropCancelledResults removes the results of cancelled tool calls.
func dropCancelledResults(req *traffic.Request) {
	var msgs []traffic.Message
	for _, m := range req.Messages {
		var kept []traffic.Block
		for _, b := range m.Blocks {
			if !(b.Type == traffic.BlockToolResult && b.IsError && strings.Contains(resultText(b), "cancelled")) {
				kept = append(kept, b)
			}
		}
		if len(kept) > 0 {
			m.Blocks = kept
			msgs = append(msgs, m)
		}
	}
	req.Messages = msgs
}

// resultText is a tool result's text, whichever way its wire carries it.
func resultText(b traffic.Block) string {
	s := string(b.ResultRaw)
	for _, c := range b.Content {
		s += c.Text
	}
	return s
}
