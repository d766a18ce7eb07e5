package harness_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// provider is a loopback server that speaks one provider wire (Anthropic
// Messages unless told otherwise): it checks each request's path and auth
// header, decodes it with the wire's real codec, checks it with the
// engine's validator, and answers with the next scripted reply.
type provider struct {
	t       *testing.T
	wire    traffic.Wire
	srv     *httptest.Server
	mu      sync.Mutex
	replies []func(w http.ResponseWriter, r *http.Request)
	bodies  [][]byte
	reqs    []*traffic.Request
	headers []http.Header
}

func newProvider(t *testing.T, replies ...func(w http.ResponseWriter, r *http.Request)) *provider {
	return newWireProvider(t, traffic.WireAnthropic, replies...)
}

func newWireProvider(t *testing.T, wire traffic.Wire, replies ...func(w http.ResponseWriter, r *http.Request)) *provider {
	p := &provider{t: t, wire: wire, replies: replies}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *provider) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		p.t.Errorf("reading the request: %v", err)
		return
	}
	if err := checkRoute(p.wire, r); err != nil {
		p.t.Error(err)
	}
	req, err := providers.For(p.wire).DecodeRequest(body)
	if err != nil {
		p.t.Errorf("request %d does not decode: %v\n%s", len(p.bodies), err, body)
		http.Error(w, err.Error(), 400)
		return
	}
	if err := engine.Validate(req.Messages); err != nil {
		p.t.Errorf("request %d breaks the transcript rules: %v\n%s", len(p.bodies), err, body)
	}
	p.mu.Lock()
	n := len(p.bodies)
	p.bodies = append(p.bodies, body)
	p.reqs = append(p.reqs, req)
	p.headers = append(p.headers, r.Header.Clone())
	p.mu.Unlock()
	if n >= len(p.replies) {
		p.t.Errorf("unexpected request %d", n)
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no more replies"}}`, 400)
		return
	}
	p.replies[n](w, r)
}

// checkRoute checks that a request goes where the wire's API takes it,
// with the wire's version and auth headers.
func checkRoute(wire traffic.Wire, r *http.Request) error {
	path, stream := r.URL.Path, r.Header.Get("Accept") == "text/event-stream"
	switch wire {
	case traffic.WireAnthropic:
		if path != "/v1/messages" || r.Header.Get("Anthropic-Version") == "" {
			return fmt.Errorf("request to %s without anthropic-version", path)
		}
	case traffic.WireResponses:
		if path != "/v1/responses" || !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			return fmt.Errorf("request to %s with authorization %q", path, r.Header.Get("Authorization"))
		}
	case traffic.WireGemini:
		want, query := ":generateContent", ""
		if stream {
			want, query = ":streamGenerateContent", "alt=sse"
		}
		if !strings.HasPrefix(path, "/v1beta/models/") || !strings.HasSuffix(path, want) || r.URL.RawQuery != query || r.Header.Get("X-Goog-Api-Key") == "" {
			return fmt.Errorf("request to %s?%s (stream %v) with x-goog-api-key %q", path, r.URL.RawQuery, stream, r.Header.Get("X-Goog-Api-Key"))
		}
	}
	return nil
}

func (p *provider) body(i int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return string(p.bodies[i])
}

func (p *provider) requests() []*traffic.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reqs
}

// turn is one scripted model reply.
type turn struct {
	thinking, signature string
	text                string
	calls               []call
	in, out             int // usage
}

type call struct{ id, name, input string }

// events renders the reply as the Anthropic stream events, split where a
// real stream splits them (text and arguments in two deltas).
func (tu turn) events() []string {
	ev := []string{fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":%d,"output_tokens":1}}}`, tu.in)}
	i := 0
	block := func(start string, deltas ...string) {
		ev = append(ev, fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, start))
		for _, d := range deltas {
			ev = append(ev, fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, i, d))
		}
		ev = append(ev, fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		i++
	}
	q := func(s string) string { return string(rawjson.Quote(s)) }
	if tu.signature != "" {
		block(`{"type":"thinking","thinking":"","signature":""}`,
			`{"type":"thinking_delta","thinking":`+q(tu.thinking)+`}`,
			`{"type":"signature_delta","signature":`+q(tu.signature)+`}`)
	}
	if tu.text != "" {
		half := len(tu.text) / 2
		block(`{"type":"text","text":""}`,
			`{"type":"text_delta","text":`+q(tu.text[:half])+`}`,
			`{"type":"text_delta","text":`+q(tu.text[half:])+`}`)
	}
	for _, c := range tu.calls {
		half := len(c.input) / 2
		block(`{"type":"tool_use","id":`+q(c.id)+`,"name":`+q(c.name)+`,"input":{}}`,
			`{"type":"input_json_delta","partial_json":`+q(c.input[:half])+`}`,
			`{"type":"input_json_delta","partial_json":`+q(c.input[half:])+`}`)
	}
	stop := "end_turn"
	if len(tu.calls) > 0 {
		stop = "tool_use"
	}
	ev = append(ev, fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, stop, tu.out))
	return append(ev, `{"type":"message_stop"}`)
}

// streamed answers with the turn as an event stream, flushing each event.
func streamed(tu turn) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range tu.events() {
			var name struct{ Type string }
			json.Unmarshal([]byte(e), &name)
			w.Write(sse.Write(nil, name.Type, e))
			w.(http.Flusher).Flush()
		}
	}
}

// recorded answers with a body verbatim.
func recorded(status int, contentType string, body []byte) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		w.Write(body)
	}
}

// collect ranges over a run's events, answering relays with answer (nil:
// approve), and returns them.
func collect(t *testing.T, events func(func(engine.Event) bool), answer func(engine.RelayEvent)) []engine.Event {
	t.Helper()
	var out []engine.Event
	for ev := range events {
		out = append(out, ev)
		if r, ok := ev.(engine.RelayEvent); ok {
			if answer == nil {
				r.Respond(engine.PermissionResponse{Approved: true})
			} else {
				answer(r)
			}
		}
	}
	return out
}

// checkEvents checks the stream's invariants: harness_start first and
// harness_end last for every run, each tool_call before its tool_result,
// and usage totals that add up per run.
func checkEvents(t *testing.T, evs []engine.Event) {
	t.Helper()
	if len(evs) < 2 {
		t.Fatalf("%d events", len(evs))
	}
	if evs[0].Type() != engine.EventHarnessStart || evs[len(evs)-1].Type() != engine.EventHarnessEnd {
		t.Errorf("first %s, last %s", evs[0].Type(), evs[len(evs)-1].Type())
	}
	started, ended := map[string]bool{}, map[string]bool{}
	usage := map[string]engine.TokenUsage{}
	called, answered := map[string]bool{}, map[string]bool{}
	for i, ev := range evs {
		run := ev.Run().RunID
		if ended[run] {
			t.Errorf("event %d (%s) after harness_end of %s", i, ev.Type(), run)
		}
		if !started[run] && ev.Type() != engine.EventHarnessStart {
			t.Errorf("event %d (%s) before harness_start of %s", i, ev.Type(), run)
		}
		switch e := ev.(type) {
		case engine.StartEvent:
			started[run] = true
		case engine.EndEvent:
			ended[run] = true
			if e.TotalUsage != usage[run] {
				t.Errorf("run %s: total usage %+v, usage events add up to %+v", run, e.TotalUsage, usage[run])
			}
		case engine.UsageEvent:
			usage[run] = usage[run].Add(e.TokenUsage)
		case engine.ToolCallEvent:
			called[e.ID] = true
		case engine.ToolResultEvent:
			if !called[e.ID] {
				t.Errorf("tool_result %s before its tool_call", e.ID)
			}
			if answered[e.ID] {
				t.Errorf("tool_result %s twice", e.ID)
			}
			answered[e.ID] = true
		}
		if _, err := engine.MarshalEvent(ev); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
	}
	for id := range called {
		if !answered[id] {
			t.Errorf("tool_call %s has no tool_result: the stream must close every call it opened", id)
		}
	}
	for run := range started {
		if !ended[run] {
			t.Errorf("run %s never ended", run)
		}
	}
}

func types(evs []engine.Event) string {
	var s []string
	for _, e := range evs {
		s = append(s, string(e.Type()))
	}
	return strings.Join(s, " ")
}

func end(evs []engine.Event) engine.EndEvent {
	return evs[len(evs)-1].(engine.EndEvent)
}
