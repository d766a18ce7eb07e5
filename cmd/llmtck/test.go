package main

import (
	"fmt"
	"os"
	"os/signal"
	"path"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/runner"
	"github.com/llmtck/llmtck/conformance/scenario"
)

const testLong = `test plays conformance scenarios against a harness command in any language: for
each scenario it serves the simulated providers on a loopback port, runs CMD
with their base URL in the environment, judges every request by the providers'
rules, and reports each scenario: PASS, or FAIL with why, the provider error the
harness was answered with and the end of its output.

  llmtck test -- python3 my_harness.py
  llmtck test --scenarios 'anthropic/*' --shard 2/4 --format junit -- npm run conformance

Which scenarios: every bundled one (llmtck scenarios list), or those --scenarios
selects. A GLOB matching bundled names ("anthropic/*") picks those; a GLOB
matching files (testdata/scenarios/*/*.json, or a folder of <provider>/<what>.json)
plays your own (format: llmtck scenarios show NAME --json). --shard K/N keeps the
scenarios whose name hashes to shard K of N, so a CI matrix of N jobs plays each
once. --explore N --seed S adds N generated scenarios per wire from seed S on
(conversations with thinking, tool calls, stops and provider faults; see
llmtck scenarios generate).

What CMD is given (the protocol: docs/harness-protocol.md):
  ANTHROPIC_BASE_URL               http://127.0.0.1:PORT        (POST /v1/messages)
  OPENAI_BASE_URL                  http://127.0.0.1:PORT/v1     (/chat/completions, /responses)
  GOOGLE_GEMINI_BASE_URL           http://127.0.0.1:PORT        (/v1beta/models/M:generateContent,
                                                                 :streamGenerateContent?alt=sse)
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME http://127.0.0.1:PORT        (/model/M/converse, /converse-stream)
  LLMTCK_BASE_URL                  http://127.0.0.1:PORT
  LLMTCK_SCENARIO                  the scenario file's path (JSON)
  LLMTCK_SCENARIO_NAME             <provider>/<what>
  placeholder API keys and AWS credentials (real ones are not passed on)
HTTP/1.1 and HTTP/2 cleartext are both served.

What CMD does: read LLMTCK_SCENARIO; send each turn's prompt (with the system
prompt, tools, max_tokens and thinking it gives) to the turn's provider and
model, keep the conversation as your harness keeps it, and run the tool loop to
the final answer. A tool returns its "result" whatever its arguments. A tool
with "cancel": true is the user pressing stop while it runs: do not run it,
answer the call with an error result saying it was cancelled, end the turn, and
go on with the next prompt. A stream the scenario stops ("abort_after") is cut
off by the provider: treat the dropped connection as the user's stop, keep no
half answer as finished, and go on with the next prompt. "compact" replaces the
history before a turn's prompt; "output_schema" and "feedback": when the answer
does not match, send the feedback once as an ephemeral message (never stored)
and ask again. A request llmtck would refuse is answered with the provider's
own error (status and body), the check and why in the X-Llmtck-Finding header:
report it and exit non-zero.

A scenario fails when CMD exits non-zero or times out (its process group is
killed), a request is refused, a step is left unserved, or an error-level
finding appears; warnings are reported. Exit codes: 0 every scenario passed,
1 one failed, 2 usage error.`

func newTestCmd() *cobra.Command {
	var (
		globs   []string
		shard   string
		format  string
		timeout time.Duration
		explore int
		seed    int64
		verbose bool
	)
	cmd := &cobra.Command{
		Use:   "test [--scenarios GLOB]... [--shard K/N] [--format text|json|junit|github] [--timeout D] -- CMD [ARGS...]",
		Short: "Play the conformance scenarios against a harness command in any language",
		Long:  testLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return usageErr("test: give the harness command after --: llmtck test [flags] -- CMD [ARGS...]")
			}
			if !slices.Contains(runner.Formats, format) {
				return usageErr("test: --format %q: want %s", format, strings.Join(runner.Formats, ", "))
			}
			if timeout < 0 {
				return usageErr("test: --timeout %v: want a positive duration", timeout)
			}
			if cmd.Flags().Changed("seed") && !cmd.Flags().Changed("explore") {
				return usageErr("test: --seed needs --explore N")
			}
			selected, err := selectScenarios(globs)
			if err != nil {
				return usageErr("test: %v", err)
			}
			if cmd.Flags().Changed("explore") {
				if explore < 1 {
					return usageErr("test: --explore %d: want a number of scenarios ≥ 1", explore)
				}
				gen, err := runner.Explore(explore, seed)
				if err != nil {
					return usageErr("test: %v", err)
				}
				selected = append(selected, gen...)
			}
			if shard != "" {
				k, n, err := runner.ParseShard(shard)
				if err != nil {
					return usageErr("test: %v", err)
				}
				if selected, err = runner.Shard(selected, k, n); err != nil {
					return usageErr("test: %v", err)
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			opt := runner.Options{Command: args, Timeout: timeout}
			if verbose {
				opt.Output = cmd.ErrOrStderr()
			}
			var results []runner.Result
			for _, s := range selected {
				if ctx.Err() != nil {
					break
				}
				if format == "text" {
					fmt.Fprintf(cmd.ErrOrStderr(), "llmtck: playing %s\n", s.Name)
				}
				results = append(results, runner.Run(ctx, s, opt))
			}
			if err := runner.Write(cmd.OutOrStdout(), format, results); err != nil {
				return &exitError{code: 1, err: err}
			}
			if ctx.Err() != nil {
				return &exitError{code: 1, err: fmt.Errorf("test: interrupted after %d of %d scenarios", len(results), len(selected))}
			}
			if !runner.Passed(results) {
				return &exitError{code: 1}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&globs, "scenarios", nil, "bundled names (anthropic/*) or scenario files to play; repeatable (default: every bundled scenario)")
	f.StringVar(&shard, "shard", "", "play shard K of N only (by name hash), e.g. 1/4")
	f.StringVar(&format, "format", "text", "report format: "+strings.Join(runner.Formats, ", "))
	f.DurationVar(&timeout, "timeout", runner.DefaultTimeout, "per scenario: a command still running then is killed with its process group")
	f.IntVar(&explore, "explore", 0, "also play N generated scenarios per wire (see --seed)")
	f.Int64Var(&seed, "seed", 0, "the generator's seed for --explore")
	f.BoolVarP(&verbose, "verbose", "v", false, "copy the command's output to stderr as it runs")
	return cmd
}

// selectScenarios is every bundled scenario, or what the globs select:
// bundled names they match and files they match, each name once.
func selectScenarios(globs []string) ([]runner.Scenario, error) {
	bundled, err := runner.Bundled()
	if err != nil {
		return nil, err
	}
	if len(globs) == 0 {
		return bundled, nil
	}
	var out []runner.Scenario
	for _, g := range globs {
		n := len(out)
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("--scenarios %q: %v", g, err)
		}
		for _, s := range bundled {
			if ok, _ := path.Match(g, s.Name); ok {
				out = append(out, s)
			}
		}
		files, ferr := runner.FromGlob(g)
		if ferr != nil && (len(out) == n || !strings.Contains(ferr.Error(), "matches no scenario file")) {
			if len(out) == n && strings.Contains(ferr.Error(), "matches no scenario file") {
				return nil, fmt.Errorf("--scenarios %q matches no bundled scenario (have %s) and no file", g, strings.Join(scenario.Names(), ", "))
			}
			return nil, ferr
		}
		out = append(out, files...)
	}
	return runner.Dedup(out), nil
}
