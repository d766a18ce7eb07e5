package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/providers/responses"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// corpusRun replays a real recording through the loop: the server answers
// with the recorded responses in order, the loop runs the tools and sends
// the requests it builds, which the server decodes and validates.
type corpusRun struct {
	file   string
	wire   traffic.Wire
	stream bool
	model  string
	prompt string
	tools  []engine.ToolDefinition
	relay  func(engine.RelayEvent) // nil: every tool is allowlisted
}

func (c corpusRun) run(t *testing.T) (*provider, []traffic.Exchange, *harness.Run) {
	t.Helper()
	p, rec := replayCorpus(t, c.wire, c.file)
	h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: c.wire, Model: c.model, Stream: c.stream, APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	params := harness.Params{Messages: []traffic.Message{userText(c.prompt)}, Tools: c.tools}
	if c.relay == nil {
		params.Permissions = engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "*"}}}
	}
	run, err := h.Start(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, run.Events(), c.relay)
	checkEvents(t, evs)
	if e := end(evs); e.Reason != engine.EndFinal || e.Iterations != len(rec) {
		t.Fatalf("end %+v, want final after %d calls (%s)", e, len(rec), types(evs))
	}
	if err := engine.Validate(run.Transcript().Messages()); err != nil {
		t.Error(err)
	}
	if n := len(p.requests()); n != len(rec) {
		t.Fatalf("%d requests, recorded %d", n, len(rec))
	}
	return p, rec, run
}

func tool(name, schema string, answer func(args json.RawMessage) (string, error)) engine.ToolDefinition {
	return engine.ToolDefinition{Name: name, Schema: json.RawMessage(schema),
		Execute: func(_ context.Context, args json.RawMessage, _ engine.ToolContext) (engine.ToolExecutionResult, error) {
			s, err := answer(args)
			return engine.ToolExecutionResult{Context: s}, err
		}}
}

func constant(s string) func(json.RawMessage) (string, error) {
	return func(json.RawMessage) (string, error) { return s, nil }
}

// sameItems checks that the loop resent a recorded reply's items exactly:
// each reasoning payload, item id, call id and arguments token byte for
// byte, in order, starting at input[at].
func sameItems(t *testing.T, sent []traffic.Message, at int, reply []traffic.Message) {
	t.Helper()
	if len(sent) < at+len(reply) {
		t.Fatalf("%d input items, want the %d recorded output items from %d", len(sent), len(reply), at)
	}
	for k, want := range reply {
		got := sent[at+k]
		if got.WireType != want.WireType || responses.ItemID(got) != responses.ItemID(want) {
			t.Errorf("input[%d] is %s %s, recorded output[%d] %s %s", at+k, got.WireType, responses.ItemID(got), k, want.WireType, responses.ItemID(want))
			continue
		}
		g, w := got.Blocks[0], want.Blocks[0]
		if !bytes.Equal(g.EncryptedContent, w.EncryptedContent) || !bytes.Equal(g.Input, w.Input) || g.ID != w.ID || g.Text != w.Text {
			t.Errorf("input[%d] (%s) differs from the recorded output item:\n%+v\n%+v", at+k, got.WireType, g, w)
		}
		if string(got.Extra["phase"]) != string(want.Extra["phase"]) {
			t.Errorf("input[%d] phase %s, recorded %s", at+k, got.Extra["phase"], want.Extra["phase"])
		}
	}
}

// Real Responses tool loops (pydantic-ai, gpt-5 and gpt-5.5, JSON and
// SSE): the second request resends every output item of the first
// response — reasoning with encrypted_content byte for byte, the
// commentary message with its phase, the function_call with its fc_ id —
// then the function_call_output, statelessly; and the recorded client
// sent the same reasoning payload.
func TestCorpusResponsesToolLoop(t *testing.T) {
	tests := []struct {
		corpusRun
		output string
	}{
		{corpusRun{file: "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml",
			wire: traffic.WireResponses, model: "gpt-5", prompt: "Compose a 12-line poem…",
			tools: []engine.ToolDefinition{tool("update_plan", `{"additionalProperties":false,"properties":{"plan":{"type":"string"}},"required":["plan"],"type":"object"}`, constant("plan updated"))}},
			"plan updated"},
		{corpusRun{file: "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_phase_streamed_on_part_start.yaml",
			wire: traffic.WireResponses, stream: true, model: "gpt-5.5", prompt: "What is the capital of PotatoLand?",
			tools: []engine.ToolDefinition{tool("get_capital", `{"additionalProperties":false,"properties":{"country":{"type":"string"}},"required":["country"],"type":"object"}`, constant("Potato City"))}},
			"Potato City"},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			p, rec, _ := tt.run(t)
			second := p.requests()[1]
			if second.Store == nil || *second.Store {
				t.Error("the loop's request is not stateless")
			}
			reply := rec[0].Response.Output
			sameItems(t, second.Messages, 1, reply)
			out := second.Messages[1+len(reply)]
			call := reply[len(reply)-1].Blocks[0]
			if out.WireType != "function_call_output" || out.Blocks[0].ToolCallID != call.ID || string(out.Blocks[0].ResultRaw) != `"`+tt.output+`"` {
				t.Errorf("after the items: %s %+v", out.WireType, out.Blocks)
			}
			// The recorded client resent the same reasoning payload.
			recReasoning := rec[1].Request.Messages[1].Blocks[0]
			if !bytes.Equal(second.Messages[1].Blocks[0].EncryptedContent, recReasoning.EncryptedContent) {
				t.Error("encrypted_content differs from what the recorded client sent")
			}
			if !strings.Contains(p.body(1), `"encrypted_content":`+string(reply[0].Blocks[0].EncryptedContent)) {
				t.Error("encrypted_content token is not in the second body verbatim")
			}
		})
	}
}

// A real Responses loop whose reasoning item came without
// encrypted_content (docker/cagent, store left on): resent statelessly the
// item could not be found (R3), so the loop leaves it out and takes the
// fc_ id off the call it produced (R2) — what the recording's client sent
// too. The user's refusal of the relayed call becomes the output.
func TestCorpusResponsesSummaryOnlyReasoning(t *testing.T) {
	c := corpusRun{file: "docker__cagent/e2e__testdata__cassettes__TestExec_ToolCallsNeedAcceptance.yaml",
		wire: traffic.WireResponses, stream: true, model: "gpt-5-mini", prompt: `Create a hello.txt file with "Hello, World!" content.`,
		tools: []engine.ToolDefinition{tool("write_file", `{"additionalProperties":false,"properties":{"content":{"type":"string"},"path":{"type":"string"}},"required":["content","path"],"type":"object"}`,
			func(json.RawMessage) (string, error) { return "", errors.New("must not run") })},
		relay: func(r engine.RelayEvent) {
			r.Respond(engine.PermissionResponse{Reason: "The user rejected the tool call."})
		},
	}
	p, rec, run := c.run(t)
	second := p.requests()[1].Messages
	if got := wireTypes(second); got != "user function_call function_call_output" {
		t.Fatalf("second input %s", got)
	}
	call, want := second[1].Blocks[0], rec[0].Response.Output[1].Blocks[0]
	if call.ItemID != "" || call.ID != want.ID || !bytes.Equal(call.Input, want.Input) {
		t.Errorf("resent call %+v, recorded %+v", call, want)
	}
	recCall := rec[1].Request.Messages[3].Blocks[0]
	if recCall.ItemID != call.ItemID || recCall.ID != call.ID {
		t.Errorf("the recorded client sent %+v", recCall)
	}
	if out := second[2].Blocks[0]; !strings.Contains(string(out.ResultRaw), "The user rejected the tool call.") {
		t.Errorf("output %s", out.ResultRaw)
	}
	if got := wireTypes(run.Transcript().Messages()); !strings.HasPrefix(got, "user reasoning function_call tool") {
		t.Errorf("history %s: the transcript keeps the reasoning item", got)
	}
}

// Real Gemini tool loops: the second request echoes the recorded model
// turn part for part — signatures byte for byte where they came, the
// empty trailing text part kept, arguments as received — without an id
// the provider never sent, answered by functionResponse{name, response}.
func TestCorpusGeminiToolLoop(t *testing.T) {
	country := `{"additionalProperties":false,"properties":{"country":{"type":"string"}},"required":["country"],"type":"object"}`
	tests := []struct {
		corpusRun
		results []string // each response turn's raw JSON, in order
	}{
		{corpusRun{file: "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml",
			wire: traffic.WireGemini, stream: true, model: "gemini-3-pro-preview", prompt: "What is the capital of the user country? Call the tool",
			tools: []engine.ToolDefinition{tool("get_country", `{"additionalProperties":false,"properties":{},"type":"object"}`, constant("Mexico"))}},
			[]string{`{"functionResponse":{"name":"get_country","response":{"output":"Mexico"}}}`}},
		{corpusRun{file: "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_model_retry.yaml",
			wire: traffic.WireGemini, model: "gemini-2.5-pro", prompt: "What is the capital of France?",
			tools: []engine.ToolDefinition{tool("get_capital", country, func(args json.RawMessage) (string, error) {
				var in struct{ Country string }
				json.Unmarshal(args, &in)
				if in.Country == "France" {
					return "", errors.New(`the country is not supported. Use "La France" instead`)
				}
				return "Paris", nil
			})}},
			[]string{`{"functionResponse":{"name":"get_capital","response":{"error":"tool get_capital failed: the country is not supported. Use \"La France\" instead"}}}`,
				`{"functionResponse":{"name":"get_capital","response":{"output":"Paris"}}}`}},
		{corpusRun{file: "docker__cagent/e2e__testdata__cassettes__TestExec_Gemini_ToolCall.yaml",
			wire: traffic.WireGemini, stream: true, model: "gemini-2.5-flash", prompt: "How many files in testdata/working_dir? Only output the number.",
			tools: []engine.ToolDefinition{tool("list_directory", `{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}`, constant("FILE README.me"))}},
			[]string{`{"functionResponse":{"name":"list_directory","response":{"output":"FILE README.me"}}}`}},
		{corpusRun{file: "tmc__langchaingo/llms__googleai__testdata__TestGoogleAIToolCallResponse.httprr",
			wire: traffic.WireGemini, model: "gemini-2.0-flash", prompt: "What is 15 * 7?",
			tools: []engine.ToolDefinition{tool("calculate", `{"type":"object","properties":{"expression":{"type":"string"}},"required":["expression"]}`, constant("105"))}},
			[]string{`{"functionResponse":{"name":"calculate","response":{"output":"105"}}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			p, rec, run := tt.run(t)
			last := p.requests()[len(rec)-1].Messages
			if len(last) != 1+2*len(tt.results) {
				t.Fatalf("last request has %d contents", len(last))
			}
			body := p.body(len(rec) - 1)
			for k, want := range tt.results {
				turn := rec[k].Response.Output[0]
				echoed := last[1+2*k]
				if len(echoed.Blocks) != len(turn.Blocks) {
					t.Fatalf("turn %d: echoed %d parts, recorded %d", k, len(echoed.Blocks), len(turn.Blocks))
				}
				for j, w := range turn.Blocks {
					g := echoed.Blocks[j]
					if g.Type != w.Type || g.Text != w.Text || g.Name != w.Name || !bytes.Equal(g.Signature, w.Signature) || !bytes.Equal(g.Input, w.Input) || g.ID != w.ID {
						t.Errorf("turn %d part %d: echoed %+v\nrecorded %+v", k, j, g, w)
					}
					if len(w.Signature) > 0 && !strings.Contains(body, `"thoughtSignature":`+string(w.Signature)) {
						t.Errorf("turn %d part %d: signature not in the body verbatim", k, j)
					}
					// pydantic-ai, which recorded two of these, resent
					// signatures re-encoded in URL-safe base64: equal in
					// value, not in bytes (corpus README).
					if k == 0 && len(w.Signature) > 0 {
						theirs := rec[1].Request.Messages[1].Blocks[j].Signature
						if urlSafe := strings.NewReplacer("+", "-", "/", "_"); urlSafe.Replace(string(theirs)) != urlSafe.Replace(string(w.Signature)) {
							t.Errorf("turn %d part %d: the recorded client sent another signature", k, j)
						}
					}
				}
				if !strings.Contains(body, `{"role":"user","parts":[`+want+`]}`) {
					t.Errorf("turn %d: no response turn %s in\n%s", k, want, body)
				}
			}
			if strings.Contains(body, `"id"`) {
				t.Errorf("an id went on the wire:\n%s", body)
			}
			for _, m := range run.Transcript().Messages() {
				for _, b := range m.Blocks {
					if b.Type == traffic.BlockToolCall && !harness.IsLocalCallID(b.ID) {
						t.Errorf("call %s in the transcript has no local id", b.ID)
					}
				}
			}
		})
	}
}
