package main

import (
	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/proxy"
)

func newReplayCmd() *cobra.Command {
	var (
		file, listen, timing string
		check                bool
	)
	cmd := &cobra.Command{
		Use:   "replay --cassette FILE [--listen 127.0.0.1:0] [--timing instant|recorded|scale=K] [--check]",
		Short: "Serve a cassette back as a fake provider",
		Long: `replay serves --cassette (any format import reads) as a provider base URL, without
ever touching the network. A request is answered by the recorded request with
the same method, path and JSON body (key order, whitespace and volatile fields
such as metadata.user_id ignored); identical requests get their responses in
recorded order. Streams are served event by event, paced by --timing. A request
that matches nothing gets a 404 naming the nearest recorded request and where
it differs. With --check, a request that breaks a check is answered with the
provider's own status and error body. The first line on stdout is the address:

  listening on http://127.0.0.1:PORT

Stops cleanly on SIGINT or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usageErr("replay: --cassette is required")
			}
			t, err := proxy.ParseTiming(timing)
			if err != nil {
				return usageErr("replay: --timing: %v", err)
			}
			opts := proxy.Options{Mode: proxy.ModeReplay, Cassette: file, Timing: t, Check: check, Log: cmd.ErrOrStderr()}
			if check {
				opts.Linter = catalogueLinter()
			}
			rec, err := proxy.NewRecorder(opts)
			if err != nil {
				return usageErr("replay: %v", err)
			}
			return serve(cmd, listen, proxy.NewHandler(rec, nil), rec)
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "cassette", "", "the cassette to serve")
	f.StringVar(&listen, "listen", "127.0.0.1:0", "address to listen on (loopback by default)")
	f.StringVar(&timing, "timing", "instant", "pacing: instant, recorded (as recorded) or scale=K (K times the recorded delays)")
	f.BoolVar(&check, "check", false, "answer a request that breaks a check with the provider's own status and error body")
	return cmd
}
