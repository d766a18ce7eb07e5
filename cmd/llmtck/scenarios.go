package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/sim"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/engine/harness"
)

func newScenariosCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios [list | export DIR]",
		Short: "List the bundled scenarios, or export them as cassettes",
		Long: `scenarios lists the scripted conversations the simulator serves, one per line:
the name (<provider>/<what>), a tab, the number of steps, a tab, what it proves.

scenarios export DIR runs the reference harness through each scenario against
the simulator on a loopback port and writes what it exchanged as a cassette,
DIR/<provider>/<what>.yaml, with the signatures the simulator minted.`,
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
		Short: "Write each scenario, as the reference harness plays it, as a cassette under DIR",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := sim.All()
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

func listScenarios(cmd *cobra.Command) error {
	all, err := sim.All()
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	for _, sc := range all {
		fmt.Fprintf(cmd.OutOrStdout(), "%s\t%d steps\t%s\n", sc.Name, len(sc.Steps), sc.Description)
	}
	return nil
}

// exportScenario plays sc with the reference harness against the simulator
// over loopback HTTP and writes the traffic to path. A harness the
// simulator rejects, or a run that stops short, writes nothing.
func exportScenario(ctx context.Context, sc *sim.Scenario, path string) error {
	srv := sim.New(sc, sim.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: time.Minute}
	go hs.Serve(ln)
	defer hs.Close()
	h, err := harness.New(harness.Config{BaseURL: "http://" + ln.Addr().String(), Wire: sc.Wire, Model: sc.Model,
		MaxTokens: sc.MaxTokens, Stream: true, Thinking: sc.Thinking})
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	run, err := h.Start(ctx, harness.Params{Messages: sc.Messages(), Tools: sc.Definitions(), MaxIterations: len(sc.Steps) + 1})
	if err != nil {
		return err
	}
	var failed error
	for ev := range run.Events() {
		switch ev := ev.(type) {
		case engine.RelayEvent:
			ev.Respond(engine.PermissionResponse{Approved: true})
		case engine.ErrorEvent:
			failed = ev.Err
		}
	}
	if rj := srv.Rejections(); len(rj) > 0 {
		return fmt.Errorf("the simulator rejected the reference harness: %v", rj[0])
	}
	if failed != nil || !srv.Done() {
		return fmt.Errorf("the reference harness stopped after %d of %d steps: %v", srv.Served(), len(sc.Steps), failed)
	}
	return srv.WriteCassette(path)
}
