package sdkagent

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/packages/param"
	"github.com/openai/openai-go/responses"
	"github.com/openai/openai-go/shared"
)

// responsesProvider calls the Responses API with openai-go, stateless
// (store:false): every request carries the whole history, encrypted
// reasoning included.
type responsesProvider struct {
	a      *Agent
	model  string
	client openai.Client
}

func newResponses(a *Agent, model string) *responsesProvider {
	return &responsesProvider{a: a, model: model, client: openai.NewClient(openaiOptions(a, Responses)...)}
}

func (p *responsesProvider) step(ctx context.Context, req request) (Entry, error) {
	params := responses.ResponseNewParams{
		Model:   shared.ResponsesModel(p.model),
		Input:   responses.ResponseNewParamsInputUnion{OfInputItemList: p.input(req)},
		Store:   openai.Bool(false),
		Include: []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent},
	}
	if p.a.System != "" {
		params.Instructions = openai.String(p.a.System)
	}
	if p.a.MaxTokens > 0 {
		params.MaxOutputTokens = openai.Int(int64(p.a.MaxTokens))
	}
	for _, t := range p.a.Tools {
		schema, err := schemaMap(t)
		if err != nil {
			return Entry{}, err
		}
		params.Tools = append(params.Tools, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: schema, Strict: openai.Bool(false),
		}})
	}
	resp, err := p.client.Responses.New(ctx, params)
	if err != nil {
		return Entry{}, err
	}
	// The output items are stored as they came: reasoning with its
	// encrypted_content, messages and calls with their ids.
	var items []json.RawMessage
	e := Entry{Role: "assistant", Text: resp.OutputText()}
	for _, it := range resp.Output {
		items = append(items, json.RawMessage(it.RawJSON()))
		if it.Type == "function_call" {
			e.Calls = append(e.Calls, Call{ID: it.CallID, Name: it.Name, Input: json.RawMessage(it.Arguments)})
		}
	}
	e.Native = encode(items)
	return e, nil
}

// input is the history as input items. An answer goes back as its items
// only to the model that produced it: another model may not read its
// reasoning (a model that does not reason refuses reasoning items, another
// family cannot decrypt them), so it gets the text and calls alone, without
// the item ids that would ask for the reasoning.
func (p *responsesProvider) input(req request) responses.ResponseInputParam {
	var out responses.ResponseInputParam
	add := func(v any) {
		out = append(out, param.Override[responses.ResponseInputItemUnionParam](encode(v)))
	}
	lastUser := -1
	for _, e := range req.history {
		switch {
		case e.Role == "user":
			lastUser = len(out)
			add(map[string]any{"role": "user", "content": e.Text})
		case e.native(Responses, p.model) || (p.a.Defects.KeepReasoningOnSwitch && e.Wire == Responses && len(e.Native) > 0):
			var items []json.RawMessage
			if err := json.Unmarshal(e.Native, &items); err == nil {
				for _, it := range items {
					out = append(out, param.Override[responses.ResponseInputItemUnionParam](it))
				}
			}
		case e.Role == "assistant":
			if e.Text != "" {
				add(map[string]any{"role": "assistant", "content": e.Text})
			}
			for _, c := range e.Calls {
				add(map[string]any{"type": "function_call", "call_id": c.ID, "name": c.Name, "arguments": string(c.Input)})
			}
		case e.Role == "tool":
			for _, r := range e.Results {
				add(map[string]any{"type": "function_call_output", "call_id": r.CallID, "output": r.Output})
			}
		}
	}
	if req.feedback != "" {
		if req.inPrompt && lastUser == len(out)-1 {
			prompt := req.history[len(req.history)-1].Text
			out[lastUser] = param.Override[responses.ResponseInputItemUnionParam](encode(map[string]any{"role": "user", "content": []map[string]string{
				{"type": "input_text", "text": prompt}, {"type": "input_text", "text": req.feedback}}}))
		} else {
			add(map[string]any{"role": "user", "content": req.feedback})
		}
	}
	return out
}

func (p *responsesProvider) title(ctx context.Context, prompt string) (string, error) {
	resp, err := p.client.Responses.New(ctx, responses.ResponseNewParams{
		Model:        shared.ResponsesModel(p.model),
		Instructions: openai.String(titleSystem),
		Input:        responses.ResponseNewParamsInputUnion{OfString: openai.String(prompt)},
	})
	if err != nil {
		return "", err
	}
	return resp.OutputText(), nil
}
