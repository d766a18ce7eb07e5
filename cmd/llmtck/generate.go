package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/explore"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/traffic"
)

func newScenarioGenerateCmd() *cobra.Command {
	var wire, faults string
	var seed uint64
	cmd := &cobra.Command{
		Use:   "generate --wire W --seed N [--faults LIST]",
		Short: "Print the scenario explore generates from a seed, as a scenario file",
		Long: `generate prints the scenario conformance.Explore plays for the seed on the
wire, in the format of fixtures/scenarios/README.md. --faults narrows the
provider faults drawn (comma-separated: rate_limit, overloaded, server_error,
stream_error, dropped; "none" for none). Save it as <wire>-<seed>.json and
llmtck replay --scenario FILE.json serves it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := explore.Options{}
			if faults != "" {
				o.Faults = []scenario.FaultKind{}
				for _, k := range strings.Split(faults, ",") {
					if k = strings.TrimSpace(k); k == "none" || k == "" {
						continue
					}
					kind := scenario.FaultKind(k)
					known := false
					for _, x := range scenario.FaultKinds {
						known = known || x == kind
					}
					if !known {
						return usageErr("scenarios generate: --faults: %q is not one of %v", k, scenario.FaultKinds)
					}
					o.Faults = append(o.Faults, kind)
				}
			}
			f, err := explore.Generate(traffic.Wire(wire), seed, o)
			if err != nil {
				return usageErr("scenarios generate: %v", err)
			}
			_, err = cmd.OutOrStdout().Write(f.JSON())
			return err
		},
	}
	cmd.Flags().StringVar(&wire, "wire", "", "the wire: anthropic, openai, responses, gemini or bedrock")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the seed")
	cmd.Flags().StringVar(&faults, "faults", "", "fault kinds to draw from, comma-separated (default: all)")
	cmd.MarkFlagRequired("wire")
	return cmd
}
