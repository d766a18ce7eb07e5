// Package sim is the simulated provider: it serves a scripted scenario over
// HTTP and judges each incoming request by the wire's rules, answering a
// violation as the real provider would.
package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/fixtures"
	"github.com/llmtck/llmtck/providers"
)

// Placeholder stands for a signature or redacted data in a scenario file;
// the simulator mints the real token when it serves the step.
const Placeholder = "{{mint}}"

// Scenario is one scripted conversation: what the user asks, the tools the
// harness registers with their canned results, and the response the
// simulator serves at each step.
type Scenario struct {
	Name        string // "<provider>/<what>", from the file's path
	Wire        engine.Wire
	Description string
	Model       string
	MaxTokens   int
	Thinking    *engine.Thinking // nil: thinking off
	System      string
	Prompt      string
	Tools       []Tool
	Steps       []Step
}

// Tool is a tool the harness registers, with the result it returns whatever
// its arguments.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	Result      string
}

// Step is one response the simulator serves, in the wire's own block
// format. Signatures and redacted data hold Placeholder.
type Step struct {
	Content    []json.RawMessage
	StopReason string          // "" means tool_use when the step calls a tool, else end_turn
	Usage      json.RawMessage // the wire's usage object; nil means zeros
}

// file is a scenario file's JSON layout.
type file struct {
	Description string          `json:"description"`
	Model       string          `json:"model"`
	MaxTokens   int             `json:"max_tokens"`
	Thinking    json.RawMessage `json:"thinking"`
	System      string          `json:"system"`
	Prompt      string          `json:"prompt"`
	Tools       []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
		Result      string          `json:"result"`
	} `json:"tools"`
	Steps []struct {
		Content    []json.RawMessage `json:"content"`
		StopReason string            `json:"stop_reason"`
		Usage      json.RawMessage   `json:"usage"`
	} `json:"steps"`
}

// Names lists the bundled scenarios, sorted.
func Names() []string {
	var out []string
	fs.WalkDir(fixtures.Scenarios, "scenarios", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".json" {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(p, "scenarios/"), ".json"))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Load returns the bundled scenario called name ("anthropic/parallel-tools").
func Load(name string) (*Scenario, error) {
	data, err := fixtures.Scenarios.ReadFile("scenarios/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("no scenario %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return Parse(name, data)
}

// All loads every bundled scenario, in name order.
func All() ([]*Scenario, error) {
	var out []*Scenario
	for _, n := range Names() {
		s, err := Load(n)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Parse reads a scenario file. name is "<provider>/<what>"; the provider
// picks the wire. Errors name the file and the line or JSON path at fault.
func Parse(name string, data []byte) (*Scenario, error) {
	where := name + ".json"
	provider, _, ok := strings.Cut(name, "/")
	if !ok {
		return nil, fmt.Errorf("%s: a scenario is named <provider>/<what>", where)
	}
	wire := engine.Wire(provider)
	if wire != engine.WireAnthropic {
		return nil, fmt.Errorf("%s: no simulator for provider %q yet (have anthropic)", where, provider)
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %s", where, describe(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: line %d: unexpected data after the scenario object", where, lineAt(data, int(dec.InputOffset())))
	}
	s := &Scenario{Name: name, Wire: wire, Description: f.Description, Model: f.Model, MaxTokens: f.MaxTokens, System: f.System, Prompt: f.Prompt}
	if s.Model == "" || s.Prompt == "" {
		return nil, fmt.Errorf("%s: model and prompt are required", where)
	}
	if len(f.Thinking) > 0 && string(f.Thinking) != "null" {
		var t struct {
			Type         string `json:"type"`
			BudgetTokens int    `json:"budget_tokens"`
		}
		if err := json.Unmarshal(f.Thinking, &t); err != nil || t.Type == "" {
			return nil, fmt.Errorf("%s: thinking: want an object with a type, got %s", where, f.Thinking)
		}
		s.Thinking = &engine.Thinking{Type: t.Type, BudgetTokens: t.BudgetTokens}
	}
	seen := map[string]bool{}
	for i, t := range f.Tools {
		if t.Name == "" || seen[t.Name] {
			return nil, fmt.Errorf("%s: tools[%d]: want a unique, non-empty name, got %q", where, i, t.Name)
		}
		seen[t.Name] = true
		s.Tools = append(s.Tools, Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Result: t.Result})
	}
	if len(f.Steps) == 0 {
		return nil, fmt.Errorf("%s: steps: a scenario needs at least one step", where)
	}
	for i, st := range f.Steps {
		step := Step{Content: st.Content, StopReason: st.StopReason, Usage: st.Usage}
		if err := checkStep(s, step, seen); err != nil {
			return nil, fmt.Errorf("%s: steps[%d].%v", where, i, err)
		}
		s.Steps = append(s.Steps, step)
	}
	return s, nil
}

// checkStep decodes the step the way a client would, with placeholders
// filled in, so a scenario cannot serve what the codec does not read.
func checkStep(s *Scenario, st Step, tools map[string]bool) error {
	if len(st.Content) == 0 {
		return errors.New("content: a step serves at least one block")
	}
	for j, raw := range st.Content {
		var b struct {
			Type      string  `json:"type"`
			Signature *string `json:"signature"`
			Data      *string `json:"data"`
			Name      string  `json:"name"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return fmt.Errorf("content[%d]: want a block object: %v", j, err)
		}
		switch {
		case b.Type == "thinking" && (b.Signature == nil || *b.Signature != Placeholder):
			return fmt.Errorf("content[%d].signature: want %q, which the simulator mints", j, Placeholder)
		case b.Type == "redacted_thinking" && (b.Data == nil || *b.Data != Placeholder):
			return fmt.Errorf("content[%d].data: want %q, which the simulator mints", j, Placeholder)
		case b.Type == "tool_use" && !tools[b.Name]:
			return fmt.Errorf("content[%d].name: tool %q is not among the scenario's tools", j, b.Name)
		}
	}
	filled := fillAll(st.Content)
	codec := providers.For(s.Wire)
	for _, body := range [][]byte{render(s, 0, st, filled), bytes.Join(stream(s, 0, st, filled), nil)} {
		resp, err := codec.DecodeResponse(http.StatusOK, nil, body)
		if err != nil {
			return fmt.Errorf("content: does not decode as a %s response: %v", s.Wire, err)
		}
		if resp.Stream != nil && (!resp.Stream.Complete || len(resp.Stream.Issues) > 0) {
			return fmt.Errorf("content: streams with issues %v", resp.Stream.Issues)
		}
		if len(resp.Output) != 1 || len(resp.Output[0].Blocks) != len(st.Content) {
			return fmt.Errorf("content: decodes to %d messages, not one with %d blocks", len(resp.Output), len(st.Content))
		}
	}
	return nil
}

// fillAll replaces every placeholder with a dummy token, for validation.
func fillAll(content []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(content))
	for i, c := range content {
		out[i] = bytes.Replace(c, []byte(`"`+Placeholder+`"`), []byte(`"x"`), 1)
	}
	return out
}

// Messages is the conversation a harness starts from: the system prompt
// (when the scenario has one) and the user's prompt.
func (s *Scenario) Messages() []engine.Message {
	var out []engine.Message
	if s.System != "" {
		out = append(out, engine.Message{Role: engine.RoleSystem, Blocks: []engine.Block{{Type: engine.BlockText, Text: s.System}}})
	}
	return append(out, engine.Message{Role: engine.RoleUser, Blocks: []engine.Block{{Type: engine.BlockText, Text: s.Prompt}}})
}

// describe turns a JSON decoding error into "line N: what".
func describe(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("line %d: %v", lineAt(data, int(syn.Offset)), err)
	case errors.As(err, &typ):
		return fmt.Sprintf("line %d: %s: want %s, got %s", lineAt(data, int(typ.Offset)), typ.Field, typ.Type, typ.Value)
	}
	return err.Error()
}

func lineAt(data []byte, offset int) int {
	if offset > len(data) {
		offset = len(data)
	}
	return 1 + bytes.Count(data[:offset], []byte("\n"))
}

// Definition is the tool as a harness registers it: its schema, and an
// Execute that returns the canned result whatever the arguments.
func (t Tool) Definition() engine.ToolDefinition {
	result := t.Result
	return engine.ToolDefinition{
		Name: t.Name, Description: t.Description, Schema: t.InputSchema,
		Execute: func(context.Context, json.RawMessage, engine.ToolContext) (engine.ToolExecutionResult, error) {
			return engine.ToolExecutionResult{Context: result}, nil
		},
	}
}

// Definitions is every tool of the scenario as a harness registers it.
func (s *Scenario) Definitions() []engine.ToolDefinition {
	out := make([]engine.ToolDefinition, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.Definition()
	}
	return out
}
