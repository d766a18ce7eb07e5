package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/fixtures"
	"github.com/llmtck/llmtck/reference"
)

func newScenariosCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios [list | show NAME [--json] | export DIR | generate --wire W --seed N [--faults LIST]]",
		Short: "List the bundled scenarios, or export them as cassettes",
		Long: `scenarios lists the scripted conversations the simulator serves, one per line:
the name (<provider>/<what>), then tab-separated the number of steps, what a
harness must support to play it (providers and features such as cancel), and
what it proves.

scenarios export DIR plays each scenario with the reference engine against the
simulated providers on loopback ports and writes what they exchanged as a
cassette, DIR/<provider>/<what>.yaml, with the tokens the simulator minted.
llmtck check DIR passes on the result.

scenarios show NAME prints a scenario's turns, tools and expected steps; with
--json, the scenario file itself (format: fixtures/scenarios/README.md), for a
harness in another language to read.

llmtck replay --scenario NAME serves one for a harness in any language.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return listScenarios(cmd) },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the bundled scenarios, one per line, name first",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return listScenarios(cmd) },
	}, newScenarioShowCmd(), newScenarioGenerateCmd(), &cobra.Command{
		Use:   "export DIR",
		Short: "Write each scenario, as the reference engine plays it, as a cassette under DIR",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := scenario.All()
			if err != nil {
				return &exitError{code: 1, err: err}
			}
			for _, sc := range all {
				path := filepath.Join(args[0], filepath.FromSlash(sc.Name)+".yaml")
				if err := exportScenario(cmd.Context(), sc, path); err != nil {
					return &exitError{code: 1, err: fmt.Errorf("%s: %w", sc.Name, err)}
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\n", sc.Name, path)
			}
			return nil
		},
	})
	return cmd
}

// listScenarios prints name, steps, requirements and description, one
// scenario per line.
func listScenarios(cmd *cobra.Command) error {
	all, err := scenario.All()
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	for _, sc := range all {
		fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\trequires %s\t%s\n", sc.Name, count(len(sc.Steps), "step"), strings.Join(sc.Requires(), ","), sc.Description)
	}
	return nil
}

// exportScenario plays sc with the reference engine against the simulator
// over loopback HTTP and writes the traffic to path. A run the simulator
// refused, or one that stops short, writes nothing.
func exportScenario(ctx context.Context, sc *scenario.Scenario, path string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	sim, err := simulator.Play(sc, func(s *simulator.Session) error {
		return reference.Play(ctx, s, reference.Options{Stream: true})
	})
	if err != nil {
		return fmt.Errorf("the reference engine failed: %w", err)
	}
	if rj := sim.Rejections(); len(rj) > 0 {
		return fmt.Errorf("the simulator refused the reference engine: %v", rj[0])
	}
	if !sim.Done() {
		return fmt.Errorf("the reference engine stopped after %d of %d steps", sim.Served(), len(sc.Steps))
	}
	return sim.WriteCassette(path)
}

func newScenarioShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME [--json]",
		Short: "Print a scenario's turns, tools and expected steps",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sc, err := scenario.Load(args[0])
			if err != nil {
				return usageErr("scenarios show: %v", err)
			}
			if asJSON {
				data, err := fixtures.Scenarios.ReadFile("scenarios/" + sc.Name + ".json")
				if err != nil {
					return &exitError{code: 1, err: err}
				}
				_, err = cmd.OutOrStdout().Write(data)
				return err
			}
			showScenario(cmd.OutOrStdout(), sc)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the scenario file itself")
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return scenario.Names(), cobra.ShellCompDirectiveNoFileComp
	}
	return cmd
}

// showScenario prints sc for people: what it proves, its tools, then each
// turn with the steps the simulator answers it with.
func showScenario(w io.Writer, sc *scenario.Scenario) {
	fmt.Fprintf(w, "%s: %s\n", sc.Name, sc.Description)
	fmt.Fprintf(w, "requires: %s\n", strings.Join(sc.Requires(), ", "))
	if sc.System != "" {
		fmt.Fprintf(w, "system: %s\n", sc.System)
	}
	if sc.Thinking != nil {
		fmt.Fprintf(w, "thinking: %s (budget %d)\n", sc.Thinking.Type, sc.Thinking.BudgetTokens)
	}
	for _, t := range sc.Tools {
		cancel := ""
		if t.Cancel {
			cancel = " (the user cancels while it runs)"
		}
		fmt.Fprintf(w, "tool %s%s: %s\n  input schema: %s\n  returns: %s\n", t.Name, cancel, t.Description, t.InputSchema, t.Result)
	}
	for i, turn := range sc.Turns {
		fmt.Fprintf(w, "turn %d (%s, %s): %s\n", i+1, turn.Wire, turn.Model, turn.Prompt)
		if turn.Compact != "" {
			fmt.Fprintf(w, "  first compacts the history to: %s\n", turn.Compact)
		}
		if len(turn.OutputSchema) > 0 {
			fmt.Fprintf(w, "  answer must match %s; else retried once with the ephemeral feedback: %s\n", turn.OutputSchema, turn.Feedback)
		}
		for j, st := range turn.Steps {
			abort := ""
			if st.AbortAfter > 0 {
				abort = fmt.Sprintf(" (the user stops it after %d events)", st.AbortAfter)
			}
			fmt.Fprintf(w, "  step %d%s:\n", j+1, abort)
			for _, c := range st.Content {
				fmt.Fprintf(w, "    %s\n", c)
			}
		}
	}
}
