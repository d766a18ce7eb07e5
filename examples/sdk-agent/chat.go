package sdkagent

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
	"github.com/openai/openai-go/packages/param"
	"github.com/openai/openai-go/shared"
)

// chatProvider calls Chat Completions with openai-go.
type chatProvider struct {
	a      *Agent
	model  string
	client openai.Client
}

// openaiOptions are the client options of the OpenAI SDK for a base URL
// given without the /v1 the SDK wants after it.
func openaiOptions(a *Agent, name string) []option.RequestOption {
	opts := []option.RequestOption{option.WithAPIKey(a.APIKey)}
	if u := a.BaseURL[name]; u != "" {
		opts = append(opts, option.WithBaseURL(u+"/v1/"))
	}
	return opts
}

func newChat(a *Agent, model string) *chatProvider {
	return &chatProvider{a: a, model: model, client: openai.NewClient(openaiOptions(a, Chat)...)}
}

func (p *chatProvider) step(ctx context.Context, req request) (Entry, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(p.model), Messages: p.messages(req)}
	if p.a.MaxTokens > 0 {
		params.MaxCompletionTokens = openai.Int(int64(p.a.MaxTokens))
	}
	for _, t := range p.a.Tools {
		schema, err := schemaMap(t)
		if err != nil {
			return Entry{}, err
		}
		params.Tools = append(params.Tools, openai.ChatCompletionToolParam{Function: shared.FunctionDefinitionParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: shared.FunctionParameters(schema),
		}})
	}
	resp, err := p.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return Entry{}, err
	}
	if len(resp.Choices) == 0 {
		return Entry{}, errors.New("sdkagent: the chat completion has no choice")
	}
	msg := resp.Choices[0].Message
	// Stored as the SDK sends it back: the arguments strings unchanged.
	e := Entry{Role: "assistant", Text: msg.Content, Native: encode(msg.ToParam())}
	for _, c := range msg.ToolCalls {
		e.Calls = append(e.Calls, Call{ID: c.ID, Name: c.Function.Name, Input: json.RawMessage(c.Function.Arguments)})
	}
	return e, nil
}

// messages is the history as chat messages.
func (p *chatProvider) messages(req request) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if p.a.System != "" {
		out = append(out, openai.SystemMessage(p.a.System))
	}
	for _, e := range req.history {
		switch {
		case e.Role == "user":
			out = append(out, openai.UserMessage(e.Text))
		case e.Role == "assistant" && e.Wire == Chat && len(e.Native) > 0:
			out = append(out, param.Override[openai.ChatCompletionMessageParamUnion](e.Native))
		case e.Role == "assistant":
			m := openai.ChatCompletionAssistantMessageParam{}
			if e.Text != "" {
				m.Content.OfString = openai.String(e.Text)
			}
			for _, c := range e.Calls {
				m.ToolCalls = append(m.ToolCalls, openai.ChatCompletionMessageToolCallParam{ID: c.ID,
					Function: openai.ChatCompletionMessageToolCallFunctionParam{Name: c.Name, Arguments: string(c.Input)}})
			}
			if e.Text != "" || len(m.ToolCalls) > 0 {
				out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &m})
			}
		case e.Role == "tool":
			for _, r := range e.Results {
				out = append(out, openai.ToolMessage(r.Output, r.CallID))
			}
		}
	}
	if req.feedback != "" {
		if req.inPrompt && len(out) > 0 && out[len(out)-1].OfUser != nil {
			prompt := out[len(out)-1].OfUser.Content.OfString.Value
			out[len(out)-1] = openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
				openai.TextContentPart(prompt), openai.TextContentPart(req.feedback)})
		} else {
			out = append(out, openai.UserMessage(req.feedback))
		}
	}
	return out
}

func (p *chatProvider) title(ctx context.Context, prompt string) (string, error) {
	resp, err := p.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    shared.ChatModel(p.model),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(titleSystem), openai.UserMessage(prompt)},
	})
	if err != nil {
		return "", err
	}
	if len(resp.Choices) == 0 {
		return "", errors.New("sdkagent: the chat completion has no choice")
	}
	return resp.Choices[0].Message.Content, nil
}
