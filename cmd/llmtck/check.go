package main

import (
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/engine"
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
				return writeCatalogue(cmd.OutOrStdout(), format)
			}
			if len(args) == 0 {
				return usageErr("check: no PATH given")
			}
			var wire engine.Wire
			switch provider {
			case "auto":
			case "anthropic", "openai", "responses", "gemini":
				wire = engine.Wire(provider)
			default:
				return usageErr("check: --provider %q: want auto, anthropic, openai, responses or gemini", provider)
			}
			if format != "text" && format != "json" && format != "junit" {
				return usageErr("check: --format %q: want text, json or junit", format)
			}
			selected, err := checks.Select(only, skip)
			if err != nil {
				return usageErr("check: %v", err)
			}
			rep, err := report.CheckPaths(args, selected, wire, exclude...)
			if err != nil {
				return usageErr("check: %v", err)
			}
			out := cmd.OutOrStdout()
			switch format {
			case "json":
				err = rep.WriteJSON(out)
			case "junit":
				err = rep.WriteJUnit(out)
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
	f.StringVar(&format, "format", "text", "report format: text, json or junit")
	f.BoolVar(&list, "list", false, "print the check catalogue and exit (text or json)")
	f.StringVar(&provider, "provider", "auto", "wire of every call: auto, anthropic, openai, responses or gemini")
	f.StringSliceVar(&only, "only", nil, "run only checks whose ID matches one of these globs (ANT-THINK-*)")
	f.StringSliceVar(&skip, "skip", nil, "skip checks whose ID matches one of these globs")
	f.StringArrayVar(&exclude, "exclude", nil, "in folders, leave out files and folders whose path below the folder or name matches this glob (repeatable)")
	return cmd
}
