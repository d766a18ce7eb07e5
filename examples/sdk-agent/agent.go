// Package sdkagent is a tool-using agent on the official SDKs of four
// wires (anthropic-sdk-go for Messages, openai-go for Chat Completions and
// Responses, google.golang.org/genai for Gemini) that keeps its
// conversation in a JSON file, the worked example of proving a multi-provider
// harness with conformance.Run (agent_test.go).
//
// Defects switches on, one at a time, the bugs such harnesses really ship,
// so the test can show that each one fails a scenario.
package sdkagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Providers, as Turn.Provider names them.
const (
	Anthropic = "anthropic"
	Chat      = "openai"
	Responses = "responses"
	Gemini    = "gemini"
)

// Tool is a tool the model may call.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage // a JSON Schema object
	Run         func(ctx context.Context, input json.RawMessage) (string, error)
}

// Turn is one user message and where it goes.
type Turn struct {
	Provider string // Anthropic, Chat, Responses or Gemini
	Model    string
	Prompt   string
	// Compact, when set, replaces the history with this summary before the
	// prompt (at a turn boundary: no tool call waits for its result).
	Compact string
	// Valid, when set, judges the final answer; an answer it refuses is
	// retried once with Feedback sent as an ephemeral user message.
	Valid    func(answer string) bool
	Feedback string
}

// Options choose between behaviours that are all correct.
type Options struct {
	// UndoAbortedTurn drops the prompt of a turn the user stopped, so the
	// next prompt follows the last answered one; by default the prompt
	// stays and the next one follows it as a second user message.
	UndoAbortedTurn bool
	// FeedbackInPrompt sends a retry's feedback as a second text block of
	// the prompt's message, without the refused answer, instead of as a
	// user message after it.
	FeedbackInPrompt bool
	// AckCompaction follows a compaction summary with an assistant
	// acknowledgement before the next prompt.
	AckCompaction bool
	// KeepInterrupted keeps the text a stopped stream had delivered,
	// followed by a user note that says it was interrupted (as Claude Code
	// does); by default nothing of a stopped answer is kept.
	KeepInterrupted bool
}

// interruptedNote follows an answer kept with Options.KeepInterrupted.
const interruptedNote = "[Request interrupted by user]"

// Defects are bugs harnesses ship; each is off in a correct agent.
type Defects struct {
	// TrimThinking trims whitespace around thinking text when it is stored.
	TrimThinking bool
	// KeepPartial stores the part of an answer a stream had delivered when
	// the user stopped it.
	KeepPartial bool
	// KeepReasoningOnSwitch sends earlier Responses output items, reasoning
	// included, to a model other than the one that produced them.
	KeepReasoningOnSwitch bool
	// DropEmptyParts stores Gemini answers without their parts that hold
	// no text and no call (a signature-only part).
	DropEmptyParts bool
	// MapInput stores tool input and arguments decoded into
	// map[string]any and encoded again.
	MapInput bool
	// SplitResults sends each result of parallel tool calls in a message
	// of its own.
	SplitResults bool
}

// Agent holds one conversation, across providers, in the JSON file Store:
// every step reads the history from it and writes what it added back.
type Agent struct {
	// BaseURL is the API base URL of each provider ("" for the real one).
	BaseURL   map[string]string
	APIKey    string
	System    string
	MaxTokens int
	// ThinkingBudget turns Anthropic's extended thinking on; 0 leaves it off.
	ThinkingBudget int
	Tools          []Tool
	Store          string // path of the conversation's JSON file
	Options        Options
	Defects        Defects
}

// provider sends one request of a wire and reads its answer.
type provider interface {
	// step sends req and returns the answer as an entry; when the stream
	// was cut off, the error is returned with what had arrived.
	step(ctx context.Context, req request) (Entry, error)
	// title asks for a short title of prompt, outside the conversation.
	title(ctx context.Context, prompt string) (string, error)
}

// request is what one step sends: the stored history and, on a retry, the
// ephemeral feedback.
type request struct {
	history  []Entry
	feedback string // "" when not retrying
	inPrompt bool   // feedback goes into the last user message
}

// Title asks the turn's provider for a title of the conversation that
// prompt starts: a side request, not part of the conversation.
func (a *Agent) Title(ctx context.Context, t Turn) (string, error) {
	p, err := a.provider(t.Provider, t.Model)
	if err != nil {
		return "", err
	}
	return p.title(ctx, t.Prompt)
}

// Ask sends t's prompt and runs the tools the model calls until its final
// answer. If ctx is cancelled while a tool runs, every call still gets a
// result saying so and the turn ends there. If a model call fails, the turn
// is undone; if the user stops a stream, nothing it delivered is kept.
func (a *Agent) Ask(ctx context.Context, t Turn) (string, error) {
	p, err := a.provider(t.Provider, t.Model)
	if err != nil {
		return "", err
	}
	h, err := a.load()
	if err != nil {
		return "", err
	}
	if t.Compact != "" {
		h = []Entry{{Role: "user", Text: t.Compact}}
		if a.Options.AckCompaction {
			h = append(h, Entry{Role: "assistant", Text: "Understood: I will continue from this summary."})
		}
	}
	before := len(h)
	if err := a.save(append(h, Entry{Role: "user", Text: t.Prompt})); err != nil {
		return "", err
	}
	var retry *Entry // the refused answer, while retrying
	for {
		h, err := a.load()
		if err != nil {
			return "", err
		}
		req := request{history: h}
		if retry != nil {
			req.feedback, req.inPrompt = t.Feedback, a.Options.FeedbackInPrompt
			if !req.inPrompt {
				req.history = append(h[:len(h):len(h)], *retry)
			}
		}
		e, err := p.step(ctx, req)
		if err != nil {
			stopped := ctx.Err() != nil
			switch {
			case stopped && a.Defects.KeepPartial && len(e.Native) > 0:
				h = append(h, e)
			case stopped && a.Options.KeepInterrupted && e.Text != "":
				// Only the text: a thinking block without its signature or
				// half a tool call cannot go back.
				h = append(h, Entry{Role: "assistant", Text: e.Text}, Entry{Role: "user", Text: interruptedNote})
			case !stopped || a.Options.UndoAbortedTurn:
				h = h[:before]
			}
			return "", errors.Join(err, a.save(h))
		}
		e.Wire, e.Model = t.Provider, t.Model
		if len(e.Calls) > 0 {
			h = append(h, e, Entry{Role: "tool", Results: a.runTools(ctx, e.Calls)})
			if err := a.save(h); err != nil {
				return "", err
			}
			if err := ctx.Err(); err != nil {
				return "", err
			}
			continue
		}
		if t.Valid != nil && retry == nil && !t.Valid(e.Text) {
			retry = &e
			continue
		}
		return e.Text, a.save(append(h, e))
	}
}

// provider is the client of one provider for model.
func (a *Agent) provider(name, model string) (provider, error) {
	switch name {
	case Anthropic:
		return newAnthropic(a, model), nil
	case Chat:
		return newChat(a, model), nil
	case Responses:
		return newResponses(a, model), nil
	case Gemini:
		return newGemini(a, model)
	}
	return nil, fmt.Errorf("sdkagent: no provider %q", name)
}

// cancelled is what a call the user stopped returns.
const cancelled = "Cancelled by the user before it finished; the tool did not complete."

// runTools runs calls in order and returns one result for each.
func (a *Agent) runTools(ctx context.Context, calls []Call) []Result {
	var out []Result
	for _, c := range calls {
		r := Result{CallID: c.ID, Name: c.Name}
		if ctx.Err() == nil {
			r.Output, r.Error = a.call(ctx, c)
		}
		if ctx.Err() != nil {
			r.Output, r.Error = cancelled, true
		}
		out = append(out, r)
	}
	return out
}

func (a *Agent) call(ctx context.Context, c Call) (string, bool) {
	for _, t := range a.Tools {
		if t.Name == c.Name {
			out, err := t.Run(ctx, c.Input)
			if err != nil {
				return err.Error(), true
			}
			return out, false
		}
	}
	return fmt.Sprintf("no tool named %q", c.Name), true
}

// schemaMap is a tool's input schema as the OpenAI SDKs take it.
func schemaMap(t Tool) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(t.InputSchema, &m); err != nil {
		return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	return m, nil
}
