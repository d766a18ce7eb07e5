package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
)

func newExplainCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "explain ID...",
		Short: "Explain a check: its law, the provider's error, the evidence, and how to fix it",
		Long: `explain prints what a check ID in a finding, a report or an X-Llmtck-Finding
header means: the rule in one sentence, what the provider answers when it is
broken, where the refusal was observed (an error there, a warning elsewhere)
with its public sources, and what usually causes it and how to fix it.

  llmtck explain ANT-THINK-001 GEM-SIG-003

An unknown ID is a usage error (exit 2); llmtck check --list lists them all.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var cs []*check.Check
			for _, id := range args {
				c := checks.Lookup(strings.ToUpper(strings.TrimSpace(id)))
				if c == nil {
					return usageErr("explain: no check %q (llmtck check --list lists them)", id)
				}
				cs = append(cs, c)
			}
			for i, c := range cs {
				if i > 0 {
					fmt.Fprintln(cmd.OutOrStdout())
				}
				explain(cmd.OutOrStdout(), c)
			}
			return nil
		},
	}
}

// explain prints one check for a person who just met its ID.
func explain(w io.Writer, c *check.Check) {
	wire := string(c.Wire)
	if wire == "" {
		wire = "every wire"
	}
	fmt.Fprintf(w, "%s: %s\n", c.ID, c.Title)
	fmt.Fprintf(w, "severity: %s (%s), since %s\n", c.Severity, wire, c.Since)
	if c.Retired != "" {
		fmt.Fprintf(w, "retired: %s took its rule over; it no longer runs\n", c.Retired)
	}
	fmt.Fprintf(w, "\nlaw: %s\n", c.Law)
	if c.ProviderError != "" {
		fmt.Fprintf(w, "\nthe provider answers: %s\n", c.ProviderError)
	} else {
		fmt.Fprintf(w, "\nthe provider accepts the request and silently degrades.\n")
	}
	if len(c.Evidence.Sources) > 0 {
		fmt.Fprintf(w, "\nevidence: refused on %s", c.Evidence)
		if c.Evidence.Models != "" {
			fmt.Fprintf(w, " (%s)", c.Evidence.Models)
		}
		fmt.Fprintf(w, "; a warning on other endpoints\n")
		for _, s := range c.Evidence.Sources {
			fmt.Fprintf(w, "  - %s\n", s)
		}
	}
	if c.Troubleshoot != "" {
		fmt.Fprintf(w, "\nhow to fix: %s\n", c.Troubleshoot)
	}
}
