package engine

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

// Transcript is the working conversation of a loop. It changes only through
// the ten mutations (Apply), so every edit is typed, ordered and checked: a
// rejected mutation leaves it unchanged, and at every point its messages
// pass ValidateOpen. Ephemeral messages never enter it; they wait in a queue
// for the next request. A Transcript is not safe for concurrent use.
type Transcript struct {
	msgs  []traffic.Message
	notes []Note // parallel to msgs

	pending  []ToolCallRef     // unanswered calls of the last assistant turn, in call order
	deferred []traffic.Message // multimodal restructuring waiting for the turn's last result
	callIDs  map[string]struct{}

	experiences []Experience
	expIDs      map[string]bool // committed ids
	batch       []Mutation      // experience mutations not yet committed
	batchLive   map[string]bool // id → exists, as the batch leaves it
	nextExp     int

	ephemeral []traffic.Message

	// anchor is 1 + the index of the message routed thoughts lead: the
	// latest assistant message the transcript started with; 0 when there
	// was none, or a reset or compaction replaced it.
	anchor int
}

// ToolCallRef names a tool call.
type ToolCallRef struct {
	ID   string
	Name string
	msg  int // index of the assistant message holding the call
}

// Note is what the transcript knows about a message beyond its wire content.
type Note struct {
	Truncated   bool   // appended by AssistantTruncated
	Cancelled   bool   // a result appended by ToolCancelled
	AbortReason string // why, for either
}

// Experience is a durable fact kept in the system context.
type Experience struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// NewTranscript starts a transcript from msgs, which must pass ValidateOpen
// and give every tool call an id. Ephemeral messages among them are queued
// for the next request instead.
func NewTranscript(msgs ...traffic.Message) (*Transcript, error) {
	t := &Transcript{expIDs: map[string]bool{}}
	if err := t.reset(KindContextReplace, msgs); err != nil {
		return nil, err
	}
	for i := len(t.msgs) - 1; i >= 0; i-- {
		if t.msgs[i].Role == traffic.RoleAssistant {
			t.anchor = i + 1
			break
		}
	}
	return t, nil
}

// Apply applies one mutation. Experience mutations are queued and committed
// as a batch just before the next other mutation (or by CommitExperiences),
// so experiences are stored before any replacement that may refer to them.
func (t *Transcript) Apply(m Mutation) error {
	if m == nil {
		return errors.New("apply: nil mutation")
	}
	if t.expIDs == nil {
		t.expIDs = map[string]bool{}
	}
	if isExperience(m) {
		return m.apply(t)
	}
	// The pending experiences commit before the mutation, so a replacement
	// that refers to them finds them; a mutation that is rejected leaves
	// them pending, as if it had never been tried.
	saved := t.experienceState()
	t.CommitExperiences()
	if err := m.apply(t); err != nil {
		t.restoreExperiences(saved)
		return err
	}
	return nil
}

// experienceState is what committing experiences changes, for undoing it.
type experienceState struct {
	experiences []Experience
	ids         map[string]bool
	batch       []Mutation
	batchLive   map[string]bool
	next        int
}

func (t *Transcript) experienceState() experienceState {
	return experienceState{slices.Clone(t.experiences), maps.Clone(t.expIDs), t.batch, t.batchLive, t.nextExp}
}

func (t *Transcript) restoreExperiences(s experienceState) {
	t.experiences, t.expIDs, t.batch, t.batchLive, t.nextExp = s.experiences, s.ids, s.batch, s.batchLive, s.next
}

// Messages returns the history: every message except ephemeral ones, as a
// deep copy, so a hook that edits what it is given cannot edit the live
// transcript (or the signed bytes it will echo).
func (t *Transcript) Messages() []traffic.Message { return cloneMessages(t.msgs) }

// Len is the number of messages in the history.
func (t *Transcript) Len() int { return len(t.msgs) }

// Note returns what is known about message i beyond its content.
func (t *Transcript) Note(i int) Note { return t.notes[i] }

// Pending lists the tool calls still waiting for a result, in call order.
func (t *Transcript) Pending() []ToolCallRef { return slices.Clone(t.pending) }

// IsPending reports whether the call with this id waits for a result.
func (t *Transcript) IsPending(id string) bool { return t.pendingIndex(id) >= 0 }

// Experiences returns the committed experiences in the order remembered.
func (t *Transcript) Experiences() []Experience { return slices.Clone(t.experiences) }

// Ephemeral returns the queued ephemeral messages.
func (t *Transcript) Ephemeral() []traffic.Message { return cloneMessages(t.ephemeral) }

// ConsumeEphemeral empties the ephemeral queue and returns what it held. Call
// it once the request that carried them has been answered.
func (t *Transcript) ConsumeEphemeral() []traffic.Message {
	e := t.ephemeral
	t.ephemeral = nil
	return e
}

// CancelPending returns a ToolCancelled for every pending call, in call
// order, for the abort phase.
func (t *Transcript) CancelPending(reason string) []Mutation {
	var ms []Mutation
	for _, c := range t.pending {
		ms = append(ms, ToolCancelled{ToolCallID: c.ID, ToolName: c.Name, AbortReason: reason})
	}
	return ms
}

// CommitExperiences applies the queued experience mutations in order.
func (t *Transcript) CommitExperiences() {
	for _, m := range t.batch {
		switch x := m.(type) {
		case ExperienceRemember:
			t.experiences = append(t.experiences, Experience{ID: x.ID, Text: x.Text})
			t.expIDs[x.ID] = true
		case ExperienceForget:
			t.experiences = slices.DeleteFunc(t.experiences, func(e Experience) bool { return e.ID == x.ExperienceID })
			delete(t.expIDs, x.ExperienceID)
		}
	}
	t.batch, t.batchLive = nil, nil
}

func (t *Transcript) pendingIndex(id string) int {
	for i, c := range t.pending {
		if c.ID == id {
			return i
		}
	}
	return -1
}

func (t *Transcript) pendingIDs() string {
	ids := make([]string, len(t.pending))
	for i, c := range t.pending {
		ids[i] = c.ID
	}
	return strings.Join(ids, ", ")
}

func (t *Transcript) push(m traffic.Message, n Note) {
	t.msgs = append(t.msgs, m)
	t.notes = append(t.notes, n)
}

// answer removes pending call i and, when it was the turn's last, appends
// the deferred multimodal messages.
func (t *Transcript) answer(i int) {
	t.pending = slices.Delete(t.pending, i, i+1)
	if len(t.pending) == 0 {
		for _, m := range t.deferred {
			t.push(m, Note{})
		}
		t.deferred = nil
	}
}

// reset replaces the history with msgs after checking them.
func (t *Transcript) reset(k MutationKind, msgs []traffic.Message) error {
	var keep, eph []traffic.Message
	for i, m := range msgs {
		if m.Ephemeral {
			if err := checkEphemeral(k, fmt.Sprintf("messages[%d]", i), m); err != nil {
				return err
			}
			eph = append(eph, m)
			continue
		}
		keep = append(keep, m)
	}
	if err := ValidateOpen(keep); err != nil {
		return reject(k, ErrInvalidMessage, "%v", err)
	}
	ids := map[string]struct{}{}
	for i, m := range keep {
		for j, b := range m.Blocks {
			if b.Type == traffic.BlockToolCall {
				if b.ID == "" {
					return reject(k, ErrInvalidMessage, "messages[%d].blocks[%d]: tool call %s has no id", i, j, b.Name)
				}
				ids[b.ID] = struct{}{}
			}
		}
	}
	t.msgs, t.notes, t.anchor = keep, make([]Note, len(keep)), 0
	t.pending, t.deferred, t.callIDs = pendingCalls(keep), nil, ids
	t.ephemeral = eph
	return nil
}

// pendingCalls finds the calls of the final assistant turn that have no
// result yet, for a history that passed ValidateOpen.
func pendingCalls(msgs []traffic.Message) []ToolCallRef {
	answered := map[string]bool{}
	i := len(msgs) - 1
	for ; i >= 0 && msgs[i].Role != traffic.RoleAssistant; i-- {
		for _, b := range msgs[i].Blocks {
			if b.Type != traffic.BlockToolResult {
				return nil // other content closed the turn
			}
			answered[b.ToolCallID] = true
		}
	}
	start := i
	for start > 0 && msgs[start-1].Role == traffic.RoleAssistant {
		start--
	}
	var p []ToolCallRef
	for k := start; k >= 0 && k <= i; k++ {
		for _, b := range msgs[k].Blocks {
			if b.Type == traffic.BlockToolCall && !answered[b.ID] {
				p = append(p, ToolCallRef{ID: b.ID, Name: b.Name, msg: k})
			}
		}
	}
	return p
}

// checkContent rejects an empty message and blocks a role cannot hold.
func checkContent(k MutationKind, what string, m traffic.Message) error {
	if len(m.Blocks) == 0 {
		return reject(k, ErrInvalidMessage, "%s has no content", what)
	}
	for j, b := range m.Blocks {
		switch {
		case b.Type == traffic.BlockToolCall || b.Type == traffic.BlockToolResult:
			return reject(k, ErrInvalidMessage, "%s.blocks[%d]: a %s message cannot carry a %s", what, j, m.Role, b.Type)
		case isThinking(b.Type):
			return reject(k, ErrInvalidMessage, "%s.blocks[%d]: a %s message cannot carry a %s block", what, j, m.Role, b.Type)
		}
	}
	return nil
}

// checkEphemeral allows ephemeral system, user and assistant messages
// (docs/reference-model.md, seed 000: any message; an assistant one is a
// retry's refused answer) without tool or reasoning blocks: a tool call or
// result must stay paired in history, and signed reasoning must be echoed
// where it was produced.
func checkEphemeral(k MutationKind, what string, m traffic.Message) error {
	if m.Role != traffic.RoleUser && m.Role != traffic.RoleSystem && m.Role != traffic.RoleAssistant {
		return reject(k, ErrInvalidMessage, "%s: only system, user and assistant messages can be ephemeral, found %s", what, m.Role)
	}
	return checkContent(k, what, m)
}

// cloneMessages deep-copies a history.
func cloneMessages(ms []traffic.Message) []traffic.Message {
	if ms == nil {
		return nil
	}
	out := make([]traffic.Message, len(ms))
	for i, m := range ms {
		out[i] = m.Clone()
	}
	return out
}
