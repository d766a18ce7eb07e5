package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/proxy"
)

func newProxyCmd() *cobra.Command {
	var (
		listen, mode, dir, caDir, timing string
		printCA, check                   bool
		intercept, redactHeaders         []string
		matchOn                          string
		matchIgnore                      []string
	)
	cmd := &cobra.Command{
		Use:   "proxy [--listen 127.0.0.1:8080] [--mode record|replay|auto|passthrough] --cassette-dir DIR [--ca-dir DIR]",
		Short: "Record or replay provider traffic as an HTTPS_PROXY",
		Long: `proxy is a forward proxy for HTTPS_PROXY. Calls to provider hosts are intercepted
with a CA that llmtck generates on first use (ECDSA P-256, in --ca-dir; see
--print-ca for how to trust it) and recorded into DIR/HOST.yaml, or replayed
from there, by --mode:

  record       forward every call and record it (the default)
  replay       answer from the cassettes only; never touch the network
  auto         replay what matches, forward and record the rest
  passthrough  forward and log, record nothing

Every other host is tunnelled untouched. The first line on stdout is the
address to put in HTTPS_PROXY:

  listening on http://127.0.0.1:8080

Each call prints one line on stderr. Stops cleanly on SIGINT or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if caDir == "" {
				d, err := proxy.DefaultCADir()
				if err != nil {
					return usageErr("proxy: %v", err)
				}
				caDir = d
			}
			ca, err := proxy.LoadOrCreateCA(caDir)
			if err != nil {
				return &exitError{code: 1, err: fmt.Errorf("proxy: %w", err)}
			}
			if printCA {
				fmt.Fprint(cmd.OutOrStdout(), ca.TrustHelp())
				return nil
			}
			m, err := proxy.ParseMode(mode)
			if err != nil {
				return usageErr("proxy: --mode: %v", err)
			}
			if dir == "" && m != proxy.ModePassthrough {
				return usageErr("proxy: --cassette-dir is required")
			}
			t, err := proxy.ParseTiming(timing)
			if err != nil {
				return usageErr("proxy: --timing: %v", err)
			}
			match, err := cassette.ParseMatcher(matchOn, matchIgnore)
			if err != nil {
				return usageErr("proxy: %v", err)
			}
			opts := proxy.Options{Mode: m, Dir: dir, Timing: t, Check: check, Log: cmd.ErrOrStderr(), Match: match}
			opts.Judge = judgeIf(m != proxy.ModeReplay || check)
			opts.RedactHeaders = redactHeaders
			rec, err := proxy.NewRecorder(opts)
			if err != nil {
				return usageErr("proxy: %v", err)
			}
			hosts := append(append([]string(nil), proxy.DefaultHosts...), intercept...)
			fmt.Fprintf(cmd.ErrOrStderr(), "llmtck: intercepting %s; trust %s (llmtck proxy --print-ca)\n", strings.Join(hosts, ", "), ca.CertPath)
			return serve(cmd, listen, proxy.NewForward(rec, proxy.ForwardOptions{CA: ca, Hosts: hosts, Log: cmd.ErrOrStderr(), Hermetic: m == proxy.ModeReplay}), rec)
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", "127.0.0.1:8080", "address to listen on (loopback by default)")
	f.StringVar(&mode, "mode", "record", "record, replay, auto or passthrough")
	f.StringVar(&dir, "cassette-dir", "", "folder of the cassettes, one per provider host")
	f.StringVar(&caDir, "ca-dir", "", "folder of the interception CA (default: the user config folder/llmtck)")
	f.BoolVar(&printCA, "print-ca", false, "print the CA certificate's path and how to trust it, then exit")
	f.StringSliceVar(&intercept, "intercept", nil, "also intercept these hosts (repeatable; * globs, e.g. *.example.com)")
	f.BoolVar(&check, "check", false, "in replay and auto modes, answer a request that breaks a check with the provider's own error")
	f.StringVar(&timing, "timing", "instant", "replay pacing: instant, recorded or scale=K")
	f.StringSliceVar(&redactHeaders, "redact-header", nil, "also mask these headers (repeatable)")
	f.StringVar(&matchOn, "match", strings.Join(cassette.DefaultMatchOn, ","), "in replay and auto modes, what a recorded request must share with an incoming one (see llmtck replay --help)")
	f.StringArrayVar(&matchIgnore, "match-ignore", nil, "object-key path the body-json match leaves out (repeatable)")
	return cmd
}
