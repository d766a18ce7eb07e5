package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// replayScenario serves the simulator of the scenario called name on addr
// until SIGINT or SIGTERM.
func replayScenario(cmd *cobra.Command, name, addr string) error {
	sc, err := loadScenario(name)
	if err != nil {
		return usageErr("replay: --scenario: %v", err)
	}
	h := newScenarioHandler(simulator.NewSimulator(sc), cmd.ErrOrStderr())
	var eps []string
	for _, w := range sc.Wires() {
		eps = append(eps, string(w)+" "+endpoints[w])
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "llmtck: simulating %s, %d steps (%s)\n", sc.Name, len(sc.Steps), strings.Join(eps, "; "))
	return serve(cmd, addr, h, h)
}

// loadScenario is the bundled scenario called name, or, for a name ending
// in .json, the scenario file at that path: generated or hand-written,
// named <provider>/<what>.json or <provider>-<what>.json (as explore keeps
// its failures).
func loadScenario(name string) (*scenario.Scenario, error) {
	if !strings.HasSuffix(name, ".json") {
		return scenario.Load(name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(filepath.Base(name), ".json")
	dir := filepath.Base(filepath.Dir(name))
	for _, w := range providers.Wires() {
		switch {
		case dir == string(w):
			return scenario.Parse(dir+"/"+base, data)
		case strings.HasPrefix(base, string(w)+"-"):
			return scenario.Parse(string(w)+"/"+base, data)
		}
	}
	return nil, fmt.Errorf("%s: name the file <provider>/<what>.json or <provider>-<what>.json, so its provider is known", name)
}

// endpoints are the paths each simulated provider answers, for the
// startup line: the base URL is the listener's address (with /v1 for
// openai-go, which expects it).
var endpoints = map[traffic.Wire]string{
	traffic.WireAnthropic: "POST /v1/messages",
	traffic.WireOpenAI:    "POST /v1/chat/completions",
	traffic.WireResponses: "POST /v1/responses",
	traffic.WireGemini:    "POST /v1beta/models/MODEL:generateContent",
}

// wireForPath is the provider a request path belongs to, so that one
// listener serves every provider a scenario talks to.
func wireForPath(p string) (traffic.Wire, bool) {
	switch {
	case p == "/v1/messages":
		return traffic.WireAnthropic, true
	case p == "/v1/chat/completions":
		return traffic.WireOpenAI, true
	case p == "/v1/responses":
		return traffic.WireResponses, true
	case strings.HasPrefix(p, "/v1beta/models/"), strings.HasPrefix(p, "/v1/models/"):
		return traffic.WireGemini, true
	}
	return "", false
}

// scenarioHandler serves a simulator on one listener for every provider,
// picking the wire by the request path, and logs one line per request.
type scenarioHandler struct {
	sim *simulator.Simulator
	log io.Writer

	mu       sync.Mutex // one request at a time, as the simulator serves them
	finished bool
}

func newScenarioHandler(sim *simulator.Simulator, log io.Writer) *scenarioHandler {
	return &scenarioHandler{sim: sim, log: log}
}

func (h *scenarioHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	wire, ok := wireForPath(r.URL.Path)
	if !ok {
		// The first provider's endpoint check answers it, as a 404.
		wire = h.sim.Scenario().Wire
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	step, refused, found := h.sim.Served(), len(h.sim.Rejections()), len(h.sim.Findings())
	sw := &statusWriter{ResponseWriter: w}
	start := time.Now()
	// Deferred, so an aborted stream (the handler panics to cut the
	// connection) is logged too.
	defer func() { h.logCall(r, sw, step, refused, found, time.Since(start)) }()
	h.sim.Handler(wire).ServeHTTP(sw, r)
}

// logCall writes the line for one request:
//
//	sim step 2/3 POST /v1/messages 200 stream 3ms lint=-
//	sim step 2/3 POST /v1/messages 400 json 1ms refused=ANT-THINK-001 messages.1.content.0: the signature …
func (h *scenarioHandler) logCall(r *http.Request, sw *statusWriter, step, refused, found int, d time.Duration) {
	sc := h.sim.Scenario()
	kind := "json"
	if strings.HasPrefix(sw.Header().Get("Content-Type"), "text/event-stream") {
		kind = "stream"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "sim step %d/%d %s %s %d %s %s", step+1, len(sc.Steps), r.Method, r.URL.Path, sw.status, kind, round(d))
	if rj := h.sim.Rejections(); len(rj) > refused {
		last := rj[len(rj)-1]
		check := last.Check
		if check == "" {
			check = "-"
		}
		fmt.Fprintf(&b, " refused=%s", check)
		if last.Location != "" {
			fmt.Fprintf(&b, " %s", last.Location)
		}
		fmt.Fprintf(&b, ": %s", last.Message)
		if last.Detail != "" && last.Detail != last.Message {
			fmt.Fprintf(&b, " (%s)", last.Detail)
		}
	} else {
		var ids []string
		for _, f := range h.sim.Findings()[found:] {
			if f.Severity != check.SeverityInfo {
				ids = append(ids, f.Check)
			}
		}
		if len(ids) == 0 {
			ids = []string{"-"}
		}
		fmt.Fprintf(&b, " lint=%s", strings.Join(ids, ","))
		if n := sc.Steps[step].AbortAfter; n > 0 {
			fmt.Fprintf(&b, " aborted after %d parts", n)
		}
	}
	fmt.Fprintln(h.log, b.String())
	if h.sim.Done() && !h.finished {
		h.finished = true
		fmt.Fprintf(h.log, "sim %s: all %d steps served; a further request is refused\n", sc.Name, len(sc.Steps))
	}
}

// Close reports how far the scenario got.
func (h *scenarioHandler) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	sc := h.sim.Scenario()
	fmt.Fprintf(h.log, "sim %s: %d of %d steps served, %d requests refused\n", sc.Name, h.sim.Served(), len(sc.Steps), len(h.sim.Rejections()))
	return nil
}

// round keeps a duration readable.
func round(d time.Duration) time.Duration {
	if d >= time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// statusWriter remembers the status written, and still flushes each
// stream event as the simulator sends it.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
