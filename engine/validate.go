package engine

import (
	"fmt"
	"strings"
)

// Validation rule names, as reported in Problem.Rule.
const (
	RuleToolPairing       = "tool-pairing"       // every call answered once, in the run right after it
	RuleThinkingPlacement = "thinking-placement" // thinking only on assistant turns, first, signed
	RuleBlockShape        = "block-shape"        // a block lacks a field its type needs
)

// Problem is one way a transcript breaks a rule.
type Problem struct {
	Path    string // e.g. "messages[3].blocks[1]"
	Rule    string
	Message string
}

func (p Problem) String() string { return p.Path + ": " + p.Message + " (" + p.Rule + ")" }

// TranscriptError lists every problem the validator found, in order.
type TranscriptError struct {
	Problems []Problem
}

func (e *TranscriptError) Error() string {
	var b strings.Builder
	b.WriteString("invalid transcript: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Validate checks a complete transcript: every tool call is answered
// exactly once by results placed right after its assistant turn, before any
// other content; every result answers a call of that turn; thinking sits
// only on assistant turns, first in its message, and signed. It accepts
// both result shapes the wires use: tool-role messages and tool_result
// blocks leading a user message. It returns nil or a *TranscriptError.
func Validate(msgs []Message) error { return validate(msgs, false) }

// ValidateOpen is Validate for a transcript in the middle of a tool batch:
// the calls of the final assistant turn may still be waiting for results.
func ValidateOpen(msgs []Message) error { return validate(msgs, true) }

func validate(msgs []Message, open bool) error {
	v := validator{seen: map[string]string{}}
	for i := range msgs {
		v.message(fmt.Sprintf("messages[%d]", i), &msgs[i])
	}
	if !open {
		v.closeTurn("the end of the transcript")
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == RoleAssistant {
		if bs := msgs[n-1].Blocks; len(bs) > 0 && isThinking(bs[len(bs)-1].Type) && !open {
			v.add(fmt.Sprintf("messages[%d].blocks[%d]", n-1, len(bs)-1), RuleThinkingPlacement,
				"the final assistant message ends in a thinking block")
		}
	}
	if len(v.problems) == 0 {
		return nil
	}
	return &TranscriptError{Problems: v.problems}
}

// call is one tool call of the current assistant turn.
type call struct {
	id, name, path string
	answered       bool
}

type validator struct {
	problems []Problem
	turn     []call            // calls of the latest assistant turn
	results  bool              // a result of the turn has been seen
	seen     map[string]string // tool call id → path of the call
}

func (v *validator) add(path, rule, msg string) {
	v.problems = append(v.problems, Problem{Path: path, Rule: rule, Message: msg})
}

// closeTurn reports the turn's unanswered calls; what names what came next.
func (v *validator) closeTurn(what string) {
	for _, c := range v.turn {
		if !c.answered {
			v.add(c.path, RuleToolPairing, fmt.Sprintf("tool call %s (%s) has no result before %s", quoteID(c.id), c.name, what))
		}
	}
	v.turn, v.results = nil, false
}

func quoteID(id string) string {
	if id == "" {
		return "without id"
	}
	return id
}

func (v *validator) message(path string, m *Message) {
	switch m.Role {
	case RoleAssistant:
		// Consecutive assistant messages are one turn (Responses items,
		// Gemini chunks) until a result arrives.
		if v.results {
			v.closeTurn(path)
		}
		v.assistant(path, m)
	case RoleTool:
		for j := range m.Blocks {
			b := &m.Blocks[j]
			bp := fmt.Sprintf("%s.blocks[%d]", path, j)
			if b.Type != BlockToolResult {
				v.add(bp, RuleBlockShape, fmt.Sprintf("a tool message holds only tool results, found %s", b.Type))
				continue
			}
			v.result(bp, b)
		}
		if len(m.Blocks) == 0 {
			v.add(path, RuleBlockShape, "tool message without a result")
		}
	default: // user, system, developer
		j := 0
		for ; j < len(m.Blocks) && m.Blocks[j].Type == BlockToolResult; j++ {
			v.result(fmt.Sprintf("%s.blocks[%d]", path, j), &m.Blocks[j])
		}
		if j < len(m.Blocks) || len(m.Blocks) == 0 {
			v.closeTurn(path)
		}
		for ; j < len(m.Blocks); j++ {
			b := &m.Blocks[j]
			bp := fmt.Sprintf("%s.blocks[%d]", path, j)
			switch {
			case b.Type == BlockToolResult:
				v.add(bp, RuleToolPairing, "tool results must come before any other content of the message")
			case b.Type == BlockToolCall:
				v.add(bp, RuleBlockShape, fmt.Sprintf("a %s message cannot hold a tool call", m.Role))
			case isThinking(b.Type):
				v.add(bp, RuleThinkingPlacement, fmt.Sprintf("a %s message cannot hold a %s block", m.Role, b.Type))
			}
		}
	}
}

func (v *validator) assistant(path string, m *Message) {
	thinking := false
	for j := range m.Blocks {
		b := &m.Blocks[j]
		bp := fmt.Sprintf("%s.blocks[%d]", path, j)
		switch {
		case isThinking(b.Type):
			if !thinking && j > 0 {
				v.add(bp, RuleThinkingPlacement, fmt.Sprintf("an assistant message with thinking must start with it, found %s first", m.Blocks[0].Type))
			}
			thinking = true
			if b.Type == BlockThinking && !b.Thought && len(b.Signature) == 0 {
				v.add(bp, RuleThinkingPlacement, "thinking block without a signature cannot be echoed")
			}
			if b.Type == BlockRedacted && len(b.Data) == 0 {
				v.add(bp, RuleBlockShape, "redacted_thinking block without data")
			}
		case b.Type == BlockToolCall:
			if b.Name == "" {
				v.add(bp, RuleBlockShape, "tool call without a name")
			}
			if b.ID != "" {
				if first, dup := v.seen[b.ID]; dup {
					v.add(bp, RuleToolPairing, fmt.Sprintf("tool call id %s is already used at %s", b.ID, first))
				}
				v.seen[b.ID] = bp
			}
			v.turn = append(v.turn, call{id: b.ID, name: b.Name, path: bp})
		case b.Type == BlockToolResult:
			v.add(bp, RuleToolPairing, "an assistant message cannot hold a tool result")
		}
	}
}

// result matches one tool result to a call of the current turn, by id, or
// by name for wires without ids (Gemini on Vertex).
func (v *validator) result(path string, b *Block) {
	v.results = true
	for k := range v.turn {
		c := &v.turn[k]
		match := b.ToolCallID != "" && c.id == b.ToolCallID ||
			b.ToolCallID == "" && c.id == "" && c.name == b.Name && !c.answered
		if !match {
			continue
		}
		if c.answered {
			v.add(path, RuleToolPairing, fmt.Sprintf("tool call %s is answered twice", quoteID(c.id)))
		}
		c.answered = true
		return
	}
	if len(v.turn) == 0 {
		v.add(path, RuleToolPairing, fmt.Sprintf("tool result for %s follows no assistant tool call", quoteID(b.ToolCallID)))
		return
	}
	v.add(path, RuleToolPairing, fmt.Sprintf("tool result for %s answers no call of the preceding assistant turn", quoteID(b.ToolCallID)))
}

func isThinking(t BlockType) bool {
	return t == BlockThinking || t == BlockRedacted || t == BlockReasoning
}
