package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/proxy"
)

func newReplayCmd() *cobra.Command {
	var (
		file, name, listen, timing string
		check                      bool
		matchOn                    string
		matchIgnore                []string
	)
	cmd := &cobra.Command{
		Use:   "replay (--cassette FILE | --scenario NAME) [--listen 127.0.0.1:0] [--timing instant|recorded|scale=K] [--check]",
		Short: "Serve a cassette, or a scenario's simulated providers, as a fake provider",
		Long: `replay serves --cassette (any format import reads) as a provider base URL, without
ever touching the network. A request is answered by the recorded request with
the same method, path, query and JSON body (key order, whitespace and volatile
fields such as metadata.user_id ignored); --match and --match-ignore change
what is compared. Identical requests get their responses in recorded order. Streams are served event by event, paced by --timing. A request
that matches nothing gets a 404 naming the nearest recorded request and where
it differs. With --check, a request that breaks a check is answered with the
provider's own status and error body.

replay --scenario NAME (see llmtck scenarios list) serves the scenario's
simulated providers instead, so a harness in any language can play it: each
step's response in turn, the signatures and encrypted reasoning minted for
that conversation. Every request is judged by the rules, not by equality to a
recording, so --check is always on: a violation, or a minted token altered,
dropped or moved, is answered with the provider's own status and error body,
and the harness may retry. One listener serves every provider the scenario
uses, by path: /v1/messages (anthropic), /v1/chat/completions (openai; give
openai SDKs http://127.0.0.1:PORT/v1), /v1/responses (responses) and
/v1beta/models/MODEL:generateContent (gemini). Each request prints one line on
stderr: the step, the status, and the check a refused request breaks. A step
whose user presses stop mid-stream is cut off there, as a dropped connection.
It keeps serving after the last step (further requests are refused) until
stopped.

The first line on stdout is the address:

  listening on http://127.0.0.1:PORT

Stops cleanly on SIGINT or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case file != "" && name != "":
				return usageErr("replay: give --cassette or --scenario, not both")
			case name != "":
				if cmd.Flags().Changed("check") && !check {
					return usageErr("replay: --scenario always checks: the simulator judges every request by the rules")
				}
				if cmd.Flags().Changed("timing") {
					return usageErr("replay: --timing paces a cassette; a scenario is served at once")
				}
				return replayScenario(cmd, name, listen)
			case file == "":
				return usageErr("replay: --cassette or --scenario is required")
			}
			t, err := proxy.ParseTiming(timing)
			if err != nil {
				return usageErr("replay: --timing: %v", err)
			}
			match, err := cassette.ParseMatcher(matchOn, matchIgnore)
			if err != nil {
				return usageErr("replay: %v", err)
			}
			opts := proxy.Options{Mode: proxy.ModeReplay, Cassette: file, Timing: t, Check: check, Log: cmd.ErrOrStderr(), Match: match}
			opts.Judge = judgeIf(check)
			rec, err := proxy.NewRecorder(opts)
			if err != nil {
				return usageErr("replay: %v", err)
			}
			return serve(cmd, listen, proxy.NewHandler(rec, nil), rec)
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "cassette", "", "the cassette to serve")
	f.StringVar(&name, "scenario", "", "serve this scenario's simulated providers instead (llmtck scenarios list)")
	f.StringVar(&listen, "listen", "127.0.0.1:0", "address to listen on (loopback by default)")
	f.StringVar(&timing, "timing", "instant", "pacing: instant, recorded (as recorded) or scale=K (K times the recorded delays)")
	f.BoolVar(&check, "check", false, "answer a request that breaks a check with the provider's own status and error body (always on with --scenario)")
	f.StringVar(&matchOn, "match", strings.Join(cassette.DefaultMatchOn, ","), "what a recorded request must share with an incoming one: method, path, query, body-json (JSON value; key order, whitespace and volatile fields aside), body (exact bytes), header:NAME")
	f.StringArrayVar(&matchIgnore, "match-ignore", nil, "object-key path body-json leaves out, e.g. metadata.user_id or temperature (repeatable)")
	completeValues(cmd, "scenario", scenario.Names()...)
	completeValues(cmd, "timing", "instant", "recorded", "scale=")
	return cmd
}
