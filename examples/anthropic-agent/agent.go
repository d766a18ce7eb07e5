// Package agent is a minimal tool-using agent on the Anthropic Go SDK, the
// worked example of proving a harness with conformance.Run (agent_test.go).
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
)

// Tool is a tool the model may call.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage // a JSON Schema object
	Run         func(ctx context.Context, input json.RawMessage) (string, error)
}

// Agent holds one conversation with Claude: each Ask sends the history so
// far, runs the tools the model calls and repeats until its final answer.
type Agent struct {
	Client    anthropic.Client
	Model     string
	System    string
	MaxTokens int
	// ThinkingBudget turns extended thinking on with this many tokens; 0
	// leaves it off.
	ThinkingBudget int
	Tools          []Tool

	history []anthropic.MessageParam
}

// cancelled is the tool_result of a call the user cancelled: every
// tool_use must be answered, and the model should know it did not run.
const cancelled = "The user cancelled this tool call before it finished."

// Ask sends prompt and returns the final answer. If ctx is cancelled while
// a tool runs, each call still gets a result saying so and the turn ends
// there, so the next Ask continues from a valid history. If a model call
// fails (cancelled, or refused by the API), the turn is undone: the history
// is as it was before Ask.
func (a *Agent) Ask(ctx context.Context, prompt string) (string, error) {
	params, err := a.params()
	if err != nil {
		return "", err
	}
	before := len(a.history)
	a.history = append(a.history, anthropic.NewUserMessage(anthropic.NewTextBlock(prompt)))
	for {
		params.Messages = a.history
		resp, err := a.Client.Messages.New(ctx, params)
		if err != nil {
			a.history = a.history[:before]
			return "", err
		}
		// The assistant message goes back exactly as returned: thinking
		// blocks and their signatures must not change.
		a.history = append(a.history, resp.ToParam())
		if resp.StopReason != anthropic.StopReasonToolUse {
			return answer(resp), nil
		}
		results := a.runTools(ctx, resp)
		a.history = append(a.history, anthropic.NewUserMessage(results...))
		if err := ctx.Err(); err != nil {
			return "", err
		}
	}
}

// runTools runs the tool_use blocks of resp in order and returns one
// tool_result for each.
func (a *Agent) runTools(ctx context.Context, resp *anthropic.Message) []anthropic.ContentBlockParamUnion {
	var results []anthropic.ContentBlockParamUnion
	for _, b := range resp.Content {
		if b.Type != "tool_use" {
			continue
		}
		if ctx.Err() != nil {
			results = append(results, anthropic.NewToolResultBlock(b.ID, cancelled, true))
			continue
		}
		out, err := a.call(ctx, b.Name, b.Input)
		switch {
		case ctx.Err() != nil:
			results = append(results, anthropic.NewToolResultBlock(b.ID, cancelled, true))
		case err != nil:
			results = append(results, anthropic.NewToolResultBlock(b.ID, err.Error(), true))
		default:
			results = append(results, anthropic.NewToolResultBlock(b.ID, out, false))
		}
	}
	return results
}

func (a *Agent) call(ctx context.Context, name string, input json.RawMessage) (string, error) {
	for _, t := range a.Tools {
		if t.Name == name {
			return t.Run(ctx, input)
		}
	}
	return "", fmt.Errorf("no tool named %q", name)
}

// params are the request's settings; Ask adds the messages.
func (a *Agent) params() (anthropic.MessageNewParams, error) {
	p := anthropic.MessageNewParams{Model: anthropic.Model(a.Model), MaxTokens: int64(a.MaxTokens)}
	if a.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: a.System}}
	}
	if a.ThinkingBudget > 0 {
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(a.ThinkingBudget))
	}
	for _, t := range a.Tools {
		var schema anthropic.ToolInputSchemaParam
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return p, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: t.Name, Description: anthropic.String(t.Description), InputSchema: schema,
		}})
	}
	return p, nil
}

// answer is the text of the final message.
func answer(resp *anthropic.Message) string {
	var parts []string
	for _, b := range resp.Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "")
}
