package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

func newGeminiHarness(t *testing.T, p *provider, stream bool) *harness.Harness {
	t.Helper()
	h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: traffic.WireGemini, Model: "gemini-test", Stream: stream, APIKey: "goog-test"})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The parts of a Gemini 3 tool turn: a thought summary, two parallel calls
// without ids (only the first signed), a trailing signature-only part.
// Signatures hold escapes a re-encoder would change.
var (
	geminiThought  = `{"text":"Let me look at both.","thought":true}`
	geminiCallA    = `{"functionCall":{"name":"read","args":{"path":"src/<a>.go"}},"thoughtSignature":"CpYE\/sig+A=="}`
	geminiCallB    = `{"functionCall":{"name":"read","args":{"path":"src/b.go"}}}`
	geminiTrailSig = `{"text":"","thoughtSignature":"Trail\/sig\u003d="}`
	geminiToolTurn = gTurn{in: 40, out: 20, chunks: [][]string{{geminiThought}, {geminiCallA, geminiCallB}, {geminiTrailSig}}}
	geminiFinal    = gTurn{in: 90, out: 6, chunks: [][]string{{`{"text":"Both hold "}`}, {`{"text":"Go code."}`}, {`{"text":"","thoughtSignature":"EndSig=="}`}}}
)

// The loop runs on the Gemini wire, streamed and not. Calls that came
// without an id get a local one in the transcript, which never goes on the
// wire: the next request echoes the model turn exactly as received — every
// part in place, signatures byte for byte, the signature-only part kept —
// and answers it with one user turn of functionResponse{name, response}
// parts, one per call, in call order.
func TestGeminiLoop(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "streamed", false: "document"}[stream], func(t *testing.T) {
			reply := gDocument
			if stream {
				reply = gStream
			}
			p := newWireProvider(t, traffic.WireGemini, reply(geminiToolTurn), reply(geminiFinal))
			var ran []string
			run, err := newGeminiHarness(t, p, stream).Start(context.Background(), harness.Params{
				Messages:    []traffic.Message{{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "be brief"}}}, userText("what is in src?")},
				Tools:       []engine.ToolDefinition{echoTool("read", &ran)},
				Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "read"}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			evs := collect(t, run.Events(), nil)
			checkEvents(t, evs)
			if e := end(evs); e.Reason != engine.EndFinal || e.TotalUsage.InputTokens != 130 || e.TotalUsage.OutputTokens != 26 {
				t.Fatalf("end %+v (%s)", e, types(evs))
			}
			if len(ran) != 2 || ran[0] == ran[1] || !harness.IsLocalCallID(ran[0]) || !harness.IsLocalCallID(ran[1]) {
				t.Errorf("tools ran for calls %v, want two distinct local ids", ran)
			}
			msgs := run.Transcript().Messages()
			if err := engine.Validate(msgs); err != nil {
				t.Error(err)
			}
			var text string
			for _, ev := range evs {
				if e, ok := ev.(engine.TextEvent); ok {
					text += e.Content
				}
			}
			if text != "Both hold Go code." {
				t.Errorf("text events %q", text)
			}

			body := p.body(1)
			model := `{"role":"model","parts":[` + strings.Join([]string{geminiThought, geminiCallA, geminiCallB, geminiTrailSig}, ",") + `]}`
			results := `{"role":"user","parts":[{"functionResponse":{"name":"read","response":{"output":"read src/<a>.go"}}},{"functionResponse":{"name":"read","response":{"output":"read src/b.go"}}}]}`
			if !strings.Contains(body, `"contents":[{"role":"user","parts":[{"text":"what is in src?"}]},`+model+","+results+"]") {
				t.Errorf("second body does not echo the model turn and answer it:\n%s", body)
			}
			if strings.Contains(body, `"id"`) || strings.Contains(body, harness.LocalCallIDPrefix) {
				t.Errorf("an id the provider never sent went on the wire:\n%s", body)
			}
			if !strings.Contains(body, `"systemInstruction":{"parts":[{"text":"be brief"}]}`) {
				t.Errorf("system instruction: %s", body)
			}
		})
	}
}

// Ids the provider did send are echoed on the call and its response.
func TestGeminiCallIDsEchoed(t *testing.T) {
	call := `{"functionCall":{"id":"fc-9","name":"read","args":{"path":"src/c.go"}},"thoughtSignature":"Sig=="}`
	p := newWireProvider(t, traffic.WireGemini, gDocument(gTurn{chunks: [][]string{{call}}}), gDocument(geminiFinal))
	var ran []string
	run, err := newGeminiHarness(t, p, false).Start(context.Background(), harness.Params{Messages: []traffic.Message{userText("q")},
		Tools: []engine.ToolDefinition{echoTool("read", &ran)}, Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "read"}}}})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, run.Events(), nil))
	want := `{"role":"model","parts":[` + call + `]},{"role":"user","parts":[{"functionResponse":{"id":"fc-9","name":"read","response":{"output":"read src/c.go"}}}]}`
	if len(ran) != 1 || ran[0] != "fc-9" || !strings.Contains(p.body(1), want) {
		t.Errorf("ran %v; second body:\n%s", ran, p.body(1))
	}
}

// Cancelling while the reply streams keeps the text received so far as a
// truncated model turn; the next request built from the transcript is
// valid on the wire.
func TestGeminiCancelDuringStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tu := gTurn{cut: true, chunks: [][]string{{`{"text":"The answer is"}`}, {`{"text":" forty-two."}`}}}
	p := newWireProvider(t, traffic.WireGemini, gStream(tu), gStream(geminiFinal))
	h := newGeminiHarness(t, p, true)
	cut, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: traffic.WireGemini, Model: "gemini-test", Stream: true, APIKey: "goog-test",
		HTTPClient: cancelOnRead(`"The answer is"`, cancel)})
	if err != nil {
		t.Fatal(err)
	}
	run, err := cut.Start(ctx, harness.Params{Messages: []traffic.Message{userText("q")}})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), nil)
	checkEvents(t, evs)
	if e := end(evs); e.Reason != engine.EndCancelled {
		t.Fatalf("end %+v (%s)", e, types(evs))
	}
	tr := run.Transcript()
	msgs := tr.Messages()
	if len(msgs) != 2 || msgs[1].Blocks[0].Text != "The answer is" || !tr.Note(1).Truncated {
		t.Fatalf("history %+v", msgs)
	}
	if err := engine.Validate(msgs); err != nil {
		t.Fatal(err)
	}
	continueRun(t, p, h, msgs)
	if want := `{"role":"model","parts":[{"text":"The answer is"}]},{"role":"user","parts":[{"text":"go on"}]}`; !strings.Contains(p.body(1), want) {
		t.Errorf("next body %s", p.body(1))
	}
}

// Cancelling while a tool runs answers it and every later call with
// response {"error": …} (docs/provider-rules.md §4.5): the next request has as
// many function responses as calls, names matching, and no made-up ids.
func TestGeminiCancelDuringTool(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tu := gTurn{chunks: [][]string{{
		`{"functionCall":{"name":"fast","args":{}},"thoughtSignature":"Sig1=="}`,
		`{"functionCall":{"name":"slow","args":{}}}`,
		`{"functionCall":{"name":"fast","args":{}}}`,
	}}}
	p := newWireProvider(t, traffic.WireGemini, gStream(tu), gStream(geminiFinal))
	h := newGeminiHarness(t, p, true)
	run, err := h.Start(ctx, harness.Params{Messages: []traffic.Message{userText("q")}, Tools: cancellingTools(cancel),
		Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), nil)
	checkEvents(t, evs)
	if end(evs).Reason != engine.EndCancelled {
		t.Fatalf("end %+v", end(evs))
	}
	msgs := run.Transcript().Messages()
	if err := engine.Validate(msgs); err != nil {
		t.Fatal(err)
	}
	next := continueRun(t, p, h, msgs)
	turn := next.Messages[2]
	if turn.Role != traffic.RoleUser || len(turn.Blocks) != 3 {
		t.Fatalf("response turn %+v", turn)
	}
	for k, want := range []string{`{"output":"fast done"}`, `{"error":"Tool call cancelled`, `{"error":"Tool call cancelled`} {
		b := turn.Blocks[k]
		if b.Type != traffic.BlockToolResult || b.Name != []string{"fast", "slow", "fast"}[k] || b.ToolCallID != "" || !strings.HasPrefix(string(b.ResultRaw), want) {
			t.Errorf("response %d: %s %q %s", k, b.Name, b.ToolCallID, b.ResultRaw)
		}
	}
	if strings.Contains(p.body(1), `"id"`) {
		t.Errorf("an id went on the wire: %s", p.body(1))
	}
}

// A routed Gemini thought leads the latest model turn as a signed thought
// part, its signature bytes untouched.
func TestGeminiThoughtRouted(t *testing.T) {
	now := time.Now()
	th, err := engine.NewThought(engine.RawThought{ID: "t1", Content: "earlier", CreatedAt: now, UpdatedAt: now,
		Payload: json.RawMessage(`"Sig\/x\u003d="`), ReplayCompatibility: engine.ReplayGeminiSignature})
	if err != nil {
		t.Fatal(err)
	}
	p := newWireProvider(t, traffic.WireGemini, gDocument(geminiFinal))
	history := []traffic.Message{userText("q"), {Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "a"}}}, userText("q2")}
	run, err := newGeminiHarness(t, p, false).Start(context.Background(), harness.Params{Messages: history, Thoughts: []engine.Thought{th}})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, run.Events(), nil))
	if want := `{"role":"model","parts":[{"text":"earlier","thought":true,"thoughtSignature":"Sig\/x\u003d="},{"text":"a"}]}`; !strings.Contains(p.body(0), want) {
		t.Errorf("first body %s", p.body(0))
	}
}
