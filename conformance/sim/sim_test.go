package sim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/conformance/sim"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/engine/harness"
	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/providers"
)

// outcome is what one harness run against the simulator gave.
type outcome struct {
	srv    *sim.Server
	run    *harness.Run
	errors []string // the harness's error events
}

// runScenario runs the reference harness through a loopback HTTP server
// serving sc; tamper, when set, rewrites each outgoing request body.
func runScenario(t *testing.T, sc *sim.Scenario, stream bool, tamper func(call int, req *engine.Request)) outcome {
	t.Helper()
	srv := sim.New(sc, sim.Options{})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	client := hs.Client()
	if tamper != nil {
		client = &http.Client{Transport: &tamperer{next: client.Transport, fn: tamper}}
	}
	h, err := harness.New(harness.Config{BaseURL: hs.URL, Wire: sc.Wire, Model: sc.Model, MaxTokens: sc.MaxTokens,
		Stream: stream, Thinking: sc.Thinking, HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	run, err := h.Start(context.Background(), harness.Params{Messages: sc.Messages(), Tools: sc.Definitions()})
	if err != nil {
		t.Fatal(err)
	}
	out := outcome{srv: srv, run: run}
	for ev := range run.Events() {
		switch ev := ev.(type) {
		case engine.RelayEvent:
			ev.Respond(engine.PermissionResponse{Approved: true})
		case engine.ErrorEvent:
			out.errors = append(out.errors, ev.Err.Error())
		}
	}
	return out
}

// tamperer is a deliberately broken client: it decodes each request the
// harness sends, lets fn break it, and sends the re-encoded body.
type tamperer struct {
	next  http.RoundTripper
	fn    func(call int, req *engine.Request)
	calls int
}

func (tp *tamperer) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	codec := providers.For(engine.WireAnthropic)
	req, err := codec.DecodeRequest(body)
	if err != nil {
		return nil, err
	}
	tp.fn(tp.calls, req)
	tp.calls++
	if body, err = codec.EncodeRequest(req); err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	return tp.next.RoundTrip(r)
}

func load(t *testing.T, name string) *sim.Scenario {
	t.Helper()
	sc, err := sim.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestReferenceHarnessPassesEveryScenario(t *testing.T) {
	names := sim.Names()
	if len(names) < 3 {
		t.Fatalf("bundled scenarios: %v", names)
	}
	for _, name := range names {
		for _, stream := range []bool{true, false} {
			mode := map[bool]string{true: "stream", false: "json"}[stream]
			t.Run(name+"/"+mode, func(t *testing.T) {
				sc := load(t, name)
				o := runScenario(t, sc, stream, nil)
				if rj := o.srv.Rejections(); len(rj) > 0 {
					t.Fatalf("the reference harness was rejected: %v", rj)
				}
				if len(o.errors) > 0 || o.run.EndReason() != engine.EndFinal || !o.srv.Done() {
					t.Fatalf("run ended %q after %d of %d steps; errors %v", o.run.EndReason(), o.srv.Served(), len(sc.Steps), o.errors)
				}
				for _, f := range o.srv.Findings() {
					if f.Severity != conformance.SeverityInfo {
						t.Errorf("finding on the reference harness: %v", f)
					}
				}
				// The final answer is the last step's text, as served.
				msgs := o.run.Transcript().Messages()
				last := msgs[len(msgs)-1]
				if got := last.Blocks[len(last.Blocks)-1].Text; !strings.Contains(string(sc.Steps[len(sc.Steps)-1].Content[len(last.Blocks)-1]), got) || got == "" {
					t.Errorf("final text %q is not the last step's", got)
				}
			})
		}
	}
}

// A run repeats byte for byte (tokens are minted from a key derived from
// the scenario), and what the simulator records is a cassette that passes
// the whole catalogue.
func TestRunsRepeatByteForByte(t *testing.T) {
	sc := load(t, "anthropic/redacted-thinking")
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		o := runScenario(t, sc, true, nil)
		path := filepath.Join(dir, "run.yaml")
		if err := o.srv.WriteCassette(path); err != nil {
			t.Fatal(err)
		}
		tr, err := conformance.LoadTraffic(path, engine.WireAnthropic)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range conformance.Judge(tr, conformance.Checks()) {
			if f.Severity == conformance.SeverityError {
				t.Errorf("the exported cassette fails %v", f)
			}
		}
		files[i] = readFile(t, path)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("two runs of one scenario wrote different cassettes")
	}
	if !bytes.Contains(files[0], []byte(`"data":"`)) || bytes.Contains(files[0], []byte(`\u003c`)) {
		t.Fatal("the cassette lacks minted redacted data, or HTML-escaped the tool input")
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// thinkingOf returns the first block of type typ in message i of req.
func thinkingOf(req *engine.Request, i int, typ engine.BlockType) *engine.Block {
	if i < 0 || i >= len(req.Messages) {
		return nil
	}
	for j, b := range req.Messages[i].Blocks {
		if b.Type == typ {
			return &req.Messages[i].Blocks[j]
		}
	}
	return nil
}

// flip changes one character in the middle of a raw JSON string token.
func flip(raw json.RawMessage) json.RawMessage {
	b := append(json.RawMessage(nil), raw...)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return b
}

func TestBrokenClientsAreRejected(t *testing.T) {
	cases := []struct {
		name, scenario string
		call           int // the request that is broken
		tamper         func(req *engine.Request)
		check, body    string
	}{{
		name: "a flipped signature byte", scenario: "anthropic/thinking-tool-loop", call: 1,
		tamper: func(req *engine.Request) {
			b := thinkingOf(req, 1, engine.BlockThinking)
			b.Signature = flip(b.Signature)
		},
		check: "ANT-THINK-001",
		body:  "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.\"}}",
	}, {
		name: "a dropped tool_result", scenario: "anthropic/parallel-tools", call: 1,
		tamper: func(req *engine.Request) { m := &req.Messages[2]; m.Blocks = m.Blocks[:1] },
		check:  "ANT-TOOL-001",
		body:   "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01GtY7nBc3MwQs9vXk5RjHfA. Each `tool_use` block must have a corresponding `tool_result` block in the next message.\"}}",
	}, {
		// History from elsewhere is not judged by the catalogue (it has no
		// recorded origin); only the simulator's own verification sees that
		// this signature was never minted.
		name: "a synthesized thinking block in the starting history", scenario: "anthropic/thinking-tool-loop", call: 0,
		tamper: func(req *engine.Request) {
			earlier := []engine.Message{
				{Role: engine.RoleUser, Blocks: []engine.Block{{Type: engine.BlockText, Text: "Hi"}}},
				{Role: engine.RoleAssistant, Blocks: []engine.Block{
					{Type: engine.BlockThinking, Text: "Greet back.", Signature: json.RawMessage(`"EqQBCkYIBxgCKkDsynthesizedAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="`)},
					{Type: engine.BlockText, Text: "Hello!"}}},
			}
			req.Messages = append(earlier, req.Messages...)
		},
		check: "ANT-THINK-003",
		body:  "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1.content.0: Invalid `signature` in `thinking` block\"}}",
	}, {
		name: "a system prompt edited under signed thinking", scenario: "anthropic/thinking-tool-loop", call: 2,
		tamper: func(req *engine.Request) { req.System[0].Text += " Today is Monday." },
		check:  "ANT-THINK-009",
		body:   "Invalid `signature` in `thinking` block. The block is bound to a different conversation.",
	}, {
		name: "redacted data altered", scenario: "anthropic/redacted-thinking", call: 1,
		tamper: func(req *engine.Request) { b := thinkingOf(req, 1, engine.BlockRedacted); b.Data = flip(b.Data) },
		check:  "ANT-THINK-001",
		body:   "messages.1.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified.",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runScenario(t, load(t, c.scenario), true, func(call int, req *engine.Request) {
				if call == c.call {
					c.tamper(req)
				}
			})
			rj := o.srv.Rejections()
			if len(rj) != 1 {
				t.Fatalf("rejections %v, want one", rj)
			}
			if rj[0].Check != c.check || rj[0].Step != c.call || rj[0].Status != 400 {
				t.Errorf("rejected %v, want %s at step %d", rj[0], c.check, c.call)
			}
			if o.run.EndReason() != engine.EndError || len(o.errors) != 1 {
				t.Fatalf("run ended %q with errors %v", o.run.EndReason(), o.errors)
			}
			ex := o.srv.Exchanges()
			if len(ex) != c.call {
				t.Errorf("%d calls accepted, want %d", len(ex), c.call)
			}
			// The answer is the provider's own envelope and text, and the
			// harness saw it as it would see the real provider's.
			if body := lastBody(t, o.srv); !strings.Contains(body, c.body) {
				t.Errorf("answered %s\nwant it to contain %s", body, c.body)
			}
			if !strings.Contains(o.errors[0], "HTTP 400: invalid_request_error: "+rj[0].Message) {
				t.Errorf("the harness said %q", o.errors[0])
			}
		})
	}
}

// lastBody is the body of the simulator's last answer, read back from the
// cassette it writes.
func lastBody(t *testing.T, srv *sim.Server) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := srv.WriteCassette(path); err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(c.Interactions[len(c.Interactions)-1].Response.Body)
}

// Judged by rules, not by equality: a harness whose tools say something
// else, that spells a signature with other escapes and adds cache_control
// markers still passes.
func TestCorrectVariationsPass(t *testing.T) {
	sc := load(t, "anthropic/thinking-tool-loop")
	for i := range sc.Tools {
		sc.Tools[i].Result = "tool " + sc.Tools[i].Name + " says something else entirely"
	}
	o := runScenario(t, sc, true, func(call int, req *engine.Request) {
		for i := range req.Messages {
			for j := range req.Messages[i].Blocks {
				b := &req.Messages[i].Blocks[j]
				if b.Type == engine.BlockThinking {
					// "+" and "/" written as \u escapes: the same string.
					esc := strings.NewReplacer("+", `\u002b`, "/", `\u002f`).Replace(string(b.Signature))
					b.Signature = json.RawMessage(esc)
				}
				if b.Type == engine.BlockToolResult {
					b.Extra = map[string]json.RawMessage{"cache_control": json.RawMessage(`{"type":"ephemeral"}`)}
				}
			}
		}
	})
	if rj := o.srv.Rejections(); len(rj) > 0 || o.run.EndReason() != engine.EndFinal {
		t.Fatalf("rejected %v; run ended %q, errors %v", rj, o.run.EndReason(), o.errors)
	}
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := o.srv.WriteCassette(path); err != nil {
		t.Fatal(err)
	}
	sent := readFile(t, path)
	if !bytes.Contains(sent, []byte(`\u002`)) || !bytes.Contains(sent, []byte("says something else")) {
		t.Fatal("the variations did not reach the simulator")
	}
}

func TestOutsideTheRules(t *testing.T) {
	hs := httptest.NewServer(sim.New(load(t, "anthropic/parallel-tools"), sim.Options{}))
	defer hs.Close()
	post := func(path string, header http.Header, body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, hs.URL+path, strings.NewReader(body))
		req.Header = header
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	version := http.Header{"Anthropic-Version": {"2023-06-01"}}
	for _, c := range []struct {
		path   string
		header http.Header
		body   string
		status int
		want   string
	}{
		{"/v1/complete", version, `{}`, 404, `{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}`},
		{"/v1/messages", http.Header{}, `{}`, 400, `"message":"anthropic-version: header is required"`},
		{"/v1/messages", version, `{"model":`, 400, `"type":"invalid_request_error"`},
	} {
		status, body := post(c.path, c.header, c.body)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("POST %s %s: %d %s, want %d with %s", c.path, c.body, status, body, c.status, c.want)
		}
	}
}
