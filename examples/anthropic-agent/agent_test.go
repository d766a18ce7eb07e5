package agent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	agent "github.com/llmtck/llmtck/examples/anthropic-agent"

	"github.com/llmtck/llmtck/conformance"
)

// TestConformance plays every bundled Anthropic scenario with the agent
// against simulated providers: each scenario, and each check within it, is
// a subtest (go test -run 'TestConformance/anthropic/parallel-tools/ANT-TOOL').
func TestConformance(t *testing.T) {
	conformance.Run(t, func(t *testing.T, s *conformance.Session) {
		a := &agent.Agent{
			Client:    anthropic.NewClient(option.WithBaseURL(s.BaseURL("anthropic")), option.WithAPIKey("sk-ant-test")),
			System:    s.System,
			MaxTokens: s.MaxTokens,
		}
		if s.Thinking != nil {
			a.ThinkingBudget = s.Thinking.BudgetTokens
		}
		for _, tool := range s.Tools {
			a.Tools = append(a.Tools, agent.Tool{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema, Run: tool.Call})
		}
		for _, turn := range s.Turns {
			a.Model = turn.Model
			// The scenario's user may press stop: cancel this turn then.
			ctx, cancel := context.WithCancel(t.Context())
			s.OnCancel(cancel)
			_, err := a.Ask(ctx, turn.Prompt)
			cancel()
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
		}
	},
		// What the agent supports: scenarios that need more (streaming,
		// ephemeral retries, compaction, other providers) skip, saying why.
		conformance.Capabilities("anthropic", "cancel"),
	)
}
