package engine

import (
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/traffic"
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
func Validate(msgs []traffic.Message) error { return validate(msgs, false) }

// ValidateOpen is Validate for a transcript in the middle of a tool batch:
// the calls of the final assistant turn may still be waiting for results.
func ValidateOpen(msgs []traffic.Message) error { return validate(msgs, true) }

func validate(msgs []traffic.Message, open bool) error {
	v := validator{seen: map[string]loc{}}
	for i := range msgs {
		v.message(loc{"messages", i, -1}, &msgs[i])
	}
	if !open {
		v.closeTurn(loc{msg: -1, block: -1})
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == traffic.RoleAssistant {
		if bs := msgs[n-1].Blocks; len(bs) > 0 && leadingThinking(&bs[len(bs)-1]) && !open {
			v.add(loc{"messages", n - 1, len(bs) - 1}, RuleThinkingPlacement,
				"the final assistant message ends in a thinking block")
		}
	}
	if len(v.problems) == 0 {
		return nil
	}
	return &TranscriptError{Problems: v.problems}
}

// loc locates a message or one of its blocks. It is formatted only when a
// problem is found, so validating a long transcript allocates little.
type loc struct {
	prefix string // "messages" (with the index) or "message"; "" is the end
	msg    int    // -1: no index
	block  int    // -1: the message itself
}

func (l loc) String() string {
	if l.prefix == "" {
		return "the end of the transcript"
	}
	p := l.prefix
	if l.msg >= 0 {
		p = fmt.Sprintf("%s[%d]", p, l.msg)
	}
	if l.block >= 0 {
		p = fmt.Sprintf("%s.blocks[%d]", p, l.block)
	}
	return p
}

func (l loc) at(block int) loc { l.block = block; return l }

// call is one tool call of the current assistant turn.
type call struct {
	id, name string
	at       loc
	answered bool
}

type validator struct {
	problems []Problem
	turn     []call         // calls of the latest assistant turn
	results  bool           // a result of the turn has been seen
	seen     map[string]loc // tool call id → where it was called
}

func (v *validator) add(at loc, rule, msg string) {
	v.problems = append(v.problems, Problem{Path: at.String(), Rule: rule, Message: msg})
}

// closeTurn reports the turn's unanswered calls; next is what came next.
func (v *validator) closeTurn(next loc) {
	for _, c := range v.turn {
		if !c.answered {
			v.add(c.at, RuleToolPairing, fmt.Sprintf("tool call %s (%s) has no result before %s", quoteID(c.id), c.name, next))
		}
	}
	v.turn, v.results = v.turn[:0], false
}

func quoteID(id string) string {
	if id == "" {
		return "without id"
	}
	return id
}

func (v *validator) message(at loc, m *traffic.Message) {
	switch m.Role {
	case traffic.RoleAssistant:
		// Consecutive assistant messages are one turn (Responses items,
		// Gemini chunks) until a result arrives.
		if v.results {
			v.closeTurn(at)
		}
		v.assistant(at, m)
	case traffic.RoleTool:
		for j := range m.Blocks {
			b := &m.Blocks[j]
			if b.Type != traffic.BlockToolResult {
				v.add(at.at(j), RuleBlockShape, fmt.Sprintf("a tool message holds only tool results, found %s", b.Type))
				continue
			}
			v.result(at.at(j), b)
		}
		if len(m.Blocks) == 0 {
			v.add(at, RuleBlockShape, "tool message without a result")
		}
	default: // user, system, developer
		j := 0
		for ; j < len(m.Blocks) && m.Blocks[j].Type == traffic.BlockToolResult; j++ {
			v.result(at.at(j), &m.Blocks[j])
		}
		if j < len(m.Blocks) || len(m.Blocks) == 0 {
			v.closeTurn(at)
		}
		for ; j < len(m.Blocks); j++ {
			switch b := &m.Blocks[j]; {
			case b.Type == traffic.BlockToolResult:
				v.add(at.at(j), RuleToolPairing, "tool results must come before any other content of the message")
			case b.Type == traffic.BlockToolCall:
				v.add(at.at(j), RuleBlockShape, fmt.Sprintf("a %s message cannot hold a tool call", m.Role))
			case isThinking(b.Type):
				v.add(at.at(j), RuleThinkingPlacement, fmt.Sprintf("a %s message cannot hold a %s block", m.Role, b.Type))
			}
		}
	}
}

func (v *validator) assistant(at loc, m *traffic.Message) {
	thinking := false
	for j := range m.Blocks {
		b := &m.Blocks[j]
		switch {
		case isThinking(b.Type):
			if !thinking && j > 0 && leadingThinking(b) {
				v.add(at.at(j), RuleThinkingPlacement, fmt.Sprintf("an assistant message with thinking must start with it, found %s first", m.Blocks[0].Type))
			}
			thinking = true
			if b.Type == traffic.BlockThinking && !b.Thought && len(b.Signature) == 0 {
				v.add(at.at(j), RuleThinkingPlacement, "thinking block without a signature cannot be echoed")
			}
			if b.Type == traffic.BlockRedacted && len(b.Data) == 0 {
				v.add(at.at(j), RuleBlockShape, "redacted_thinking block without data")
			}
		case b.Type == traffic.BlockToolCall:
			if b.Name == "" {
				v.add(at.at(j), RuleBlockShape, "tool call without a name")
			}
			if b.ID != "" {
				if first, dup := v.seen[b.ID]; dup {
					v.add(at.at(j), RuleToolPairing, fmt.Sprintf("tool call id %s is already used at %s", b.ID, first))
				}
				v.seen[b.ID] = at.at(j)
			}
			v.turn = append(v.turn, call{id: b.ID, name: b.Name, at: at.at(j)})
		case b.Type == traffic.BlockToolResult:
			v.add(at.at(j), RuleToolPairing, "an assistant message cannot hold a tool result")
		}
	}
}

// result matches one tool result to a call of the current turn, by id, or
// by name for wires without ids (Gemini on Vertex).
func (v *validator) result(at loc, b *traffic.Block) {
	v.results = true
	for k := range v.turn {
		c := &v.turn[k]
		match := b.ToolCallID != "" && c.id == b.ToolCallID ||
			b.ToolCallID == "" && c.id == "" && c.name == b.Name && !c.answered
		if !match {
			continue
		}
		if c.answered {
			v.add(at, RuleToolPairing, fmt.Sprintf("tool call %s is answered twice", quoteID(c.id)))
		}
		c.answered = true
		return
	}
	if len(v.turn) == 0 {
		v.add(at, RuleToolPairing, fmt.Sprintf("tool result for %s follows no assistant tool call", quoteID(b.ToolCallID)))
		return
	}
	v.add(at, RuleToolPairing, fmt.Sprintf("tool result for %s answers no call of the preceding assistant turn", quoteID(b.ToolCallID)))
}

// leadingThinking reports whether b is a block that must lead its assistant
// message and may not end it: Anthropic thinking and redacted_thinking
// (docs/provider-rules.md A3, A4). A Gemini thought part (Thought set) is an
// ordinary part and may sit anywhere in its turn.
func leadingThinking(b *traffic.Block) bool {
	return (b.Type == traffic.BlockThinking && !b.Thought) || b.Type == traffic.BlockRedacted
}

func isThinking(t traffic.BlockType) bool {
	return t == traffic.BlockThinking || t == traffic.BlockRedacted || t == traffic.BlockReasoning
}
