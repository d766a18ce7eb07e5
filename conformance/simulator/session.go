package simulator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/traffic"
)

// Session is what a harness is given to play one scenario.
type Session struct {
	Scenario    string // "<provider>/<what>"
	Description string
	// System is the system prompt; "" for none.
	System    string
	MaxTokens int
	// Thinking is the thinking configuration to send; nil for none.
	Thinking *traffic.Thinking
	Tools    []Tool
	// Turns are the user's messages in order. Run each to its final answer
	// (or until cancelled) before the next.
	Turns []Turn

	urls map[traffic.Wire]string

	mu       sync.Mutex
	onCancel func()
	// onExec is told of every tool execution (the simulator counts them
	// per call).
	onExec func(name string, input json.RawMessage)
}

// Turn is one user message.
type Turn struct {
	Provider traffic.Wire // the provider to send it to: BaseURL(Provider)
	Model    string
	Prompt   string
	// Compact, when set, asks the harness to compact the conversation
	// before this turn: the history so far is replaced by this summary
	// (the system prompt stays), at a turn boundary, keeping tool calls and
	// their results together.
	Compact string
	// OutputSchema, when set, is the JSON Schema the turn's final answer
	// must match (Valid). When an answer does not, send Feedback as an
	// ephemeral user message — once, never persisted — and ask again: the
	// history keeps only the accepted answer.
	OutputSchema json.RawMessage
	Feedback     string
}

// Tool is a tool to register. Call returns its canned result whatever the
// arguments, so any correct harness passes whatever it asks.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage // a JSON Schema object
	Result      string

	cancels bool
	s       *Session
}

// BaseURL is the simulated provider's base URL, to use in place of
// https://api.anthropic.com, https://api.openai.com or
// https://generativelanguage.googleapis.com (openai-go wants "/v1" after
// it, as for the real one).
func (s *Session) BaseURL(provider traffic.Wire) string { return s.urls[provider] }

// OnCancel sets the hook the session calls when the scenario's user presses
// stop — while a tool the scenario cancels runs, or mid-stream — to cancel
// what the harness is doing. A harness typically passes the cancel function
// of the context its current turn runs under.
func (s *Session) OnCancel(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onCancel = f
}

// cancel presses stop.
func (s *Session) cancel() {
	s.mu.Lock()
	f := s.onCancel
	s.mu.Unlock()
	if f != nil {
		f()
	}
}

// cancelWait bounds how long a cancelled tool waits for its context.
const cancelWait = 5 * time.Second

// Call runs the tool: it returns the canned result. A tool the scenario
// cancels presses stop instead and returns when ctx is done, with ctx's
// error; if the harness does not cancel it within 5 s it fails.
func (t Tool) Call(ctx context.Context, input json.RawMessage) (string, error) {
	if t.s != nil && t.s.onExec != nil {
		t.s.onExec(t.Name, input)
	}
	if !t.cancels {
		return t.Result, nil
	}
	t.s.cancel()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(cancelWait):
		return "", fmt.Errorf("conformance: tool %s was cancelled by the user, but the harness did not cancel its context within %v", t.Name, cancelWait)
	}
}

// Valid reports whether answer is JSON matching the turn's OutputSchema;
// with no schema every answer is valid.
func (t Turn) Valid(answer string) bool {
	if len(t.OutputSchema) == 0 {
		return true
	}
	schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(t.OutputSchema))
	if err != nil {
		return false
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("output.json", schema); err != nil {
		return false
	}
	sch, err := c.Compile("output.json")
	if err != nil {
		return false
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(answer)))
	if err != nil {
		return false
	}
	return sch.Validate(inst) == nil
}

// newSession builds the session for sc, its providers at urls.
func newSession(sc *scenario.Scenario, urls map[traffic.Wire]string) *Session {
	s := &Session{Scenario: sc.Name, Description: sc.Description, System: sc.System, MaxTokens: sc.MaxTokens, Thinking: sc.Thinking, urls: urls}
	if s.MaxTokens == 0 {
		s.MaxTokens = 1024
	}
	for _, t := range sc.Tools {
		s.Tools = append(s.Tools, Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Result: t.Result, cancels: t.Cancel, s: s})
	}
	for _, t := range sc.Turns {
		s.Turns = append(s.Turns, Turn{Provider: t.Wire, Model: t.Model, Prompt: t.Prompt, Compact: t.Compact, OutputSchema: t.OutputSchema, Feedback: t.Feedback})
	}
	return s
}
