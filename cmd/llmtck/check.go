package main

import (
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/view"
	"github.com/llmtck/llmtck/traffic"
	"github.com/spf13/cobra"
)

func newCheckCmd() *cobra.Command {
	var (
		format   string
		provider string
		only     []string
		skip     []string
		exclude  []string
		list     bool
	)
	cmd := &cobra.Command{
		Use:   "check [flags] PATH...  |  check --list",
		Short: "Check recorded traffic against the wire rules",
		Long: `check decodes every recording under PATH (files, or folders walked recursively; any
format import reads, detected from the content) and reports the findings.

Exit codes: 0 no error-level finding, 1 at least one error-level finding,
2 usage error or an input that cannot be read at all.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if list {
				if format != "text" && format != "json" {
					return usageErr("check: --list --format %q: the catalogue prints as text or json", format)
				}
				return writeCatalogue(cmd.OutOrStdout(), format)
			}
			if len(args) == 0 {
				return usageErr("check: no PATH given")
			}
			var wire traffic.Wire
			switch {
			case provider == "auto":
			case slices.Contains(providerNames, provider):
				wire = traffic.Wire(provider)
			default:
				return usageErr("check: --provider %q: want auto, %s", provider, strings.Join(providerNames, ", "))
			}
			if !slices.Contains(reportFormats, format) {
				return usageErr("check: --format %q: want %s", format, strings.Join(reportFormats, ", "))
			}
			selected, err := checks.Select(only, skip)
			if err != nil {
				return usageErr("check: %v", err)
			}
			paths, fromStdin, err := stdinPaths(args, cmd.InOrStdin())
			if err != nil {
				return usageErr("check: %v", err)
			}
			defer removeStdin(fromStdin)
			rep, err := report.CheckPaths(paths, selected, wire, exclude...)
			nameStdin(rep, fromStdin)
			if err != nil {
				return usageErr("check: %v", err)
			}
			out := cmd.OutOrStdout()
			switch format {
			case "json":
				err = rep.WriteJSON(out)
			case "junit":
				err = rep.WriteJUnit(out)
			case "sarif":
				err = rep.WriteSARIF(out, selected)
			case "github":
				err = rep.WriteGitHub(out)
			case "html":
				err = view.Write(out, "llmtck check "+strings.Join(args, " "), rep, view.Load(rep))
			default:
				err = rep.WriteText(out)
			}
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			switch {
			case rep.Unreadable():
				return &exitError{code: 2}
			case rep.Summary.Errors > 0:
				return &exitError{code: 1}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "report format: "+strings.Join(reportFormats, ", "))
	f.BoolVar(&list, "list", false, "print the check catalogue and exit (text or json)")
	f.StringVar(&provider, "provider", "auto", "wire of every call: auto, "+strings.Join(providerNames, ", "))
	f.StringSliceVar(&only, "only", nil, "run only checks whose ID matches one of these globs (ANT-THINK-*)")
	f.StringSliceVar(&skip, "skip", nil, "skip checks whose ID matches one of these globs")
	f.StringArrayVar(&exclude, "exclude", nil, "in folders, leave out files and folders whose path below the folder or name matches this glob (repeatable)")
	completeValues(cmd, "format", reportFormats...)
	completeValues(cmd, "provider", append([]string{"auto"}, providerNames...)...)
	return cmd
}

// reportFormats are check's --format values; providerNames the wires
// --provider forces.
var (
	reportFormats = []string{"text", "json", "junit", "sarif", "github", "html"}
	providerNames = []string{"anthropic", "openai", "responses", "gemini", "bedrock"}
)

// completeValues makes shell completion offer values for a flag.
func completeValues(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	})
}
