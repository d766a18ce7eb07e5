// Command llmtck records, replays and checks LLM provider traffic.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// exitError carries a specific exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

// usageErr marks err as a usage error (exit 2).
func usageErr(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// run executes the CLI and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int { return runIO(args, os.Stdin, stdout, stderr) }

// runIO is run reading stdin from in (check -).
func runIO(args []string, in io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "llmtck:", ee.err)
		}
		return ee.code
	}
	// Cobra's own errors are unknown flags and commands, bad arguments.
	fmt.Fprintln(stderr, "llmtck:", err)
	return 2
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "llmtck",
		Short:         "Record, replay and check LLM provider traffic",
		Long:          "llmtck records LLM provider traffic into cassettes, replays it offline, and checks it against the providers' wire rules turn after turn.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetVersionTemplate("llmtck {{.Version}}\n")
	root.AddCommand(newCheckCmd(), newImportCmd())
	root.AddCommand(newScenariosCmd(), newViewCmd(), newRedactCmd(), newTestCmd(), newExplainCmd())
	addServerCommands(root)
	addExamples(root)
	addCompletions(root)
	return root
}
