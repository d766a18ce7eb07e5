// Package scenario reads the scripted conversations the simulated providers
// serve, and renders their steps as each wire's responses, minting the
// opaque tokens (signatures, redacted data, encrypted reasoning) that a
// harness must echo and verifying them when it does.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/fixtures"
	"github.com/llmtck/llmtck/traffic"
)

// Placeholder stands for a signature, redacted data or encrypted content in
// a scenario file; the simulator mints the real token when it serves the
// step.
const Placeholder = "{{mint}}"

// Scenario is one scripted conversation: the tools the harness registers
// with their canned results, and the user's turns, each with the responses
// the simulator serves, step by step.
type Scenario struct {
	Name        string       // "<provider>/<what>", from the file's path
	Wire        traffic.Wire // the provider of the first turn
	Description string
	MaxTokens   int
	Thinking    *traffic.Thinking // nil: thinking off
	System      string
	Tools       []Tool
	Turns       []Turn
	// Steps are every turn's steps in the order they are served.
	Steps []Step
}

// Turn is one user message and the model calls it leads to.
type Turn struct {
	Wire   traffic.Wire // the provider this turn talks to
	Model  string
	Prompt string
	// Compact, when set, is the summary that replaces the history before
	// this turn's prompt (a compaction step). The system prompt stays.
	Compact string
	// OutputSchema, when set, is the JSON Schema the turn's final answer
	// must match; an answer that does not is retried with Feedback sent as
	// an ephemeral user message, which is never persisted.
	OutputSchema json.RawMessage
	Feedback     string
	Steps        []Step
}

// Tool is a tool the harness registers, with the result it returns whatever
// its arguments.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	Result      string
	// Cancel makes the tool block until the user cancels it: calling it
	// presses stop, and it returns only when the harness cancels it.
	Cancel bool
}

// Step is one response the simulator serves, in its wire's own format: the
// content blocks (Anthropic), output items (Responses), parts (Gemini) or
// the one assistant message (Chat Completions). Opaque tokens hold
// Placeholder.
type Step struct {
	Turn       int // index in Turns
	Wire       traffic.Wire
	Model      string
	Content    []json.RawMessage
	StopReason string          // "" means the wire's tool-call reason when the step calls a tool, else its normal end
	Usage      json.RawMessage // the wire's usage object; nil means zeros
	// AbortAfter > 0 makes the user press stop after that many parts of
	// the response (stream events; the whole body counts as one) were sent.
	AbortAfter int
	// Faults are failed attempts served, in order, before the answer: a
	// harness that retries gets the same step again.
	Faults []ProviderFault
}

// file is a scenario file's JSON layout. A scenario with one turn may give
// its prompt and steps at the top level.
type file struct {
	Description string          `json:"description"`
	Model       string          `json:"model"`
	MaxTokens   int             `json:"max_tokens"`
	Thinking    json.RawMessage `json:"thinking"`
	System      string          `json:"system"`
	Tools       []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
		Result      string          `json:"result"`
		Cancel      bool            `json:"cancel"`
	} `json:"tools"`
	Prompt string     `json:"prompt"`
	Steps  []fileStep `json:"steps"`
	Turns  []fileTurn `json:"turns"`
}

type fileTurn struct {
	Provider     string          `json:"provider"`
	Model        string          `json:"model"`
	Prompt       string          `json:"prompt"`
	Compact      string          `json:"compact"`
	OutputSchema json.RawMessage `json:"output_schema"`
	Feedback     string          `json:"feedback"`
	Steps        []fileStep      `json:"steps"`
}

type fileStep struct {
	Content    []json.RawMessage `json:"content"`
	StopReason string            `json:"stop_reason"`
	Usage      json.RawMessage   `json:"usage"`
	AbortAfter int               `json:"abort_after"`
	Faults     []ProviderFault   `json:"faults"`
}

// FromFS loads every <provider>/<what>.json of fsys, in name order.
func FromFS(fsys fs.FS) ([]*Scenario, error) {
	var out []*Scenario
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sc, err := Parse(strings.TrimSuffix(p, ".json"), data)
		if err != nil {
			return err
		}
		out = append(out, sc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no <provider>/<what>.json scenario file found")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
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
// is the first turn's wire. Errors name the file and the line or JSON path
// at fault.
func Parse(name string, data []byte) (*Scenario, error) {
	where := name + ".json"
	provider, _, ok := strings.Cut(name, "/")
	if !ok {
		return nil, fmt.Errorf("%s: a scenario is named <provider>/<what>", where)
	}
	if wires[traffic.Wire(provider)] == nil {
		return nil, fmt.Errorf("%s: no simulator for provider %q (have %s)", where, provider, strings.Join(wireNames(), ", "))
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
	s := &Scenario{Name: name, Wire: traffic.Wire(provider), Description: f.Description, MaxTokens: f.MaxTokens, System: f.System}
	if len(f.Thinking) > 0 && string(f.Thinking) != "null" {
		var t struct {
			Type         string `json:"type"`
			BudgetTokens int    `json:"budget_tokens"`
		}
		if err := json.Unmarshal(f.Thinking, &t); err != nil || t.Type == "" {
			return nil, fmt.Errorf("%s: thinking: want an object with a type, got %s", where, f.Thinking)
		}
		s.Thinking = &traffic.Thinking{Type: t.Type, BudgetTokens: t.BudgetTokens}
	}
	seen := map[string]bool{}
	for i, t := range f.Tools {
		if t.Name == "" || seen[t.Name] {
			return nil, fmt.Errorf("%s: tools[%d]: want a unique, non-empty name, got %q", where, i, t.Name)
		}
		seen[t.Name] = true
		s.Tools = append(s.Tools, Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Result: t.Result, Cancel: t.Cancel})
	}
	turns, prefix := f.Turns, "turns"
	switch {
	case len(f.Turns) > 0 && (f.Prompt != "" || len(f.Steps) > 0):
		return nil, fmt.Errorf("%s: give prompt and steps at the top level or turns, not both", where)
	case len(f.Turns) == 0:
		turns, prefix = []fileTurn{{Prompt: f.Prompt, Steps: f.Steps}}, ""
	}
	for i, ft := range turns {
		at := fmt.Sprintf("%s[%d].", prefix, i)
		if prefix == "" {
			at = ""
		}
		t, err := s.turn(i, ft, f.Model, seen)
		if err != nil {
			return nil, fmt.Errorf("%s: %s%v", where, at, err)
		}
		s.Turns = append(s.Turns, t)
		s.Steps = append(s.Steps, t.Steps...)
	}
	return s, nil
}

// turn reads turn i; model is the scenario's model, which a turn on the
// first turn's provider inherits.
func (s *Scenario) turn(i int, ft fileTurn, model string, tools map[string]bool) (Turn, error) {
	t := Turn{Wire: s.Wire, Model: ft.Model, Prompt: ft.Prompt, Compact: ft.Compact, OutputSchema: ft.OutputSchema, Feedback: ft.Feedback}
	if ft.Provider != "" {
		t.Wire = traffic.Wire(ft.Provider)
		if wires[t.Wire] == nil {
			return t, fmt.Errorf("provider: no simulator for %q (have %s)", ft.Provider, strings.Join(wireNames(), ", "))
		}
	}
	if t.Model == "" && t.Wire == s.Wire {
		t.Model = model
	}
	switch {
	case t.Model == "" || t.Prompt == "":
		return t, errors.New("model and prompt are required")
	case (len(t.OutputSchema) > 0) != (t.Feedback != ""):
		return t, errors.New("output_schema and feedback go together")
	case len(ft.Steps) == 0:
		return t, errors.New("steps: a scenario needs at least one step")
	case i == 0 && t.Compact != "":
		return t, errors.New("compact: the first turn has no history to compact")
	}
	w := wires[t.Wire]
	for j, fs := range ft.Steps {
		st := Step{Turn: i, Wire: t.Wire, Model: t.Model, Content: fs.Content, StopReason: fs.StopReason, Usage: fs.Usage, AbortAfter: fs.AbortAfter, Faults: fs.Faults}
		if len(st.Content) == 0 {
			return t, fmt.Errorf("steps[%d].content: a step serves at least one item", j)
		}
		if fs.AbortAfter < 0 {
			return t, fmt.Errorf("steps[%d].abort_after: want a count of parts, got %d", j, fs.AbortAfter)
		}
		for k, f := range fs.Faults {
			if err := f.check(); err != nil {
				return t, fmt.Errorf("steps[%d].faults[%d].%v", j, k, err)
			}
		}
		if err := w.checkStep(s, st, tools); err != nil {
			return t, fmt.Errorf("steps[%d].%v", j, err)
		}
		t.Steps = append(t.Steps, st)
	}
	return t, nil
}

// Wires lists the providers the scenario talks to, first turn's first.
func (s *Scenario) Wires() []traffic.Wire {
	var out []traffic.Wire
	for _, t := range s.Turns {
		if !containsWire(out, t.Wire) {
			out = append(out, t.Wire)
		}
	}
	return out
}

// Requires lists what a harness must support to play the scenario: its
// providers, then "cancel" (a tool or stream is cancelled), "stream" (a
// response is cut mid-stream), "ephemeral" (an answer is retried with
// ephemeral feedback), "compaction" and "retry" (a call fails and must be
// retried).
func (s *Scenario) Requires() []string {
	var out []string
	for _, w := range s.Wires() {
		out = append(out, string(w))
	}
	add := func(c string) {
		for _, o := range out {
			if o == c {
				return
			}
		}
		out = append(out, c)
	}
	for _, t := range s.Tools {
		if t.Cancel {
			add("cancel")
		}
	}
	for _, st := range s.Steps {
		if st.AbortAfter > 0 {
			add("cancel")
			add("stream")
		}
		if len(st.Faults) > 0 {
			add("retry")
		}
	}
	for _, t := range s.Turns {
		if t.Feedback != "" {
			add("ephemeral")
		}
		if t.Compact != "" {
			add("compaction")
		}
	}
	return out
}

// Capabilities are the names Requires uses besides provider names.
var Capabilities = []string{"cancel", "stream", "ephemeral", "compaction", "retry"}

// Tool returns the tool called name.
func (s *Scenario) Tool(name string) (Tool, bool) {
	for _, t := range s.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

func containsWire(ws []traffic.Wire, w traffic.Wire) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
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
	// encoding/json names an unknown field but not where it is: find the
	// key in the file.
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if key, uerr := strconv.Unquote(name); uerr == nil {
			if i := keyOffset(data, key); i >= 0 {
				return fmt.Sprintf("line %d: unknown field %q (see fixtures/scenarios/README.md for the format)", lineAt(data, i), key)
			}
		}
	}
	return err.Error()
}

// keyOffset is where "key" first appears as an object key in data, or -1.
func keyOffset(data []byte, key string) int {
	re := regexp.MustCompile(`"` + regexp.QuoteMeta(key) + `"\s*:`)
	if at := re.FindIndex(data); at != nil {
		return at[0]
	}
	return -1
}

func lineAt(data []byte, offset int) int {
	if offset > len(data) {
		offset = len(data)
	}
	return 1 + bytes.Count(data[:offset], []byte("\n"))
}
