package explore

import (
	"bytes"
	"encoding/json"

	"github.com/llmtck/llmtck/conformance/scenario"
)

// File is a scenario in the JSON form of fixtures/scenarios, as the
// generator and the shrinker write it.
type File struct {
	Name        string          `json:"-"` // "<wire>/<what>"
	Description string          `json:"description"`
	Model       string          `json:"model"`
	MaxTokens   int             `json:"max_tokens,omitempty"`
	Thinking    json.RawMessage `json:"thinking,omitempty"`
	System      string          `json:"system,omitempty"`
	Tools       []fileTool      `json:"tools,omitempty"`
	Turns       []fileTurn      `json:"turns"`
	// Replay is the command that plays the file again, for a regression
	// file the shrinker wrote; Parse ignores it.
	Replay string `json:"-"`
}

type fileTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	Result      string          `json:"result"`
	Cancel      bool            `json:"cancel,omitempty"`
}

type fileTurn struct {
	Provider     string          `json:"provider,omitempty"`
	Model        string          `json:"model,omitempty"`
	Prompt       string          `json:"prompt"`
	Compact      string          `json:"compact,omitempty"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	Feedback     string          `json:"feedback,omitempty"`
	Steps        []fileStep      `json:"steps"`
}

type fileStep struct {
	Content    []json.RawMessage        `json:"content"`
	StopReason string                   `json:"stop_reason,omitempty"`
	AbortAfter int                      `json:"abort_after,omitempty"`
	Faults     []scenario.ProviderFault `json:"faults,omitempty"`
}

// JSON is the file's bytes: indented, HTML characters as they are.
func (f *File) JSON() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		panic(err) // only raw JSON the generator wrote, which is valid
	}
	return buf.Bytes()
}

// Scenario parses the file as the simulator reads any scenario file.
func (f *File) Scenario() (*scenario.Scenario, error) { return scenario.Parse(f.Name, f.JSON()) }

// clone is a deep enough copy of f for the shrinker to edit.
func (f *File) clone() *File {
	out := *f
	out.Tools = append([]fileTool(nil), f.Tools...)
	out.Turns = make([]fileTurn, len(f.Turns))
	for i, t := range f.Turns {
		t.Steps = append([]fileStep(nil), t.Steps...)
		for j := range t.Steps {
			t.Steps[j].Content = append([]json.RawMessage(nil), t.Steps[j].Content...)
			t.Steps[j].Faults = append([]scenario.ProviderFault(nil), t.Steps[j].Faults...)
		}
		out.Turns[i] = t
	}
	return &out
}
