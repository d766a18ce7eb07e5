package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
)

func newScenariosCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios [list | export DIR]",
		Short: "List the bundled scenarios, or export them as cassettes",
		Long: `scenarios lists the scripted conversations the simulator serves, one per line:
the name (<provider>/<what>), then tab-separated the number of steps, what a
harness must support to play it (providers and features such as cancel), and
what it proves.

scenarios export DIR plays each scenario with the reference engine against the
simulated providers on loopback ports and writes what they exchanged as a
cassette, DIR/<provider>/<what>.yaml, with the tokens the simulator minted.
llmtck check DIR passes on the result.

llmtck replay --scenario NAME serves one for a harness in any language.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return listScenarios(cmd) },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the bundled scenarios, one per line, name first",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return listScenarios(cmd) },
	}, &cobra.Command{
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
		fmt.Fprintf(cmd.OutOrStdout(), "%s\t%d steps\trequires %s\t%s\n", sc.Name, len(sc.Steps), strings.Join(sc.Requires(), ","), sc.Description)
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
