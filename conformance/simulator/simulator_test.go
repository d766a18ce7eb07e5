package simulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// The Anthropic scenarios the simulator's own tests play: single-turn,
// thinking on, a tool loop each.
var anthropicBasics = []string{"anthropic/parallel-tools", "anthropic/redacted-thinking", "anthropic/thinking-tool-loop"}

// outcome is what one run of the reference harness against the simulator
// gave.
type outcome struct {
	sim    *simulator.Simulator
	run    *harness.Run
	errors []string // the harness's error events
}

// runScenario runs the reference harness loop (reference/harness) over
// loopback HTTP against a simulator serving sc's first turn; tamper, when
// set, rewrites each outgoing request.
func runScenario(t *testing.T, sc *scenario.Scenario, stream bool, tamper func(call int, req *traffic.Request)) outcome {
	t.Helper()
	sim := simulator.NewSimulator(sc)
	hs := httptest.NewServer(sim.Handler(sc.Wire))
	t.Cleanup(hs.Close)
	client := hs.Client()
	if tamper != nil {
		client = reference.Tamper(client, sc.Wire, tamper)
	}
	turn := sc.Turns[0]
	h, err := harness.New(harness.Config{BaseURL: hs.URL, Wire: turn.Wire, Model: turn.Model, MaxTokens: sc.MaxTokens,
		Stream: stream, Thinking: sc.Thinking, HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []traffic.Message
	if sc.System != "" {
		msgs = append(msgs, traffic.Message{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: sc.System}}})
	}
	msgs = append(msgs, traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: turn.Prompt}}})
	run, err := h.Start(context.Background(), harness.Params{Messages: msgs, Tools: toolDefinitions(sc.Tools)})
	if err != nil {
		t.Fatal(err)
	}
	out := outcome{sim: sim, run: run}
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

// toolDefinitions registers the scenario's tools with their canned results.
func toolDefinitions(tools []scenario.Tool) []engine.ToolDefinition {
	var out []engine.ToolDefinition
	for _, t := range tools {
		result := t.Result
		out = append(out, engine.ToolDefinition{Name: t.Name, Description: t.Description, Schema: t.InputSchema,
			Execute: func(context.Context, json.RawMessage, engine.ToolContext) (engine.ToolExecutionResult, error) {
				return engine.ToolExecutionResult{Context: result}, nil
			}})
	}
	return out
}

func load(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestSimulatorPassesTheReferenceHarness(t *testing.T) {
	for _, name := range anthropicBasics {
		for _, stream := range []bool{true, false} {
			mode := map[bool]string{true: "stream", false: "json"}[stream]
			t.Run(name+"/"+mode, func(t *testing.T) {
				sc := load(t, name)
				o := runScenario(t, sc, stream, nil)
				if rj := o.sim.Rejections(); len(rj) > 0 {
					t.Fatalf("the reference harness was rejected: %v", rj)
				}
				if len(o.errors) > 0 || o.run.EndReason() != engine.EndFinal || !o.sim.Done() {
					t.Fatalf("run ended %q after %d of %d steps; errors %v", o.run.EndReason(), o.sim.Served(), len(sc.Steps), o.errors)
				}
				for _, f := range o.sim.Judge(nil) {
					if f.Severity != check.SeverityInfo {
						t.Errorf("finding on the reference harness: %v", f)
					}
				}
				// The final answer is the last step's text, as served.
				msgs := o.run.Transcript().Messages()
				last := msgs[len(msgs)-1].Blocks
				final := sc.Steps[len(sc.Steps)-1].Content
				if got := last[len(last)-1].Text; got == "" || !strings.Contains(string(final[len(final)-1]), got) {
					t.Errorf("final text %q is not the last step's", got)
				}
			})
		}
	}
}

// A run repeats byte for byte (tokens are minted under a key derived from
// the scenario), and what the simulator records is a cassette that passes
// the whole catalogue.
func TestSimulatorRunsRepeatByteForByte(t *testing.T) {
	sc := load(t, "anthropic/redacted-thinking")
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		o := runScenario(t, sc, true, nil)
		path := filepath.Join(dir, "run.yaml")
		if err := o.sim.WriteCassette(path); err != nil {
			t.Fatal(err)
		}
		tr, err := report.LoadTraffic(path, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Exchanges) != len(sc.Steps) {
			t.Fatalf("%d exchanges recorded, want %d", len(tr.Exchanges), len(sc.Steps))
		}
		for _, f := range checks.Judge(tr) {
			if f.Severity != check.SeverityInfo {
				t.Errorf("the written cassette fails %v", f)
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

// blockOf returns the first block of type typ in message i of req.
func blockOf(t *testing.T, req *traffic.Request, i int, typ traffic.BlockType) *traffic.Block {
	if i >= 0 && i < len(req.Messages) {
		for j, b := range req.Messages[i].Blocks {
			if b.Type == typ {
				return &req.Messages[i].Blocks[j]
			}
		}
	}
	t.Errorf("request has no %s block in message %d", typ, i)
	return &traffic.Block{}
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

func TestSimulatorRejectsBrokenClients(t *testing.T) {
	cases := []struct {
		name, scenario string
		call           int // the request that is broken
		tamper         func(t *testing.T, req *traffic.Request)
		check, body    string
	}{{
		// The catalogue sees the echoed block differ from the response it
		// came in, before the simulator's own signature verification.
		name: "a flipped signature byte", scenario: "anthropic/thinking-tool-loop", call: 1,
		tamper: func(t *testing.T, req *traffic.Request) {
			b := blockOf(t, req, 1, traffic.BlockThinking)
			b.Signature = flip(b.Signature)
		},
		check: "ANT-THINK-001",
		body:  "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.\"}}",
	}, {
		name: "a dropped tool_result", scenario: "anthropic/parallel-tools", call: 1,
		tamper: func(t *testing.T, req *traffic.Request) { m := &req.Messages[2]; m.Blocks = m.Blocks[:1] },
		check:  "ANT-TOOL-001",
		body:   "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01GtY7nBc3MwQs9vXk5RjHfA. Each `tool_use` block must have a corresponding `tool_result` block in the next message.\"}}",
	}, {
		// History from elsewhere has no recorded origin the catalogue could
		// compare with; only the simulator's own verification sees that this
		// signature was never minted.
		name: "a synthesized thinking block in the starting history", scenario: "anthropic/thinking-tool-loop", call: 0,
		tamper: func(t *testing.T, req *traffic.Request) {
			earlier := []traffic.Message{
				{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "Hi"}}},
				{Role: traffic.RoleAssistant, Blocks: []traffic.Block{
					{Type: traffic.BlockThinking, Text: "Greet back.", Signature: json.RawMessage(`"EqQBCkYIBxgCKkDsynthesizedAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="`)},
					{Type: traffic.BlockText, Text: "Hello!"}}},
			}
			req.Messages = append(earlier, req.Messages...)
		},
		check: "ANT-THINK-003",
		body:  "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1.content.0: Invalid `signature` in `thinking` block\"}}",
	}, {
		name: "redacted data altered", scenario: "anthropic/redacted-thinking", call: 1,
		tamper: func(t *testing.T, req *traffic.Request) {
			b := blockOf(t, req, 1, traffic.BlockRedacted)
			b.Data = flip(b.Data)
		},
		check: "ANT-THINK-001",
		body:  "messages.1.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified.",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runScenario(t, load(t, c.scenario), true, func(call int, req *traffic.Request) {
				if call == c.call {
					c.tamper(t, req)
				}
			})
			rj := o.sim.Rejections()
			if len(rj) != 1 {
				t.Fatalf("rejections %v, want one", rj)
			}
			if rj[0].Check != c.check || rj[0].Step != c.call || rj[0].Status != http.StatusBadRequest {
				t.Errorf("rejected %v, want %s at step %d", rj[0], c.check, c.call)
			}
			if o.run.EndReason() != engine.EndError || len(o.errors) != 1 {
				t.Fatalf("run ended %q with errors %v", o.run.EndReason(), o.errors)
			}
			if n := len(o.sim.Exchanges()); n != c.call {
				t.Errorf("%d calls accepted, want %d", n, c.call)
			}
			// The answer is the provider's own envelope and text, and the
			// harness saw it as it would see the real provider's.
			c2 := o.sim.Cassette()
			if body := string(c2.Interactions[len(c2.Interactions)-1].Response.Body); !strings.Contains(body, c.body) {
				t.Errorf("answered %s\nwant it to contain %s", body, c.body)
			}
			// Beside the body, the check and why, in a header of its own.
			last := c2.Interactions[len(c2.Interactions)-1].Response.Header
			if h := last.Values(simulator.FindingHeader); len(h) != 1 || !strings.HasPrefix(h[0], c.check+" error ") || strings.ContainsAny(h[0], "\r\n") {
				t.Errorf("%s: %q, want one line naming %s", simulator.FindingHeader, h, c.check)
			}
			if !strings.Contains(o.errors[0], "HTTP 400: invalid_request_error: "+rj[0].Message) {
				t.Errorf("the harness said %q", o.errors[0])
			}
		})
	}
}

// Judged by rules, not by equality: a harness whose tools say something
// else, that spells a signature with other escapes and adds cache_control
// markers still passes.
func TestSimulatorAcceptsCorrectVariations(t *testing.T) {
	sc := load(t, "anthropic/thinking-tool-loop")
	for i := range sc.Tools {
		sc.Tools[i].Result = "tool " + sc.Tools[i].Name + " says something else entirely"
	}
	o := runScenario(t, sc, true, func(call int, req *traffic.Request) {
		for i := range req.Messages {
			for j := range req.Messages[i].Blocks {
				b := &req.Messages[i].Blocks[j]
				if b.Type == traffic.BlockThinking {
					// "+" and "/" written as \u escapes: the same string.
					esc := strings.NewReplacer("+", `\u002b`, "/", `\u002f`).Replace(string(b.Signature))
					b.Signature = json.RawMessage(esc)
				}
				if b.Type == traffic.BlockToolResult {
					b.Extra = map[string]json.RawMessage{"cache_control": json.RawMessage(`{"type":"ephemeral"}`)}
				}
			}
		}
	})
	if rj := o.sim.Rejections(); len(rj) > 0 || o.run.EndReason() != engine.EndFinal {
		t.Fatalf("rejected %v; run ended %q, errors %v", rj, o.run.EndReason(), o.errors)
	}
	var sent []byte
	for _, in := range o.sim.Cassette().Interactions {
		sent = append(sent, in.Request.Body...)
	}
	if !bytes.Contains(sent, []byte(`\u002`)) || !bytes.Contains(sent, []byte("says something else")) || !bytes.Contains(sent, []byte("cache_control")) {
		t.Fatal("the variations did not reach the simulator")
	}
}

// Requests outside the rules — another endpoint, a missing header, a body
// that does not decode, one call too many, a call to the wrong provider —
// are refused with the provider's status and error envelope, and logged.
func TestSimulatorRefusesRequestsOutsideTheRules(t *testing.T) {
	sc := load(t, "anthropic/parallel-tools")
	sim := simulator.NewSimulator(sc)
	ant := httptest.NewServer(sim.Handler(traffic.WireAnthropic))
	defer ant.Close()
	oai := httptest.NewServer(sim.Handler(traffic.WireOpenAI))
	defer oai.Close()
	post := func(base, path string, header http.Header, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	version := http.Header{"Anthropic-Version": {"2023-06-01"}, "Content-Type": {"application/json"}}
	first := `{"model":"claude-sonnet-4-5","max_tokens":4096,"system":"You are a concise weather assistant.","messages":[{"role":"user","content":"Compare the weather in Paris and Lyon."}]}`
	for _, c := range []struct {
		name, base, path string
		header           http.Header
		body             string
		status           int
		want             string
	}{
		{"another endpoint", ant.URL, "/v1/complete", version, `{}`, 404, `{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}`},
		{"no version header", ant.URL, "/v1/messages", http.Header{}, first, 400, `"message":"anthropic-version: header is required"`},
		{"a body that does not decode", ant.URL, "/v1/messages", version, `{"model":`, 400, `"type":"invalid_request_error"`},
		{"the wrong provider", oai.URL, "/v1/chat/completions", http.Header{"Authorization": {"Bearer sk-test"}, "Content-Type": {"application/json"}},
			`{"model":"gpt-4.1","messages":[{"role":"user","content":"Compare the weather in Paris and Lyon."}]}`, 400, "step 1 of scenario anthropic/parallel-tools is served by the anthropic simulator, not openai"},
	} {
		status, body := post(c.base, c.path, c.header, c.body)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s: POST %s: %d %s, want %d with %s", c.name, c.path, status, body, c.status, c.want)
		}
	}
	if sim.Served() != 0 || len(sim.Rejections()) != 4 || sim.Requests() != 4 {
		t.Fatalf("served %d, rejected %v, logged %d", sim.Served(), sim.Rejections(), sim.Requests())
	}
	for _, rj := range sim.Rejections() {
		if rj.Check != "" || rj.Step != 0 || rj.Detail == "" {
			t.Errorf("rejection %v: want no check, step 0 and a detail", rj)
		}
	}

	// One call too many: play the scenario to its end, then call again.
	o := runScenario(t, sc, false, nil)
	if !o.sim.Done() {
		t.Fatalf("the scenario did not finish: %v %v", o.sim.Rejections(), o.errors)
	}
	srv := httptest.NewServer(o.sim.Handler(traffic.WireAnthropic))
	defer srv.Close()
	status, body := post(srv.URL, "/v1/messages", version, first)
	if status != 400 || !strings.Contains(body, "scenario anthropic/parallel-tools has 2 steps; request 3 was not expected") {
		t.Errorf("a third call: %d %s", status, body)
	}
}

// abortScenario streams one text answer and has the user press stop after
// four events: message_start, ping, content_block_start and the first
// text delta.
const abortScenario = `{
  "description": "The user presses stop while the answer streams.",
  "model": "claude-sonnet-4-5",
  "max_tokens": 1024,
  "prompt": "Write a haiku about the sea.",
  "steps": [{"content": [{"type": "text", "text": "Waves fold into foam; the tide keeps its patient time, gulls write on the wind."}], "abort_after": 4}]
}`

func TestSimulatorAbortAfterCutsTheStream(t *testing.T) {
	sc, err := scenario.Parse("anthropic/abort", []byte(abortScenario))
	if err != nil {
		t.Fatal(err)
	}
	request := `{"model":"claude-sonnet-4-5","max_tokens":1024,"stream":true,"messages":[{"role":"user","content":"Write a haiku about the sea."}]}`
	send := func(t *testing.T, sim *simulator.Simulator, ctx context.Context) ([]byte, error) {
		t.Helper()
		hs := httptest.NewServer(sim)
		t.Cleanup(hs.Close)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, hs.URL+"/v1/messages", strings.NewReader(request))
		req.Header.Set("Anthropic-Version", "2023-06-01")
		req.Header.Set("Content-Type", "application/json")
		resp, err := hs.Client().Do(req)
		if err != nil {
			return nil, err // stop may be pressed before the headers arrive
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		return io.ReadAll(resp.Body)
	}
	// served waits for the handler to record the partial answer, which it
	// does after the client has gone.
	served := func(t *testing.T, sim *simulator.Simulator) []byte {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); sim.Served() == 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the aborted step was never recorded")
			}
		}
		c := sim.Cassette()
		if len(c.Interactions) != 1 {
			t.Fatalf("%d interactions", len(c.Interactions))
		}
		return c.Interactions[0].Response.Body
	}
	partial := func(t *testing.T, body []byte) {
		t.Helper()
		if n := bytes.Count(body, []byte("event: ")); n != 4 || !bytes.Contains(body, []byte(`"text":"Waves fold into foam`)) || bytes.Contains(body, []byte("message_stop")) {
			t.Errorf("want the first 4 events only, got %d:\n%s", n, body)
		}
	}

	t.Run("no OnCancel: the connection is cut", func(t *testing.T) {
		sim := simulator.NewSimulator(sc)
		got, err := send(t, sim, context.Background())
		if err == nil {
			t.Errorf("the stream ended cleanly; want a cut connection")
		}
		partial(t, got)
		partial(t, served(t, sim))
	})

	t.Run("OnCancel: the hook presses stop and the client hangs up", func(t *testing.T) {
		sim := simulator.NewSimulator(sc)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var pressed atomic.Int32
		sim.OnCancel = func() { pressed.Add(1); cancel() }
		if _, err := send(t, sim, ctx); err == nil {
			t.Errorf("the read was not cancelled")
		}
		partial(t, served(t, sim))
		if pressed.Load() != 1 {
			t.Errorf("OnCancel called %d times", pressed.Load())
		}
		if notes := sim.Notes(); len(notes) > 0 {
			t.Errorf("notes %v", notes)
		}
		if !sim.Done() || len(sim.Rejections()) > 0 {
			t.Errorf("done %v, rejections %v", sim.Done(), sim.Rejections())
		}
	})

	t.Run("OnCancel ignored: cut after CancelWait with a note", func(t *testing.T) {
		sim := simulator.NewSimulator(sc)
		sim.CancelWait = 50 * time.Millisecond
		sim.OnCancel = func() {} // a harness that does not stop reading
		if _, err := send(t, sim, context.Background()); err == nil {
			t.Errorf("the stream ended cleanly; want a cut connection")
		}
		partial(t, served(t, sim))
		if notes := sim.Notes(); len(notes) != 1 || !strings.Contains(notes[0], "kept the aborted response open") {
			t.Errorf("notes %v", notes)
		}
	})
}

// retryScenario: the first answer is prose, so the harness retries with
// the turn's feedback; then the user asks on.
const retryScenario = `{
  "description": "A schema retry, then a second turn.",
  "model": "claude-sonnet-4-5",
  "max_tokens": 1024,
  "system": "You extract contact details from e-mail signatures.",
  "turns": [
    {"prompt": "Extract the contact: \"Marta Ruiz | Nordwind GmbH | +49 30 1234567\"",
     "output_schema": {"type": "object", "required": ["name", "phone"]},
     "feedback": "Your answer was not valid JSON for the schema. Reply with only a JSON object.",
     "steps": [{"content": [{"type": "text", "text": "The contact is Marta Ruiz, +49 30 1234567."}]},
               {"content": [{"type": "text", "text": "{\"name\":\"Marta Ruiz\",\"phone\":\"+49 30 1234567\"}"}]}]},
    {"prompt": "Which country is that number in?",
     "steps": [{"content": [{"type": "text", "text": "Germany."}]}]}
  ]
}`

// The simulator declares each turn's feedback ephemeral, in its Traffic and
// in the cassette it writes, so HIST-005 catches a harness that keeps the
// feedback in its history — live and from the written file alike.
func TestSimulatorDeclaresEphemeralFeedback(t *testing.T) {
	sc, err := scenario.Parse("anthropic/retry", []byte(retryScenario))
	if err != nil {
		t.Fatal(err)
	}
	feedback := sc.Turns[0].Feedback
	for _, keep := range []bool{false, true} {
		t.Run(map[bool]string{false: "feedback dropped", true: "feedback kept"}[keep], func(t *testing.T) {
			sim, err := simulator.Play(sc, func(s *simulator.Session) error { return playRetry(s, keep) })
			if err != nil {
				t.Fatal(err)
			}
			if !sim.Done() || len(sim.Rejections()) > 0 {
				t.Fatalf("served %d of %d steps; rejections %v", sim.Served(), len(sc.Steps), sim.Rejections())
			}
			if tr := sim.Traffic(); !slices.Equal(tr.Ephemeral, []string{feedback}) {
				t.Fatalf("Traffic().Ephemeral = %q", tr.Ephemeral)
			}
			path := filepath.Join(t.TempDir(), "retry.yaml")
			if err := sim.WriteCassette(path); err != nil {
				t.Fatal(err)
			}
			tr, err := report.LoadTraffic(path, "")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tr.Ephemeral, []string{feedback}) {
				t.Fatalf("the cassette declares %q", tr.Ephemeral)
			}
			only := []*check.Check{checks.Lookup("HIST-005")}
			for what, fs := range map[string][]check.Finding{"live": sim.Judge(only), "from the cassette": check.Judge(tr, only)} {
				var got []string
				for _, f := range fs {
					got = append(got, fmt.Sprintf("%d %s %s", f.Interaction, f.Severity, f.Location))
				}
				var want []string
				if keep {
					want = []string{"2 warning request.messages[2].content[0]"}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: HIST-005 found %q, want %q", what, got, want)
				}
			}
		})
	}
}

// playRetry plays a scenario's turns with the reference loop, retrying an
// answer that does not match the turn's schema once with its feedback. The
// history then keeps only the accepted answer or, with keep (a broken
// harness), the rejected answer and the feedback too.
func playRetry(s *simulator.Session, keep bool) error {
	history := []traffic.Message{{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: s.System}}}}
	say := func(role traffic.Role, text string) traffic.Message {
		return traffic.Message{Role: role, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: text}}}
	}
	for _, turn := range s.Turns {
		h, err := harness.New(harness.Config{BaseURL: s.BaseURL(turn.Provider), Wire: turn.Provider, Model: turn.Model, MaxTokens: s.MaxTokens})
		if err != nil {
			return err
		}
		ask := func(msgs []traffic.Message) ([]traffic.Message, string, error) {
			run, err := h.Start(context.Background(), harness.Params{Messages: msgs})
			if err != nil {
				return nil, "", err
			}
			for ev := range run.Events() {
				if e, ok := ev.(engine.ErrorEvent); ok {
					return nil, "", e.Err
				}
			}
			out := run.Transcript().Messages()
			last := out[len(out)-1].Blocks
			return out, last[len(last)-1].Text, nil
		}
		prompt := say(traffic.RoleUser, turn.Prompt)
		out, answer, err := ask(append(slices.Clone(history), prompt))
		if err != nil {
			return err
		}
		if !turn.Valid(answer) {
			if out, answer, err = ask(append(out, say(traffic.RoleUser, turn.Feedback))); err != nil {
				return err
			}
			if !turn.Valid(answer) {
				return fmt.Errorf("turn %q: %q is still not valid", turn.Prompt, answer)
			}
		}
		if keep {
			history = out
		} else {
			history = append(history, prompt, say(traffic.RoleAssistant, answer))
		}
	}
	return nil
}

// Preserved thinking's prefix check runs on the models Anthropic lists
// (claude-fable-5-1 …): a system prompt edited under signed thinking is
// refused there, unless the request asks for prefix_mismatch_behavior
// drop_block; older models such as the scenarios' claude-sonnet-4-5 accept
// it, and the simulator does too (a warning, not a 400).
func TestPrefixBindingPerModel(t *testing.T) {
	cases := []struct {
		name, model   string
		drop, refused bool
	}{
		{"a preserved-thinking model", "claude-fable-5-1", false, true},
		{"the same asking to drop the block", "claude-fable-5-1", true, false},
		{"an older model", "claude-sonnet-4-5", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runScenario(t, load(t, "anthropic/thinking-tool-loop"), true, func(call int, req *traffic.Request) {
				req.Model = c.model
				if c.drop {
					req.Thinking.Raw = json.RawMessage(`{"type":"enabled","budget_tokens":2048,"block_binding":{"prefix_mismatch_behavior":"drop_block"}}`)
				}
				if call == 2 {
					req.System[0].Text += " Today is Monday."
				}
			})
			rj := o.sim.Rejections()
			if c.refused != (len(rj) == 1) {
				t.Fatalf("rejections %v, refused want %v", rj, c.refused)
			}
			if c.refused {
				body := string(o.sim.Cassette().Interactions[2].Response.Body)
				if rj[0].Check != "ANT-THINK-009" || !strings.Contains(body, "Invalid `signature` in `thinking` block. The block is bound to a different conversation.") {
					t.Errorf("refused %v: %s", rj[0], body)
				}
				return
			}
			warned := false
			for _, f := range o.sim.Findings() {
				warned = warned || f.Check == "ANT-THINK-009" && f.Severity == check.SeverityWarning
			}
			if !warned || !o.sim.Done() {
				t.Errorf("want the run answered whole with an ANT-THINK-009 warning; done %v, findings %v", o.sim.Done(), o.sim.Findings())
			}
		})
	}
}
