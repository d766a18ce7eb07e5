package engine

import (
	"fmt"

	"github.com/llmtck/llmtck/traffic"
)

// AssistantItems appends a reply that its wire delivers as a list of items
// — OpenAI Responses output: reasoning, message and function_call items,
// one Message each — as consecutive assistant messages, in order, forming
// one assistant turn whose calls all wait for results. Keeping the items
// apart keeps what each one carries (item ids, reasoning payloads, message
// fields such as phase) for an exact echo; merging them into one message
// would lose it. It is the assistant_message patch of
// docs/reference-model.md, seed 001, for such wires, so its Kind is
// KindAssistantMessage and only the LLM phase produces it. The items are
// checked together: one bad item rejects them all.
type AssistantItems struct{ Items []traffic.Message }

func (AssistantItems) Kind() MutationKind { return KindAssistantMessage }

func (m AssistantItems) apply(t *Transcript) error {
	const k = KindAssistantMessage
	switch {
	case len(t.pending) > 0:
		return reject(k, ErrPendingToolCalls, "%s", t.pendingIDs())
	case len(m.Items) == 0:
		return reject(k, ErrInvalidMessage, "the reply has no item")
	}
	items := make([]traffic.Message, len(m.Items))
	v := validator{seen: map[string]loc{}}
	var calls []ToolCallRef
	ids := map[string]bool{}
	for i, msg := range m.Items {
		if msg.Role == "" {
			msg.Role = traffic.RoleAssistant
		}
		what := fmt.Sprintf("items[%d]", i)
		switch {
		case msg.Role != traffic.RoleAssistant:
			return reject(k, ErrInvalidMessage, "%s: role %q, want assistant", what, msg.Role)
		case msg.Ephemeral:
			return reject(k, ErrInvalidMessage, "%s: an assistant message cannot be ephemeral", what)
		case len(msg.Blocks) == 0:
			return reject(k, ErrInvalidMessage, "%s has no content", what)
		}
		v.message(loc{"items", i, -1}, &msg)
		for j, b := range msg.Blocks {
			if b.Type != traffic.BlockToolCall {
				continue
			}
			if b.ID == "" {
				return reject(k, ErrInvalidMessage, "%s.blocks[%d]: tool call %s has no id", what, j, b.Name)
			}
			if _, dup := t.callIDs[b.ID]; dup || ids[b.ID] {
				return reject(k, ErrDuplicateToolCall, "%s", b.ID)
			}
			ids[b.ID] = true
			calls = append(calls, ToolCallRef{ID: b.ID, Name: b.Name, msg: len(t.msgs) + i})
		}
		items[i] = msg
	}
	if len(v.problems) > 0 {
		return reject(k, ErrInvalidMessage, "%v", (&TranscriptError{v.problems}).Error())
	}
	if t.callIDs == nil {
		t.callIDs = map[string]struct{}{}
	}
	for _, c := range calls {
		t.callIDs[c.ID] = struct{}{}
	}
	for _, msg := range items {
		t.push(msg, Note{})
	}
	t.pending = calls
	return nil
}
