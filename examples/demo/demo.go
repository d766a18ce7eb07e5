package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/proxy"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/traffic"
)

// run plays the scenario called name through the pipeline, writing the
// cassette under dir and the account of each step to w. The error says
// which step failed; a check report with findings is one.
func run(ctx context.Context, w io.Writer, name, dir string) error {
	start := time.Now()
	sc, err := scenario.Load(name)
	if err != nil {
		return err
	}
	var servers []*http.Server
	defer func() {
		for _, s := range servers {
			s.Close()
		}
	}()
	listen := func(h http.Handler) (string, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		s := &http.Server{Handler: h, ReadHeaderTimeout: time.Minute}
		servers = append(servers, s)
		go s.Serve(ln)
		return "http://" + ln.Addr().String(), nil
	}

	// 1. The simulated provider: one listener per provider the scenario uses.
	sim := simulator.NewSimulator(sc)
	simURLs := map[traffic.Wire]string{}
	for _, wire := range sc.Wires() {
		if simURLs[wire], err = listen(sim.Handler(wire)); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "[1/5] simulator  %s (%d steps): %s\n", sc.Name, len(sc.Steps), urlList(simURLs))

	// 2. The base-URL recorder in front of it, writing one cassette.
	path := filepath.Join(dir, filepath.FromSlash(sc.Name)+".yaml")
	os.Remove(path) // a rerun starts a fresh cassette; the recorder appends
	rec, err := proxy.NewRecorder(proxy.Options{Mode: proxy.ModeRecord, Cassette: path, Judge: func() proxy.Judge { return lint.New(checks.All()) }, Log: indent(w)})
	if err != nil {
		return err
	}
	recURLs := map[traffic.Wire]string{}
	for wire, up := range simURLs {
		u, _ := url.Parse(up)
		if recURLs[wire], err = listen(proxy.NewHandler(rec, u)); err != nil {
			rec.Close()
			return err
		}
	}
	fmt.Fprintf(w, "[2/5] recorder   %s -> simulator, cassette %s\n", urlList(recURLs), path)

	// 3. The reference engine plays the scenario through the recorder.
	fmt.Fprintf(w, "[3/5] reference  playing %s, streamed, through the recorder:\n", count(len(sc.Turns), "turn"))
	session := simulator.NewSession(sc, recURLs, sim)
	playErr := reference.Play(ctx, session, reference.Options{Stream: true})
	for _, s := range servers[len(simURLs):] {
		s.Shutdown(ctx) // the recorder's listeners: every call has finished
	}
	if err := rec.Close(); err != nil {
		return fmt.Errorf("recorder: %w", err)
	}
	fmt.Fprintf(w, "[3/5] reference  %d of %d steps served, %d requests refused\n", sim.Served(), len(sc.Steps), len(sim.Rejections()))
	switch {
	case playErr != nil:
		return fmt.Errorf("reference engine: %w", playErr)
	case len(sim.Rejections()) > 0:
		return fmt.Errorf("the simulator refused the reference engine: %v", sim.Rejections()[0])
	case !sim.Done():
		return fmt.Errorf("the reference engine stopped after %d of %d steps", sim.Served(), len(sc.Steps))
	}

	// 4. The cassette the recorder wrote.
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("cassette: %w", err)
	}
	fmt.Fprintf(w, "[4/5] cassette   %s, %d bytes\n", path, info.Size())

	// 5. The check report on it.
	rep, err := report.CheckPaths([]string{path}, checks.All(), "")
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	verdict := "clean"
	if rep.Summary.Errors+rep.Summary.Warnings > 0 || rep.Unreadable() {
		verdict = "FINDINGS"
	}
	fmt.Fprintf(w, "[5/5] check      %s: llmtck check %s\n", verdict, path)
	if err := rep.WriteText(indent(w)); err != nil {
		return err
	}
	if verdict != "clean" {
		return fmt.Errorf("check: %d errors, %d warnings", rep.Summary.Errors, rep.Summary.Warnings)
	}
	fmt.Fprintf(w, "done in %v: simulated, recorded, played, checked; offline\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// count is "1 turn", "2 turns".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// urlList is "anthropic http://…" for each provider, in a stable order.
func urlList(urls map[traffic.Wire]string) string {
	var out []string
	for _, wire := range []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini} {
		if u, ok := urls[wire]; ok {
			out = append(out, string(wire)+" "+u)
		}
	}
	return strings.Join(out, ", ")
}

// indent writes every line to w behind six spaces, under its step.
func indent(w io.Writer) io.Writer { return &indenter{w: w, start: true} }

type indenter struct {
	w     io.Writer
	start bool
}

func (d *indenter) Write(p []byte) (int, error) {
	var b []byte
	for _, c := range p {
		if d.start {
			b = append(b, "      "...)
		}
		b = append(b, c)
		d.start = c == '\n'
	}
	if _, err := d.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}
