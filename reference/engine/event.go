package engine

import (
	"encoding/json"
	"fmt"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// EventType names a harness event (docs/reference-model.md, seed 004).
type EventType string

const (
	EventHarnessStart EventType = "harness_start"
	EventHarnessEnd   EventType = "harness_end"
	EventReasoning    EventType = "reasoning"
	EventText         EventType = "text"
	EventToolCall     EventType = "tool_call"
	EventToolResult   EventType = "tool_result"
	EventToolProgress EventType = "tool_progress"
	EventUsage        EventType = "usage"
	EventError        EventType = "error"
	EventRelay        EventType = "relay"
	// EventEphemeral is llmtck's addition: an ephemeral message sent with a
	// request, so the narrative and audit see what history never keeps.
	EventEphemeral EventType = "ephemeral"
)

// Event is one harness event. Every event carries its run's id and, for a
// sub-agent, the id of the tool call that spawned it.
type Event interface {
	Type() EventType
	Run() EventHeader
}

// EventHeader is the part every event shares.
type EventHeader struct {
	RunID    string `json:"runId"`
	ParentID string `json:"parentId,omitempty"`
}

// Run returns the header.
func (h EventHeader) Run() EventHeader { return h }

// EndReason says why a run ended. The seed names final and max_iterations;
// cancelled and error are llmtck's additions, so that a consumer can tell a
// run that was stopped or failed from one that answered.
type EndReason string

const (
	EndFinal         EndReason = "final"          // the model answered without tool calls
	EndMaxIterations EndReason = "max_iterations" // the loop hit its limit
	EndCancelled     EndReason = "cancelled"      // the context was cancelled or the consumer stopped
	EndError         EndReason = "error"          // a request failed; an error event precedes
)

// TokenUsage counts tokens.
type TokenUsage struct {
	InputTokens         int `json:"inputTokens"`
	OutputTokens        int `json:"outputTokens"`
	CacheReadTokens     int `json:"cacheReadTokens,omitempty"`
	CacheCreationTokens int `json:"cacheCreationTokens,omitempty"`
}

// Add returns u plus v.
func (u TokenUsage) Add(v TokenUsage) TokenUsage {
	return TokenUsage{u.InputTokens + v.InputTokens, u.OutputTokens + v.OutputTokens,
		u.CacheReadTokens + v.CacheReadTokens, u.CacheCreationTokens + v.CacheCreationTokens}
}

// StartEvent is always the first event of a run.
type StartEvent struct {
	EventHeader
	Depth         int `json:"depth,omitempty"`
	MaxIterations int `json:"maxIterations,omitempty"`
}

// EndEvent is always the last event of a run. TotalUsage is the sum of the
// run's usage events.
type EndEvent struct {
	EventHeader
	Reason     EndReason  `json:"reason"`
	Iterations int        `json:"iterations"`
	TotalUsage TokenUsage `json:"totalUsage"`
}

// ReasoningEvent is readable reasoning the model produced.
type ReasoningEvent struct {
	EventHeader
	ID      string `json:"id"`
	Content string `json:"content"`
}

// TextEvent is answer text the model produced.
type TextEvent struct {
	EventHeader
	ID      string `json:"id"`
	Content string `json:"content"`
}

// ToolCallEvent is a call the model made; ID is the tool call id. It comes
// before the call's ToolResultEvent.
type ToolCallEvent struct {
	EventHeader
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ToolResultEvent is the outcome of a call: Context is what the model sees,
// Result what the tool gave the application.
type ToolResultEvent struct {
	EventHeader
	ID      string `json:"id"`
	Name    string `json:"name"`
	Context string `json:"context"`
	Result  any    `json:"result,omitempty"`
	IsError bool   `json:"isError,omitempty"`
}

// ToolProgressEvent is partial output of a running tool.
type ToolProgressEvent struct {
	EventHeader
	ID         string `json:"id"`
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
	Content    any    `json:"content"`
}

// UsageEvent is the token usage of one model response.
type UsageEvent struct {
	EventHeader
	TokenUsage
}

// ErrorEvent reports a failure; the run ends after it.
type ErrorEvent struct {
	EventHeader
	Err error `json:"-"`
}

// EphemeralEvent shows an ephemeral message sent with the next request.
type EphemeralEvent struct {
	EventHeader
	Message traffic.Message `json:"message"`
}

// RelayEvent asks the application to approve a tool call. The loop waits
// until Respond is called (from the event loop or any goroutine) or the
// context ends.
type RelayEvent struct {
	EventHeader
	ID         string          `json:"id"`
	Kind       string          `json:"kind"` // "permission"
	ToolCallID string          `json:"toolCallId"`
	Tool       string          `json:"tool"`
	Params     json.RawMessage `json:"params"`
	respond    func(PermissionResponse)
}

// NewRelayEvent returns a permission relay event answered through respond.
func NewRelayEvent(h EventHeader, id, callID, tool string, params json.RawMessage, respond func(PermissionResponse)) RelayEvent {
	return RelayEvent{EventHeader: h, ID: id, Kind: "permission", ToolCallID: callID, Tool: tool, Params: params, respond: respond}
}

// Respond answers the request; only the first answer counts.
func (e RelayEvent) Respond(r PermissionResponse) {
	if e.respond != nil {
		e.respond(r)
	}
}

func (StartEvent) Type() EventType        { return EventHarnessStart }
func (EndEvent) Type() EventType          { return EventHarnessEnd }
func (ReasoningEvent) Type() EventType    { return EventReasoning }
func (TextEvent) Type() EventType         { return EventText }
func (ToolCallEvent) Type() EventType     { return EventToolCall }
func (ToolResultEvent) Type() EventType   { return EventToolResult }
func (ToolProgressEvent) Type() EventType { return EventToolProgress }
func (UsageEvent) Type() EventType        { return EventUsage }
func (ErrorEvent) Type() EventType        { return EventError }
func (RelayEvent) Type() EventType        { return EventRelay }
func (EphemeralEvent) Type() EventType    { return EventEphemeral }

// MarshalEvent encodes e as one JSON object with its "type" first, the
// seed's wire form, for narrative and audit logs. Raw fields keep their
// bytes; only whitespace between JSON tokens is dropped.
func MarshalEvent(e Event) ([]byte, error) {
	var body []byte
	var err error
	if x, ok := e.(ErrorEvent); ok {
		msg := ""
		if x.Err != nil {
			msg = x.Err.Error()
		}
		body, err = rawjson.Marshal(struct {
			EventHeader
			Error string `json:"error"`
		}{x.EventHeader, msg})
	} else {
		body, err = rawjson.Marshal(e)
	}
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", e.Type(), err)
	}
	var o rawjson.Object
	o.String("type", string(e.Type()))
	fields, err := rawjson.Fields(body)
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", e.Type(), err)
	}
	for _, f := range fields {
		o.Raw(f.Key, f.Value)
	}
	if x, ok := e.(ToolResultEvent); ok {
		// The seed names one field, output: the tool's result for the
		// application when it gave one, else the text the model saw.
		var out []byte
		if x.Result != nil {
			out, err = rawjson.Marshal(x.Result)
		} else {
			out = rawjson.Quote(x.Context)
		}
		if err != nil {
			return nil, fmt.Errorf("event %s: output: %w", e.Type(), err)
		}
		o.Raw("output", out)
	}
	return o.Bytes(), nil
}
