package engine

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

func (m AssistantMessage) apply(t *Transcript) error {
	const k = KindAssistantMessage
	msg := m.Message
	if msg.Role == "" {
		msg.Role = traffic.RoleAssistant
	}
	if msg.Role == traffic.RoleAssistant && msg.Ephemeral {
		// Sent with the next request only, like an ephemeral user message.
		if err := checkEphemeral(k, "message", msg); err != nil {
			return err
		}
		t.ephemeral = append(t.ephemeral, msg)
		return nil
	}
	switch {
	case msg.Role != traffic.RoleAssistant:
		return reject(k, ErrInvalidMessage, "role %q, want assistant", msg.Role)
	case len(t.pending) > 0:
		return reject(k, ErrPendingToolCalls, "%s", t.pendingIDs())
	}
	// A message with no content and no tool calls is allowed: the seed's
	// content is optional and tool_calls may be empty. It stays in the
	// history; Compile leaves it out of requests, which refuse empty turns.
	v := validator{seen: map[string]loc{}}
	v.message(loc{"message", -1, -1}, &msg)
	if len(v.problems) > 0 {
		return reject(k, ErrInvalidMessage, "%v", (&TranscriptError{v.problems}).Error())
	}
	var calls []ToolCallRef
	for j, b := range msg.Blocks {
		if b.Type != traffic.BlockToolCall {
			continue
		}
		if b.ID == "" {
			return reject(k, ErrInvalidMessage, "message.blocks[%d]: tool call %s has no id", j, b.Name)
		}
		if _, dup := t.callIDs[b.ID]; dup {
			return reject(k, ErrDuplicateToolCall, "%s", b.ID)
		}
		calls = append(calls, ToolCallRef{ID: b.ID, Name: b.Name, msg: len(t.msgs)})
	}
	if t.callIDs == nil {
		t.callIDs = map[string]struct{}{}
	}
	for _, c := range calls {
		t.callIDs[c.ID] = struct{}{}
	}
	t.push(msg, Note{})
	t.pending = calls
	return nil
}

// toolResultMessage is the tool-role message that answers a call.
func toolResultMessage(id, name, text string, isError bool) traffic.Message {
	b := traffic.Block{Type: traffic.BlockToolResult, ToolCallID: id, Name: name, IsError: isError}
	if text != "" {
		b.Content = []traffic.Block{{Type: traffic.BlockText, Text: text}}
	}
	return traffic.Message{Role: traffic.RoleTool, Blocks: []traffic.Block{b}}
}

// findCall returns the index of the pending call id and the name to record.
func (t *Transcript) findCall(k MutationKind, id, name string) (int, string, error) {
	i := t.pendingIndex(id)
	if i < 0 {
		return 0, "", reject(k, ErrUnknownToolCall, "%q (pending: %s)", id, t.pendingIDs())
	}
	c := t.pending[i]
	if name != "" && name != c.Name {
		return 0, "", reject(k, ErrInvalidMessage, "call %s is %s, the result names %s", id, c.Name, name)
	}
	return i, c.Name, nil
}

func (m ToolResult) apply(t *Transcript) error {
	i, name, err := t.findCall(KindToolResult, m.ToolCallID, m.Name)
	if err != nil {
		return err
	}
	t.push(toolResultMessage(m.ToolCallID, name, m.Content, m.IsError), Note{})
	t.answer(i)
	return nil
}

func (m MultimodalToolResult) apply(t *Transcript) error {
	const k = KindMultimodalToolResult
	i, name, err := t.findCall(k, m.ToolCallID, m.ToolName)
	if err != nil {
		return err
	}
	if len(m.UserMessages) == 0 {
		return reject(k, ErrInvalidMessage, "no user message carries the result")
	}
	users := make([]traffic.Message, len(m.UserMessages))
	for j, u := range m.UserMessages {
		if u.Role == "" {
			u.Role = traffic.RoleUser
		}
		what := fmt.Sprintf("user_messages[%d]", j)
		if u.Role != traffic.RoleUser || u.Ephemeral {
			return reject(k, ErrInvalidMessage, "%s: want a non-ephemeral user message, found role %q", what, u.Role)
		}
		if err := checkContent(k, what, u); err != nil {
			return err
		}
		users[j] = u
	}
	// Take the call out of its assistant message; drop the message if the
	// call was all it held.
	at := t.pending[i].msg
	host := t.msgs[at]
	host.Blocks = slices.DeleteFunc(slices.Clone(host.Blocks), func(b traffic.Block) bool {
		return b.Type == traffic.BlockToolCall && b.ID == m.ToolCallID
	})
	if len(host.Blocks) == 0 {
		t.msgs = slices.Delete(t.msgs, at, at+1)
		t.notes = slices.Delete(t.notes, at, at+1)
		switch {
		case t.anchor == at+1:
			t.anchor = 0
		case t.anchor > at+1:
			t.anchor--
		}
		for j := range t.pending {
			if t.pending[j].msg > at {
				t.pending[j].msg--
			}
		}
	} else {
		t.msgs[at] = host
	}
	args := strings.TrimSpace(string(m.Arguments))
	if args == "" {
		args = "{}"
	}
	summary := traffic.Message{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText,
		Text: fmt.Sprintf("I called %s with %s; its result is in the next message.", name, args)}}}
	t.deferred = append(t.deferred, summary)
	t.deferred = append(t.deferred, users...)
	t.answer(i)
	return nil
}

func (m UserMessage) apply(t *Transcript) error {
	const k = KindUserMessage
	msg := m.Message
	if msg.Role == "" {
		msg.Role = traffic.RoleUser
	}
	if msg.Role != traffic.RoleUser {
		return reject(k, ErrInvalidMessage, "role %q, want user", msg.Role)
	}
	if err := checkContent(k, "message", msg); err != nil {
		return err
	}
	if msg.Ephemeral {
		t.ephemeral = append(t.ephemeral, msg)
		return nil
	}
	if len(t.pending) > 0 {
		return reject(k, ErrPendingToolCalls, "%s", t.pendingIDs())
	}
	t.push(msg, Note{})
	return nil
}

// apply replaces the history. The ephemeral queue is replaced too, by the
// ephemeral messages among Messages: the old context is discarded entirely.
func (m ContextReplace) apply(t *Transcript) error {
	return t.reset(KindContextReplace, m.Messages)
}

// apply keeps the leading system messages and the ephemeral queue, which
// compaction does not touch.
func (m ContextSummary) apply(t *Transcript) error {
	const k = KindContextSummary
	s := m.Summary
	if s.Role == "" {
		s.Role = traffic.RoleUser
	}
	if s.Role != traffic.RoleUser && s.Role != traffic.RoleAssistant || s.Ephemeral {
		return reject(k, ErrInvalidMessage, "the summary must be a non-ephemeral user or assistant message, found role %q", s.Role)
	}
	if err := checkContent(k, "summary_message", s); err != nil {
		return err
	}
	for j, r := range m.Remember {
		if strings.TrimSpace(r) == "" {
			return reject(k, ErrInvalidMessage, "remember[%d] is empty", j)
		}
	}
	n := 0
	for n < len(t.msgs) && t.msgs[n].Role == traffic.RoleSystem {
		n++
	}
	t.msgs = append(t.msgs[:n:n], s)
	t.notes = append(t.notes[:n:n], Note{})
	t.anchor = 0
	t.pending, t.deferred, t.callIDs = nil, nil, map[string]struct{}{}
	for _, r := range m.Remember {
		id := t.newExperienceID()
		t.experiences = append(t.experiences, Experience{ID: id, Text: r})
		t.expIDs[id] = true
	}
	return nil
}

func (t *Transcript) newExperienceID() string {
	for {
		t.nextExp++
		id := fmt.Sprintf("exp-%d", t.nextExp)
		if !t.experienceExists(id) {
			return id
		}
	}
}

// experienceExists reports whether id is live once the queued batch commits.
func (t *Transcript) experienceExists(id string) bool {
	if live, ok := t.batchLive[id]; ok {
		return live
	}
	return t.expIDs[id]
}

func (t *Transcript) queue(m Mutation, id string, live bool) {
	if t.batchLive == nil {
		t.batchLive = map[string]bool{}
	}
	t.batchLive[id] = live
	t.batch = append(t.batch, m)
}

func (m ExperienceRemember) apply(t *Transcript) error {
	const k = KindExperienceRemember
	if strings.TrimSpace(m.Text) == "" {
		return reject(k, ErrInvalidMessage, "empty text")
	}
	if m.ID == "" {
		m.ID = t.newExperienceID()
	} else if !experienceID.MatchString(m.ID) {
		return reject(k, ErrInvalidMessage, "id %q: want letters, digits, '.', '_', ':' or '-' (the id is written into the system context)", m.ID)
	} else if t.experienceExists(m.ID) {
		return reject(k, ErrDuplicateExperience, "%q", m.ID)
	}
	t.queue(m, m.ID, true)
	return nil
}

func (m ExperienceForget) apply(t *Transcript) error {
	if !t.experienceExists(m.ExperienceID) {
		return reject(KindExperienceForget, ErrUnknownExperience, "%q", m.ExperienceID)
	}
	t.queue(m, m.ExperienceID, false)
	return nil
}

// apply appends the partial text. With no text received there is nothing to
// record: an empty assistant message would be rejected by every provider.
func (m AssistantTruncated) apply(t *Transcript) error {
	if len(t.pending) > 0 {
		return reject(KindAssistantTruncated, ErrPendingToolCalls, "%s", t.pendingIDs())
	}
	// The record is appended even when no text arrived, so the abort and
	// its reason stay in the history (docs/reference-model.md, seed 001);
	// Compile leaves a record without content out of requests.
	msg := traffic.Message{Role: traffic.RoleAssistant}
	if m.PartialContent != "" {
		msg.Blocks = []traffic.Block{{Type: traffic.BlockText, Text: m.PartialContent}}
	}
	t.push(msg, Note{Truncated: true, AbortReason: m.AbortReason})
	return nil
}

// CancelledText is the result text of a cancelled tool call: non-empty, and
// plain about the call having no result.
func CancelledText(reason string) string {
	if reason == "" {
		return "Tool call cancelled before it completed; it has no result."
	}
	return "Tool call cancelled before it completed; it has no result. Reason: " + reason
}

func (m ToolCancelled) apply(t *Transcript) error {
	i, name, err := t.findCall(KindToolCancelled, m.ToolCallID, m.ToolName)
	if err != nil {
		return err
	}
	t.push(toolResultMessage(m.ToolCallID, name, CancelledText(m.AbortReason), true),
		Note{Cancelled: true, AbortReason: m.AbortReason})
	t.answer(i)
	return nil
}

// experienceID is what a chosen experience id may hold.
var experienceID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)
