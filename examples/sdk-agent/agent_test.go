package sdkagent_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance"
	sdkagent "github.com/llmtck/llmtck/examples/sdk-agent"
)

// capabilities are what the agent supports: every bundled scenario but
// Bedrock's runs.
var capabilities = conformance.Capabilities("anthropic", "openai", "responses", "gemini", "cancel", "stream", "ephemeral", "compaction")

// harness plays a session with an agent of the given options and defects;
// title sends a title request before the first turn.
func harness(opts sdkagent.Options, defects sdkagent.Defects, title bool) conformance.Harness {
	return func(t *testing.T, s *conformance.Session) {
		a := &sdkagent.Agent{
			BaseURL: map[string]string{
				sdkagent.Anthropic: s.BaseURL("anthropic"), sdkagent.Chat: s.BaseURL("openai"),
				sdkagent.Responses: s.BaseURL("responses"), sdkagent.Gemini: s.BaseURL("gemini"),
			},
			APIKey: "test-key", System: s.System, MaxTokens: s.MaxTokens,
			Store:   filepath.Join(t.TempDir(), "conversation.json"),
			Options: opts, Defects: defects,
		}
		if s.Thinking != nil {
			a.ThinkingBudget = s.Thinking.BudgetTokens
		}
		for _, tool := range s.Tools {
			a.Tools = append(a.Tools, sdkagent.Tool{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema, Run: tool.Call})
		}
		for i, turn := range s.Turns {
			tt := sdkagent.Turn{Provider: string(turn.Provider), Model: turn.Model, Prompt: turn.Prompt, Compact: turn.Compact, Feedback: turn.Feedback}
			if len(turn.OutputSchema) > 0 {
				tt.Valid = turn.Valid
			}
			if title && i == 0 {
				if _, err := a.Title(t.Context(), tt); err != nil {
					t.Fatal(err)
				}
			}
			// The scenario's user may press stop: cancel this turn then.
			ctx, cancel := context.WithCancel(t.Context())
			s.OnCancel(cancel)
			_, err := a.Ask(ctx, tt)
			cancel()
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
		}
	}
}

// TestConformance plays every bundled scenario the agent supports against
// simulated providers.
func TestConformance(t *testing.T) {
	conformance.Run(t, harness(sdkagent.Options{}, sdkagent.Defects{}, false), capabilities)
}

// TestCorrectVariants: other behaviours that are just as correct pass too;
// the kit must not refuse any of them.
func TestCorrectVariants(t *testing.T) {
	for _, v := range []struct {
		name  string
		opts  sdkagent.Options
		title bool
	}{
		{name: "undo-aborted-turn", opts: sdkagent.Options{UndoAbortedTurn: true}},
		{name: "feedback-in-prompt", opts: sdkagent.Options{FeedbackInPrompt: true}},
		{name: "compaction-acknowledged", opts: sdkagent.Options{AckCompaction: true}},
		{name: "title-first", title: true},
		{name: "interrupted-answer-kept-and-marked", opts: sdkagent.Options{KeepInterrupted: true}},
	} {
		t.Run(v.name, func(t *testing.T) {
			conformance.Run(t, harness(v.opts, sdkagent.Defects{}, v.title), capabilities)
		})
	}
}

// defects are the bugs harnesses ship and, for each, the scenario and
// check that must fail with it.
var defects = map[string]struct {
	defects sdkagent.Defects
	fails   []string // "<scenario>/<check ID>" subtests that must fail
}{
	"trim-thinking":            {sdkagent.Defects{TrimThinking: true}, []string{"anthropic/thinking-tool-loop/ANT-THINK-001"}},
	"keep-partial":             {sdkagent.Defects{KeepPartial: true}, []string{"anthropic/aborted-stream/ANT-CANCEL-002"}},
	"keep-reasoning-on-switch": {sdkagent.Defects{KeepReasoningOnSwitch: true}, []string{"responses/model-switch/OAI-RSN-005"}},
	"drop-empty-parts":         {sdkagent.Defects{DropEmptyParts: true}, []string{"gemini/follow-up/GEM-SIG-004"}},
	"map-input":                {sdkagent.Defects{MapInput: true}, []string{"anthropic/thinking-tool-loop/ANT-TOOL-005", "openai/tool-loop/OAI-TOOL-003"}},
	// Gemini reads consecutive function response contents as one turn
	// (GEM-TOOL-002's evidence: crewAI's split responses got a 200), so
	// only Anthropic's wire refuses split results.
	"split-results": {sdkagent.Defects{SplitResults: true}, []string{"anthropic/parallel-tools/ANT-TOOL-001"}},
}

// defectEnv names the defect TestDefectChild plays when the test binary
// runs itself: a failing conformance.Run can only be watched from outside.
const defectEnv = "SDKAGENT_DEFECT"

// TestDefects: each shipped defect fails the scenario and check that
// exist to catch it.
func TestDefects(t *testing.T) {
	for name, d := range defects {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestDefectChild$")
			cmd.Env = append(os.Environ(), defectEnv+"="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the agent with defect %s passed every scenario:\n%s", name, out)
			}
			for _, f := range d.fails {
				if !strings.Contains(string(out), "--- FAIL: TestDefectChild/"+f+" ") {
					t.Errorf("defect %s did not fail %s:\n%s", name, f, out)
				}
			}
		})
	}
}

// TestDefectChild plays the defect named by SDKAGENT_DEFECT; skipped
// otherwise.
func TestDefectChild(t *testing.T) {
	name := os.Getenv(defectEnv)
	if name == "" {
		t.Skip("run by TestDefects")
	}
	conformance.Run(t, harness(sdkagent.Options{}, defects[name].defects, false), capabilities)
}
