package sdkagent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"
)

// anthropicProvider streams Messages API calls with anthropic-sdk-go.
type anthropicProvider struct {
	a      *Agent
	model  string
	client anthropic.Client
}

func newAnthropic(a *Agent, model string) *anthropicProvider {
	opts := []option.RequestOption{option.WithAPIKey(a.APIKey)}
	if u := a.BaseURL[Anthropic]; u != "" {
		opts = append(opts, option.WithBaseURL(u))
	}
	return &anthropicProvider{a: a, model: model, client: anthropic.NewClient(opts...)}
}

func (p *anthropicProvider) step(ctx context.Context, req request) (Entry, error) {
	params := anthropic.MessageNewParams{Model: anthropic.Model(p.model), MaxTokens: int64(p.a.MaxTokens), Messages: p.messages(req)}
	if p.a.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: p.a.System}}
	}
	if p.a.ThinkingBudget > 0 {
		params.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(p.a.ThinkingBudget))
	}
	for _, t := range p.a.Tools {
		var schema anthropic.ToolInputSchemaParam
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return Entry{}, err
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: t.Name, Description: anthropic.String(t.Description), InputSchema: schema,
		}})
	}
	stream := p.client.Messages.NewStreaming(ctx, params)
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			return p.entry(msg), err
		}
	}
	// The answer is stored as the SDK sends it back (Message.ToParam):
	// thinking blocks and their signatures unchanged.
	return p.entry(msg), stream.Err()
}

// entry is msg in the agent's terms.
func (p *anthropicProvider) entry(msg anthropic.Message) Entry {
	e := Entry{Role: "assistant"}
	if len(msg.Content) > 0 {
		e.Native = encode(msg.ToParam())
	}
	var text []string
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "tool_use":
			e.Calls = append(e.Calls, Call{ID: b.ID, Name: b.Name, Input: b.Input})
		}
	}
	e.Text = strings.Join(text, "")
	return e
}

// messages is the history as Messages API messages.
func (p *anthropicProvider) messages(req request) []anthropic.MessageParam {
	var out []anthropic.MessageParam
	for _, e := range req.history {
		switch {
		case e.Role == "user":
			out = append(out, anthropic.NewUserMessage(anthropic.NewTextBlock(e.Text)))
		case e.Role == "assistant" && e.Wire == Anthropic && len(e.Native) > 0:
			out = append(out, param.Override[anthropic.MessageParam](e.Native))
		case e.Role == "assistant":
			var blocks []anthropic.ContentBlockParamUnion
			if e.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(e.Text))
			}
			for _, c := range e.Calls {
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, c.Input, c.Name))
			}
			if len(blocks) > 0 {
				out = append(out, anthropic.NewAssistantMessage(blocks...))
			}
		case e.Role == "tool":
			var blocks []anthropic.ContentBlockParamUnion
			for _, r := range e.Results {
				blocks = append(blocks, anthropic.NewToolResultBlock(r.CallID, r.Output, r.Error))
			}
			if p.a.Defects.SplitResults {
				for _, b := range blocks {
					out = append(out, anthropic.NewUserMessage(b))
				}
				continue
			}
			out = append(out, anthropic.NewUserMessage(blocks...))
		}
	}
	if req.feedback != "" {
		last := len(out) - 1
		if req.inPrompt && last >= 0 && out[last].Role == anthropic.MessageParamRoleUser {
			out[last].Content = append(out[last].Content[:len(out[last].Content):len(out[last].Content)], anthropic.NewTextBlock(req.feedback))
		} else {
			out = append(out, anthropic.NewUserMessage(anthropic.NewTextBlock(req.feedback)))
		}
	}
	return out
}

func (p *anthropicProvider) title(ctx context.Context, prompt string) (string, error) {
	msg, err := p.client.Messages.New(ctx, anthropic.MessageNewParams{
		Model: anthropic.Model(p.model), MaxTokens: 20,
		System:   []anthropic.TextBlockParam{{Text: titleSystem}},
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))},
	})
	if err != nil {
		return "", err
	}
	return p.entry(*msg).Text, nil
}

// titleSystem is the system prompt of a title request.
const titleSystem = "Write a title of at most five words for the conversation this message starts."
