package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/proxy"
)

func newRecordCmd() *cobra.Command {
	var (
		upstream, file, listen string
		redactHeaders          []string
		format                 string
		appendTo, overwrite    bool
	)
	cmd := &cobra.Command{
		Use:   "record --upstream URL --cassette FILE [--listen 127.0.0.1:0]",
		Short: "Record a provider's traffic through a base-URL endpoint",
		Long: `record serves a provider base URL that forwards every call to --upstream and
records it into --cassette (go-vcr v2 YAML). A cassette that already holds
interactions is recorded onto only when asked: --append adds to them,
--overwrite starts the file over (a silent append would double every call
and break the goldens made from it). Point
ANTHROPIC_BASE_URL, OPENAI_BASE_URL (with its /v1) or the Gemini base URL at the
address printed on the first line of stdout:

  listening on http://127.0.0.1:PORT

Streams reach the client event by event as they arrive. Credentials are masked
before anything is written, and an interaction that still holds something
shaped like a key is not written at all. Each call prints one line on stderr,
with the findings of the check catalogue. Stops cleanly on SIGINT or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if upstream == "" || file == "" {
				return usageErr("record: --upstream and --cassette are required")
			}
			u, err := url.Parse(upstream)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return usageErr("record: --upstream %q: want an http or https URL such as https://api.anthropic.com", upstream)
			}
			if format != "v2" && format != "v4" {
				return usageErr("record: --cassette-format %q: want v2 or v4", format)
			}
			if appendTo && overwrite {
				return usageErr("record: --append and --overwrite: choose one")
			}
			if n := recordedIn(file); n > 0 {
				switch {
				case overwrite:
					if err := os.Remove(file); err != nil {
						return usageErr("record: --overwrite: %v", err)
					}
				case !appendTo:
					return usageErr("record: %s already holds %s: pass --append to add to it or --overwrite to start it over", file, count(n, "interaction"))
				}
			}
			rec, err := proxy.NewRecorder(proxy.Options{
				Mode: proxy.ModeRecord, Cassette: file, RedactHeaders: redactHeaders,
				Judge: catalogue, Log: cmd.ErrOrStderr(), CassetteFormat: format,
			})
			if err != nil {
				return usageErr("record: %v", err)
			}
			return serve(cmd, listen, proxy.NewHandler(rec, u), rec)
		},
	}
	f := cmd.Flags()
	f.StringVar(&upstream, "upstream", "", "the provider's base URL, e.g. https://api.anthropic.com")
	f.StringVar(&file, "cassette", "", "the cassette to record into")
	f.StringVar(&listen, "listen", "127.0.0.1:0", "address to listen on (loopback by default)")
	f.StringSliceVar(&redactHeaders, "redact-header", nil, "also mask these headers (repeatable)")
	f.StringVar(&format, "cassette-format", "v2", "cassette layout: v2 (go-vcr v2, \"version: 1\") or v4 (go-vcr v3/v4, \"version: 2\", written when the recorder stops)")
	f.BoolVar(&appendTo, "append", false, "add to the interactions the cassette already holds")
	f.BoolVar(&overwrite, "overwrite", false, "start the cassette over, dropping what it holds")
	completeValues(cmd, "cassette-format", "v2", "v4")
	return cmd
}

// recordedIn is how many interactions the cassette at path holds: 0 when
// it does not exist, is empty, or does not load (the recorder then says why).
func recordedIn(path string) int {
	c, err := cassette.Load(path)
	if err != nil {
		return 0
	}
	return len(c.Interactions)
}

// serve runs h on addr until SIGINT or SIGTERM, then shuts down and closes
// rec (a recorder puts its cassettes in order). The first line on stdout is
// the address, so scripts can listen on port 0.
func serve(cmd *cobra.Command, addr string, h http.Handler, rec io.Closer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		rec.Close()
		return &exitError{code: 1, err: err}
	}
	fmt.Fprintf(cmd.OutOrStdout(), "listening on http://%s\n", ln.Addr())
	if !loopback(ln.Addr()) {
		fmt.Fprintf(cmd.ErrOrStderr(), "llmtck: warning: %s is reachable from other machines, and calls through it carry your API keys\n", ln.Addr())
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Minute}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-done:
		rec.Close()
		return &exitError{code: 1, err: err}
	}
	stop() // a second signal kills at once
	// Give calls in flight a moment to finish, so they are recorded.
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintln(cmd.ErrOrStderr(), "llmtck:", err)
	}
	if err := rec.Close(); err != nil {
		return &exitError{code: 1, err: err}
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "llmtck: stopped")
	return nil
}

// loopback reports whether a listener is reachable from this machine only.
func loopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}
