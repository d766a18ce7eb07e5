package engine

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/llmtck/llmtck/traffic"
)

// MutationKind names one of the ten transcript patches of
// docs/reference-model.md, seed 001.
type MutationKind string

const (
	KindAssistantMessage     MutationKind = "assistant_message"
	KindToolResult           MutationKind = "tool_result"
	KindMultimodalToolResult MutationKind = "multimodal_tool_result"
	KindUserMessage          MutationKind = "user_message"
	KindContextReplace       MutationKind = "context_replace"
	KindContextSummary       MutationKind = "context_summary"
	KindExperienceRemember   MutationKind = "experience_remember"
	KindExperienceForget     MutationKind = "experience_forget"
	KindAssistantTruncated   MutationKind = "assistant_truncated"
	KindToolCancelled        MutationKind = "tool_cancelled"
)

// Mutation is one typed transcript patch. The set is closed: the ten types
// of this file implement it, plus AssistantItems (assistant_items.go), the
// assistant_message patch for wires that reply in several items.
type Mutation interface {
	Kind() MutationKind
	apply(t *Transcript) error
}

// AssistantMessage appends the model's reply: text, tool calls and
// reasoning blocks, as decoded (signatures and arguments raw).
type AssistantMessage struct{ Message traffic.Message }

// ToolResult appends a tool's text result, linked to its call.
type ToolResult struct {
	ToolCallID string
	Name       string // optional; taken from the call when empty
	Content    string
	IsError    bool
}

// MultimodalToolResult restructures a call whose result holds images or
// documents: the call leaves its assistant message, and an assistant
// summary plus the user messages carrying the media are appended once every
// other call of that turn has its result (most providers take media only in
// user messages).
type MultimodalToolResult struct {
	ToolCallID   string
	ToolName     string
	Arguments    json.RawMessage // the call's arguments, raw
	UserMessages []traffic.Message
}

// UserMessage appends a user message mid-loop. An Ephemeral one is queued
// for the next request only and never enters the transcript.
type UserMessage struct{ Message traffic.Message }

// ContextReplace discards the transcript and puts Messages in its place.
type ContextReplace struct{ Messages []traffic.Message }

// ContextSummary compacts the transcript: the leading system messages stay,
// everything after them becomes Summary, and Remember is stored as durable
// experiences.
type ContextSummary struct {
	Summary  traffic.Message
	Remember []string
}

// ExperienceRemember stores a durable experience in the system context. An
// empty ID is assigned ("exp-1", "exp-2"…) when the mutation is applied.
type ExperienceRemember struct {
	ID   string
	Text string
}

// ExperienceForget removes a stored experience by ID.
type ExperienceForget struct{ ExperienceID string }

// AssistantTruncated records the part of a reply received before an abort.
// Only text is kept: an unsigned thinking block or half a tool call could
// not be echoed.
type AssistantTruncated struct {
	PartialContent string
	AbortReason    string
}

// ToolCancelled answers a call that was aborted, with an error result, so
// the call keeps its result.
type ToolCancelled struct {
	ToolCallID  string
	ToolName    string
	AbortReason string
}

func (AssistantMessage) Kind() MutationKind     { return KindAssistantMessage }
func (ToolResult) Kind() MutationKind           { return KindToolResult }
func (MultimodalToolResult) Kind() MutationKind { return KindMultimodalToolResult }
func (UserMessage) Kind() MutationKind          { return KindUserMessage }
func (ContextReplace) Kind() MutationKind       { return KindContextReplace }
func (ContextSummary) Kind() MutationKind       { return KindContextSummary }
func (ExperienceRemember) Kind() MutationKind   { return KindExperienceRemember }
func (ExperienceForget) Kind() MutationKind     { return KindExperienceForget }
func (AssistantTruncated) Kind() MutationKind   { return KindAssistantTruncated }
func (ToolCancelled) Kind() MutationKind        { return KindToolCancelled }

// Errors a mutation can be rejected with; MutationError wraps one of them.
var (
	ErrPendingToolCalls    = errors.New("tool calls are still waiting for results")
	ErrUnknownToolCall     = errors.New("no pending tool call has this id")
	ErrDuplicateToolCall   = errors.New("tool call id already used in this transcript")
	ErrInvalidMessage      = errors.New("invalid message")
	ErrUnknownExperience   = errors.New("no experience has this id")
	ErrDuplicateExperience = errors.New("experience id already used")
)

// MutationError says which mutation was rejected and why. A rejected
// mutation leaves the transcript unchanged.
type MutationError struct {
	Kind   MutationKind
	Err    error  // one of the Err… values above
	Detail string // the values involved
}

func (e *MutationError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("%s: %v", e.Kind, e.Err)
	}
	return fmt.Sprintf("%s: %v: %s", e.Kind, e.Err, e.Detail)
}

func (e *MutationError) Unwrap() error { return e.Err }

func reject(k MutationKind, err error, format string, args ...any) error {
	return &MutationError{Kind: k, Err: err, Detail: fmt.Sprintf(format, args...)}
}

// Phase is the step of a loop iteration that produced a mutation; within an
// iteration mutations apply hooks first, then LLM, tools, abort
// (docs/reference-model.md, seed 001).
type Phase int

const (
	PhaseHook Phase = iota + 1
	PhaseLLM
	PhaseTool
	PhaseAbort
)

var phaseNames = [...]string{"", "hook", "llm", "tool", "abort"}

func (p Phase) String() string {
	if p < PhaseHook || p > PhaseAbort {
		return fmt.Sprintf("Phase(%d)", int(p))
	}
	return phaseNames[p]
}

// Allowed reports whether a mutation of kind k can be produced in phase p:
// the LLM phase produces only assistant messages, the abort phase only the
// two abort patches, and neither hooks nor tools produce those three.
func (p Phase) Allowed(k MutationKind) bool {
	switch k {
	case KindAssistantMessage:
		return p == PhaseLLM
	case KindAssistantTruncated, KindToolCancelled:
		return p == PhaseAbort
	case KindToolResult, KindMultimodalToolResult:
		return p == PhaseTool
	}
	return p == PhaseHook || p == PhaseTool
}

func isExperience(m Mutation) bool {
	k := m.Kind()
	return k == KindExperienceRemember || k == KindExperienceForget
}
