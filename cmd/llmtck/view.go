package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/view"
)

func newViewCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "view CASSETTE|FOLDER|-... -o FILE.html",
		Short: "Write recorded conversations and their findings as one HTML page",
		Long: `view checks the recordings (files or folders, as check reads them) and writes one
self-contained HTML page (no network, no external assets): a summary with the count of
each check's findings, then every call as chat turns — thinking and redacted thinking
folded with their signature sizes, tool calls joined to their results, ephemeral
content marked, streams with their events, the HTTP status — and each finding where
its JSON path points, with its diff and how to fix it. Open it in any browser.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("view: no CASSETTE given")
			}
			if out == "" {
				return usageErr("view: -o FILE.html is required (- for stdout)")
			}
			paths, fromStdin, err := stdinPaths(args, cmd.InOrStdin())
			if err != nil {
				return usageErr("view: %v", err)
			}
			defer removeStdin(fromStdin)
			rep, err := report.CheckPaths(paths, checks.All(), "")
			if err != nil {
				return usageErr("view: %v", err)
			}
			files := view.Load(rep) // reads the files, the one from stdin included
			nameStdin(rep, fromStdin)
			for i := range files {
				files[i].Report = rep.Files[i]
			}
			write := func(w io.Writer) error {
				return view.Write(w, "llmtck: "+strings.Join(args, " "), rep, files)
			}
			if out == "-" {
				return write(cmd.OutOrStdout())
			}
			if err := writeHTML(out, write); err != nil {
				return &exitError{code: 2, err: fmt.Errorf("view: %v", err)}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %s", out, rep.SummaryLine())
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the HTML file to write (- for stdout)")
	return cmd
}

// writeHTML writes what write writes to path, buffered.
func writeHTML(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
