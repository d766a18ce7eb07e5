package main

import (
	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/checks"
)

// addCompletions makes shell completion offer the values flags and
// arguments take where the commands' own files do not: proxy modes and
// check IDs (which --only, --skip and explain take).
func addCompletions(root *cobra.Command) {
	ids := func() []string {
		var out []string
		for _, c := range checks.All() {
			out = append(out, c.ID)
		}
		return out
	}
	for _, c := range root.Commands() {
		switch c.Name() {
		case "proxy":
			completeValues(c, "mode", "record", "replay", "auto", "passthrough")
			completeValues(c, "timing", "instant", "recorded", "scale=")
		case "check":
			for _, flag := range []string{"only", "skip"} {
				_ = c.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
					return ids(), cobra.ShellCompDirectiveNoFileComp
				})
			}
		case "explain":
			c.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return ids(), cobra.ShellCompDirectiveNoFileComp
			}
		}
	}
}
