package scenario_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/providers/gemini"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// gemPlay is what one reference-harness play of a Gemini scenario gave.
type gemPlay struct {
	sim    *simulator.Simulator
	ends   []engine.EndReason // per turn
	errors []string           // the harness's error events
	final  string             // the text of the last assistant message
}

// playGemini plays sc with the reference harness over loopback HTTP, turn
// after turn, keeping the conversation as an application would; tamper,
// when set, rewrites each request body the harness sends.
func playGemini(t testing.TB, name string, stream bool, tamper func(call int, req *traffic.Request)) gemPlay {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	var out gemPlay
	client := http.DefaultClient
	if tamper != nil {
		client = reference.Tamper(nil, traffic.WireGemini, tamper)
	}
	out.sim, err = simulator.Play(sc, func(s *conformance.Session) error {
		var history []traffic.Message
		if s.System != "" {
			history = append(history, traffic.Message{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: s.System}}})
		}
		for _, turn := range s.Turns {
			history = append(history, traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: turn.Prompt}}})
			ctx, cancel := context.WithCancel(context.Background())
			s.OnCancel(cancel)
			h, err := harness.New(harness.Config{BaseURL: s.BaseURL(turn.Provider), Wire: turn.Provider, Model: turn.Model,
				MaxTokens: s.MaxTokens, Stream: stream, Thinking: s.Thinking, HTTPClient: client, APIKey: "sim-key"})
			if err != nil {
				cancel()
				return err
			}
			run, err := h.Start(ctx, harness.Params{Messages: history, Tools: reference.Tools(s.Tools)})
			if err != nil {
				cancel()
				return err
			}
			for ev := range run.Events() {
				switch ev := ev.(type) {
				case engine.RelayEvent:
					ev.Respond(engine.PermissionResponse{Approved: true})
				case engine.ErrorEvent:
					out.errors = append(out.errors, ev.Err.Error())
				}
			}
			cancel()
			out.ends = append(out.ends, run.EndReason())
			history = run.Transcript().Messages()
			if run.EndReason() == engine.EndError {
				break
			}
		}
		if last := history[len(history)-1]; last.Role == traffic.RoleAssistant {
			for _, b := range last.Blocks {
				out.final += b.Text
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gemAnswer is the text of the scenario's last step, as served.
func gemAnswer(t *testing.T, name string) string {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, raw := range sc.Steps[len(sc.Steps)-1].Content {
		var p struct{ Text string }
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		text += p.Text
	}
	return text
}

// checkClean fails t on anything but a clean play: a rejection, an
// unfinished scenario, a harness error, an error or warning finding of
// the simulator or of the whole catalogue on the traffic.
func checkClean(t *testing.T, p gemPlay) {
	t.Helper()
	if rj := p.sim.Rejections(); len(rj) > 0 {
		t.Fatalf("the reference harness was rejected: %v", rj)
	}
	if !p.sim.Done() || len(p.errors) > 0 {
		t.Fatalf("served %d of %d steps; turns ended %v; errors %v", p.sim.Served(), len(p.sim.Scenario().Steps), p.ends, p.errors)
	}
	for _, f := range append(p.sim.Findings(), checks.Judge(p.sim.Traffic())...) {
		if f.Severity != check.SeverityInfo {
			t.Errorf("finding on the reference harness: %v", f)
		}
	}
}

func TestGeminiReferenceHarnessPasses(t *testing.T) {
	for _, name := range []string{"gemini/sequential-calls", "gemini/parallel-calls"} {
		for _, stream := range []bool{true, false} {
			t.Run(name+"/"+map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
				p := playGemini(t, name, stream, nil)
				checkClean(t, p)
				if len(p.ends) != 1 || p.ends[0] != engine.EndFinal {
					t.Errorf("the run ended %v", p.ends)
				}
				if want := gemAnswer(t, name); p.final != want {
					t.Errorf("final answer %q, want %q", p.final, want)
				}
				// Every signature minted was echoed, in place, by the
				// request after it.
				calls := p.sim.Traffic().Exchanges
				last := calls[len(calls)-1].Request
				signed := 0
				for _, m := range last.Messages {
					for _, b := range m.Blocks {
						if b.Signature != nil {
							signed++
						}
					}
				}
				if want := len(calls) - 1; signed != want {
					t.Errorf("the last request echoes %d signatures, want %d (one per earlier step)", signed, want)
				}
			})
		}
	}
}

// The reference engine's multi-turn adapter passes every Gemini scenario
// under conformance.Run, streamed and not.
func TestGeminiReferenceAdapterPasses(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			conformance.Run(t, playReference(reference.Options{Stream: stream}), conformance.Scenarios("gemini/*"))
		})
	}
}

// The cancelled call is answered with an error functionResponse in the
// next turn's request, and the new prompt is answered.
func TestGeminiCancelledCall(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			p := playGemini(t, "gemini/cancelled-call", stream, nil)
			checkClean(t, p)
			if len(p.ends) != 2 || p.ends[0] != engine.EndCancelled || p.ends[1] != engine.EndFinal {
				t.Fatalf("turns ended %v, want cancelled then final", p.ends)
			}
			req := p.sim.Traffic().Exchanges[1].Request
			// user, model (the call), user (its response), user (the new prompt)
			if len(req.Messages) != 4 {
				t.Fatalf("turn 2 sends %d contents: %+v", len(req.Messages), req.Messages)
			}
			res := req.Messages[2].Blocks[0]
			if res.Type != traffic.BlockToolResult || res.Name != "run_tests" || !bytes.HasPrefix(rawjson.Compact(res.ResultRaw), []byte(`{"error":`)) {
				t.Errorf("the cancelled call is answered with %s %s %s", res.Type, res.Name, res.ResultRaw)
			}
			if want := gemAnswer(t, "gemini/cancelled-call"); p.final != want {
				t.Errorf("final answer %q, want %q", p.final, want)
			}
		})
	}
}

// flipSig changes one character in the middle of a signature token.
func flipSig(raw json.RawMessage) json.RawMessage {
	b := append(json.RawMessage(nil), raw...)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return b
}

// calls returns the functionCall parts of content i of req.
func calls(req *traffic.Request, i int) []*traffic.Block {
	var out []*traffic.Block
	for j := range req.Messages[i].Blocks {
		if b := &req.Messages[i].Blocks[j]; b.Type == traffic.BlockToolCall {
			out = append(out, b)
		}
	}
	return out
}

func TestGeminiBrokenClientsAreRejected(t *testing.T) {
	const missing = "Function call is missing a thought_signature in functionCall parts."
	cases := []struct {
		name, scenario string
		call           int // the request that is broken
		tamper         func(req *traffic.Request)
		checks         []string // the check named, any of
		message        string
	}{{
		name: "a signature byte altered", scenario: "gemini/sequential-calls", call: 1,
		tamper:  func(req *traffic.Request) { c := calls(req, 1)[0]; c.Signature = flipSig(c.Signature) },
		checks:  []string{"GEM-SIG-003"},
		message: "Corrupted thought signature.",
	}, {
		name: "the signature of a current-turn call dropped", scenario: "gemini/sequential-calls", call: 2,
		tamper:  func(req *traffic.Request) { calls(req, 3)[0].Signature = nil },
		checks:  []string{"GEM-SIG-002"},
		message: missing,
	}, {
		name: "the signature moved from the first parallel call to the second", scenario: "gemini/parallel-calls", call: 1,
		tamper: func(req *traffic.Request) {
			cs := calls(req, 1)
			cs[0].Signature, cs[1].Signature = nil, cs[0].Signature
		},
		checks: []string{"GEM-SIG-002", "GEM-SIG-003"},
	}, {
		// A call the client wrote into the current turn, with a signature
		// no response gave: only the simulator's own verification sees it.
		name: "a written call with a made-up signature", scenario: "gemini/sequential-calls", call: 0,
		tamper: func(req *traffic.Request) {
			req.Messages = append(req.Messages, gemWrittenCall(`"CpYEAXLI2nxHJhy3F4oMijlAus2CPUEnTw16KkDpmU77MgVhg6piCF3GycCmKbjhGXQ8mBK5lSpsqwI7DapurrH+NcQiuUJYF1CpS438/kC6pw0J"`)...)
		},
		checks:  []string{"GEM-SIG-003"},
		message: "Corrupted thought signature.",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := playGemini(t, c.scenario, false, func(call int, req *traffic.Request) {
				if call == c.call {
					c.tamper(req)
				}
			})
			rj := p.sim.Rejections()
			if len(rj) != 1 {
				t.Fatalf("rejections %v, want one", rj)
			}
			if !contains(c.checks, rj[0].Check) || rj[0].Step != c.call || rj[0].Status != http.StatusBadRequest {
				t.Errorf("rejected %v, want one of %v at step %d", rj[0], c.checks, c.call)
			}
			if len(p.errors) != 1 || p.ends[len(p.ends)-1] != engine.EndError {
				t.Fatalf("turns ended %v with errors %v", p.ends, p.errors)
			}
			// Google's error envelope, as the harness read it.
			body := lastResponse(t, p.sim)
			var e struct {
				Error struct {
					Code    int
					Message string
					Status  string
				}
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != 400 || e.Error.Status != "INVALID_ARGUMENT" || !strings.Contains(e.Error.Message, c.message) {
				t.Errorf("answered %s", body)
			}
			if !strings.Contains(p.errors[0], "400") || !strings.Contains(p.errors[0], rj[0].Message) {
				t.Errorf("the harness said %q", p.errors[0])
			}
		})
	}
}

// gemWrittenCall is a model turn the client wrote, one call signed with
// sig, and its function response.
func gemWrittenCall(sig string) []traffic.Message {
	return []traffic.Message{
		{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockToolCall, WireType: "functionCall", Name: "get_weather",
			Input: json.RawMessage(`{"city":"Cannes"}`), Signature: json.RawMessage(sig)}}},
		{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockToolResult, WireType: "functionResponse", Name: "get_weather",
			ResultRaw: json.RawMessage(`{"output":"23 °C"}`)}}},
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lastResponse is the body of the simulator's last answer.
func lastResponse(t *testing.T, sim *simulator.Simulator) []byte {
	t.Helper()
	c := sim.Cassette()
	return c.Interactions[len(c.Interactions)-1].Response.Body
}

// Judged by rules, not by equality: signatures echoed in the URL-safe
// alphabet (as pydantic-ai does), and a call the client wrote with the
// documented dummy signature, pass.
func TestGeminiCorrectVariationsPass(t *testing.T) {
	t.Run("url-safe signatures", func(t *testing.T) {
		p := playGemini(t, "gemini/sequential-calls", true, func(call int, req *traffic.Request) {
			for i := range req.Messages {
				for j := range req.Messages[i].Blocks {
					b := &req.Messages[i].Blocks[j]
					if b.Signature == nil {
						continue
					}
					sig, err := gemini.SignatureBytes(b.Signature)
					if err != nil {
						t.Error(err)
						continue
					}
					b.Signature = rawjson.Quote(base64.URLEncoding.EncodeToString(sig))
				}
			}
		})
		checkClean(t, p)
	})
	// @google/genai's streamed Chat keeps each chunk as a model content of
	// its own: several model contents in a row, the signature on the
	// part that carried it. Gemini reads them as one turn.
	for _, name := range []string{"gemini/sequential-calls", "gemini/parallel-calls", "gemini/follow-up", "gemini/cancelled-call"} {
		t.Run("a model content per streamed chunk/"+name, func(t *testing.T) {
			checkClean(t, playGemini(t, name, true, func(call int, req *traffic.Request) { req.Messages = splitModelContents(req.Messages) }))
		})
	}
	t.Run("a written call with the dummy signature", func(t *testing.T) {
		p := playGemini(t, "gemini/parallel-calls", false, func(call int, req *traffic.Request) {
			// After the prompt, in every request, so the history stays.
			written := gemWrittenCall(`"skip_thought_signature_validator"`)
			req.Messages = append(req.Messages[:1], append(written, req.Messages[1:]...)...)
		})
		if rj := p.sim.Rejections(); len(rj) > 0 || !p.sim.Done() {
			t.Fatalf("rejections %v; served %d steps", rj, p.sim.Served())
		}
	})
}

// Requests outside the API are answered as Google answers them.
func TestGeminiEndpoint(t *testing.T) {
	sc, err := scenario.Load("gemini/parallel-calls")
	if err != nil {
		t.Fatal(err)
	}
	body := `{"contents":[{"role":"user","parts":[{"text":"Which is warmer right now, Madrid or Lisbon?"}]}]}`
	cases := []struct {
		method, path string
		status       int
		message      string
	}{
		{"POST", "/v1beta/models/gemini-3-pro-preview:countTokens", 404, "Requested entity was not found."},
		{"GET", "/v1beta/models/gemini-3-pro-preview:generateContent", 404, "Requested entity was not found."},
		{"POST", "/v1/chat/completions", 404, "Requested entity was not found."},
		{"POST", "/v1beta/models/gemini-3-pro-preview:streamGenerateContent", 400, "add ?alt=sse"},
		{"POST", "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse&key=sim-key", 200, ""},
	}
	for _, c := range cases {
		var got *http.Response
		var data []byte
		_, err := simulator.Play(sc, func(s *conformance.Session) error {
			r, err := http.NewRequest(c.method, s.BaseURL(traffic.WireGemini)+c.path, strings.NewReader(body))
			if err != nil {
				return err
			}
			if got, err = http.DefaultClient.Do(r); err != nil {
				return err
			}
			defer got.Body.Close()
			data, err = io.ReadAll(got.Body)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.StatusCode != c.status || !strings.Contains(string(data), c.message) {
			t.Errorf("%s %s: %d %s", c.method, c.path, got.StatusCode, data)
		}
		if c.status != 200 && !strings.Contains(string(data), `{"error":{"code":`) {
			t.Errorf("%s %s: not Google's error shape: %s", c.method, c.path, data)
		}
		if c.status == 200 && (!strings.HasPrefix(string(data), "data: {\"candidates\":") || got.Header.Get("Content-Type") != "text/event-stream") {
			t.Errorf("%s %s: not an event stream: %s", c.method, c.path, data)
		}
	}
}

func TestGeminiParseErrors(t *testing.T) {
	const ok = `{"model":"gemini-3-pro-preview","prompt":"p","tools":[{"name":"t","result":"r"}],"steps":[{"content":[{"functionCall":{"name":"t","args":{}},"thoughtSignature":"{{mint}}"}]}]}`
	if _, err := scenario.Parse("gemini/x", []byte(ok)); err != nil {
		t.Fatalf("a minimal scenario: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"thoughtSignature":"{{mint}}"`, `"thoughtSignature":"EpwI"`, `steps[0].content[0].thoughtSignature: want "{{mint}}"`},
		{`"name":"t","args"`, `"name":"u","args"`, `steps[0].content[0].functionCall.name: tool "u" is not among the scenario's tools`},
		{`"args":{}`, `"args":[1]`, `steps[0].content[0].functionCall.args: want an object`},
		{`"args":{}`, `"args":{},"willContinue":true`, `steps[0].content[0].functionCall.willContinue: a functionCall holds name, args and id`},
		{`{"functionCall"`, `{"functionResponse":{"name":"t","response":{}}},{"functionCall"`, `steps[0].content[0].functionResponse: a model part here holds`},
		{`{"functionCall"`, `{"text":"a","thought":false},{"functionCall"`, `steps[0].content[0].thought: want true`},
		{`{"functionCall"`, `{"thoughtSignature":"{{mint}}"},{"functionCall"`, `steps[0].content[0]: want exactly one of text and functionCall, got 0`},
		{`{"functionCall"`, `{"text":"a"},{"text":"b"},{"functionCall"`, `two plain text parts in a row are one part once streamed`},
	} {
		data := strings.Replace(ok, c.from, c.to, 1)
		if _, err := scenario.Parse("gemini/x", []byte(data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want an error containing %q", data, err, c.want)
		}
	}
}

// A play repeats byte for byte (signatures are minted under a key derived
// from the scenario), and the cassette the simulator writes passes the
// whole catalogue when read back.
func TestGeminiCassetteRepeatsAndPasses(t *testing.T) {
	var files [2][]byte
	for i := range files {
		p := playGemini(t, "gemini/parallel-calls", true, nil)
		path := filepath.Join(t.TempDir(), "run.yaml")
		if err := p.sim.WriteCassette(path); err != nil {
			t.Fatal(err)
		}
		tr, err := report.LoadTraffic(path, traffic.WireGemini)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range checks.Judge(tr) {
			if f.Severity != check.SeverityInfo {
				t.Errorf("the written cassette: %v", f)
			}
		}
		if files[i], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("two plays of one scenario wrote different cassettes")
	}
	if !bytes.Contains(files[0], []byte(`"thoughtSignature":"`)) || bytes.Contains(files[0], []byte(scenario.Placeholder)) {
		t.Fatal("the cassette lacks minted signatures, or kept a placeholder")
	}
}

// FuzzGeminiVerify: any request body a client sends is verified and
// answered without a panic, whatever its contents hold.
func FuzzGeminiVerify(f *testing.F) {
	p := playGemini(f, "gemini/sequential-calls", true, nil)
	for _, in := range p.sim.Cassette().Interactions {
		if corpus.FuzzSeed(in.Request.Body) {
			f.Add(in.Request.Body)
		}
	}
	f.Add([]byte(`{"contents":[{"role":"model","parts":[{"functionCall":{"name":"x"},"thoughtSignature":"AAAA"},{"text":"","thoughtSignature":7}]},{"role":"user","parts":[]}]}`))
	sc, err := scenario.Load("gemini/sequential-calls")
	if err != nil {
		f.Fatal(err)
	}
	m := scenario.NewMinter([]byte("fuzz"))
	codec := providers.For(traffic.WireGemini)
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := codec.DecodeRequest(body)
		if err != nil {
			return
		}
		if fault := scenario.Verify(m, traffic.WireGemini, req); fault != nil && fault.Check != "GEM-SIG-003" {
			t.Fatalf("fault %v", fault)
		}
		for n := range sc.Steps {
			if _, _, err := sc.Respond(m, n, req, n%2 == 0); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// Edits of the history under a signed call are not refused: Google binds a
// signature to the model, route and key (docs/provider-rules.md G3), and no
// public document to the history before it. The simulator reports them as a
// GEM-SIG-003 warning and answers.
func TestGeminiHistoryEditsAreWarnings(t *testing.T) {
	cases := []struct {
		name   string
		call   int
		tamper func(req *traffic.Request)
	}{
		{"a function response edited under a later signed call", 2, func(req *traffic.Request) {
			req.Messages[2].Blocks[0].ResultRaw = json.RawMessage(`{"output":"31 °C, sunny"}`)
		}},
		{"a system instruction that changes per request", 1, func(req *traffic.Request) {
			req.System = []traffic.Block{{Type: traffic.BlockText, Text: "Now: 2026-11-25T05:02:41Z"}}
		}},
		{"a part inserted before the signed call", 1, func(req *traffic.Request) {
			for i := range req.Messages {
				if len(calls(req, i)) > 0 {
					req.Messages[i].Blocks = append([]traffic.Block{{Type: traffic.BlockText, Text: "Let me check."}}, req.Messages[i].Blocks...)
					return
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := playGemini(t, "gemini/sequential-calls", false, func(call int, req *traffic.Request) {
				if call == c.call {
					c.tamper(req)
				}
			})
			if rj := p.sim.Rejections(); len(rj) != 0 {
				t.Fatalf("refused %v: Gemini is not known to refuse it", rj)
			}
			if !p.sim.Done() {
				t.Fatalf("the run stopped after %d steps", p.sim.Served())
			}
		})
	}
}

// splitModelContents puts each part of a model content in a content of its
// own, as @google/genai's streamed Chat keeps a stream's chunks, and cuts
// an unsigned text or thought in two chunks, as a stream delivers it.
func splitModelContents(msgs []traffic.Message) []traffic.Message {
	var out []traffic.Message
	for _, m := range msgs {
		if m.Role != traffic.RoleAssistant {
			out = append(out, m)
			continue
		}
		for _, b := range m.Blocks {
			pieces := []traffic.Block{b}
			if r := []rune(b.Text); (b.Type == traffic.BlockText || b.Type == traffic.BlockThinking) && b.Signature == nil && len(r) >= 2 {
				first, second := b, b
				first.Text, second.Text = string(r[:len(r)/2]), string(r[len(r)/2:])
				pieces = []traffic.Block{first, second}
			}
			for _, p := range pieces {
				one := m
				one.Blocks = []traffic.Block{p}
				out = append(out, one)
			}
		}
	}
	return out
}

// Split into a content per part or not, a signature moved off its call
// onto another part is still refused.
func TestGeminiSplitContentsStillJudgeMovedSignatures(t *testing.T) {
	p := playGemini(t, "gemini/sequential-calls", true, func(call int, req *traffic.Request) {
		req.Messages = splitModelContents(req.Messages)
		if call != 1 {
			return
		}
		for i := range req.Messages {
			bs := req.Messages[i].Blocks
			if len(bs) == 1 && bs[0].Type == traffic.BlockToolCall && bs[0].Signature != nil {
				// Onto the function response that answers it.
				req.Messages[i+1].Blocks[0].Signature, bs[0].Signature = bs[0].Signature, nil
				return
			}
		}
		t.Fatal("no signed call in a content of its own")
	})
	rj := p.sim.Rejections()
	if len(rj) == 0 || !strings.HasPrefix(rj[0].Check, "GEM-") {
		t.Fatalf("rejections %v: a signature moved off its call passed", rj)
	}
}
