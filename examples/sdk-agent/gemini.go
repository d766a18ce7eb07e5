package sdkagent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"google.golang.org/genai"
)

// geminiProvider calls generateContent with google.golang.org/genai.
type geminiProvider struct {
	a      *Agent
	model  string
	client *genai.Client
}

func newGemini(a *Agent, model string) (*geminiProvider, error) {
	cc := &genai.ClientConfig{APIKey: a.APIKey, Backend: genai.BackendGeminiAPI}
	if u := a.BaseURL[Gemini]; u != "" {
		cc.HTTPOptions.BaseURL = u
	}
	client, err := genai.NewClient(context.Background(), cc)
	if err != nil {
		return nil, err
	}
	return &geminiProvider{a: a, model: model, client: client}, nil
}

func (p *geminiProvider) config() *genai.GenerateContentConfig {
	c := &genai.GenerateContentConfig{MaxOutputTokens: int32(p.a.MaxTokens)}
	if p.a.System != "" {
		c.SystemInstruction = genai.NewContentFromText(p.a.System, genai.RoleUser)
	}
	var decls []*genai.FunctionDeclaration
	for _, t := range p.a.Tools {
		decls = append(decls, &genai.FunctionDeclaration{Name: t.Name, Description: t.Description, ParametersJsonSchema: t.InputSchema})
	}
	if len(decls) > 0 {
		c.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	return c
}

func (p *geminiProvider) step(ctx context.Context, req request) (Entry, error) {
	contents, err := p.contents(req)
	if err != nil {
		return Entry{}, err
	}
	resp, err := p.client.Models.GenerateContent(ctx, p.model, contents, p.config())
	if err != nil {
		return Entry{}, err
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
		return Entry{}, errors.New("sdkagent: the Gemini response has no candidate")
	}
	// The content is stored as the SDK decoded it: every part in place,
	// thoughtSignatures included, also on a part with nothing else.
	content := resp.Candidates[0].Content
	e := Entry{Role: "assistant", Text: answerText(content), Native: encode(content)}
	for _, part := range content.Parts {
		if fc := part.FunctionCall; fc != nil {
			e.Calls = append(e.Calls, Call{ID: fc.ID, Name: fc.Name, Input: encode(fc.Args)})
		}
	}
	return e, nil
}

// answerText is the text of c's parts that are not thoughts.
func answerText(c *genai.Content) string {
	var b strings.Builder
	for _, p := range c.Parts {
		if !p.Thought {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// contents is the history as Gemini contents.
func (p *geminiProvider) contents(req request) ([]*genai.Content, error) {
	var out []*genai.Content
	for _, e := range req.history {
		switch {
		case e.Role == "user":
			out = append(out, genai.NewContentFromText(e.Text, genai.RoleUser))
		case e.Role == "assistant" && e.Wire == Gemini && len(e.Native) > 0:
			var c genai.Content
			if err := json.Unmarshal(e.Native, &c); err != nil {
				return nil, err
			}
			out = append(out, &c)
		case e.Role == "assistant":
			c := &genai.Content{Role: genai.RoleModel}
			if e.Text != "" {
				c.Parts = append(c.Parts, genai.NewPartFromText(e.Text))
			}
			for _, call := range e.Calls {
				var args map[string]any
				if err := json.Unmarshal(call.Input, &args); err != nil {
					return nil, err
				}
				c.Parts = append(c.Parts, &genai.Part{FunctionCall: &genai.FunctionCall{ID: call.ID, Name: call.Name, Args: args}})
			}
			if len(c.Parts) > 0 {
				out = append(out, c)
			}
		case e.Role == "tool":
			results := &genai.Content{Role: genai.RoleUser}
			for _, r := range e.Results {
				resp := map[string]any{"output": r.Output}
				if r.Error {
					resp = map[string]any{"error": r.Output}
				}
				part := &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: r.CallID, Name: r.Name, Response: resp}}
				if p.a.Defects.SplitResults {
					out = append(out, &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{part}})
					continue
				}
				results.Parts = append(results.Parts, part)
			}
			if len(results.Parts) > 0 {
				out = append(out, results)
			}
		}
	}
	if req.feedback != "" {
		if last := len(out) - 1; req.inPrompt && last >= 0 && out[last].Role == genai.RoleUser {
			out[last].Parts = append(out[last].Parts, genai.NewPartFromText(req.feedback))
		} else {
			out = append(out, genai.NewContentFromText(req.feedback, genai.RoleUser))
		}
	}
	return out, nil
}

func (p *geminiProvider) title(ctx context.Context, prompt string) (string, error) {
	resp, err := p.client.Models.GenerateContent(ctx, p.model, []*genai.Content{genai.NewContentFromText(prompt, genai.RoleUser)},
		&genai.GenerateContentConfig{SystemInstruction: genai.NewContentFromText(titleSystem, genai.RoleUser), MaxOutputTokens: 20})
	if err != nil {
		return "", err
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
		return "", errors.New("sdkagent: the Gemini response has no candidate")
	}
	return strings.TrimSpace(answerText(resp.Candidates[0].Content)), nil
}
