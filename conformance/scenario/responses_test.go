package scenario_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// rspRun is what one reference-harness run of a one-turn Responses
// scenario gave.
type rspRun struct {
	sim    *simulator.Simulator
	run    *harness.Run
	errors []string // the harness's error events
}

// rspPlay serves sc on loopback and runs the reference harness loop
// through its one turn; tamper, when set, rewrites each request the
// harness sends (a deliberately broken client).
func rspPlay(t *testing.T, sc *scenario.Scenario, stream bool, tamper func(call int, req *traffic.Request)) rspRun {
	t.Helper()
	var out rspRun
	sim, err := simulator.Play(sc, func(s *conformance.Session) error {
		client := &http.Client{}
		if tamper != nil {
			client = reference.Tamper(client, traffic.WireResponses, tamper)
		}
		turn := s.Turns[0]
		h, err := harness.New(harness.Config{BaseURL: s.BaseURL(turn.Provider), Wire: turn.Provider, Model: turn.Model,
			MaxTokens: s.MaxTokens, Stream: stream, HTTPClient: client})
		if err != nil {
			return err
		}
		msgs := []traffic.Message{
			{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: s.System}}},
			{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: turn.Prompt}}},
		}
		run, err := h.Start(context.Background(), harness.Params{Messages: msgs, Tools: reference.Tools(s.Tools)})
		if err != nil {
			return err
		}
		out.run = run
		for ev := range run.Events() {
			switch ev := ev.(type) {
			case engine.RelayEvent:
				ev.Respond(engine.PermissionResponse{Approved: true})
			case engine.ErrorEvent:
				out.errors = append(out.errors, ev.Err.Error())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out.sim = sim
	return out
}

func rspLoad(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// rspClean fails on any rejection or error/warning finding.
func rspClean(t *testing.T, sim *simulator.Simulator) {
	t.Helper()
	if rj := sim.Rejections(); len(rj) > 0 {
		t.Fatalf("the reference harness was rejected: %v", rj)
	}
	if n := sim.Notes(); len(n) > 0 {
		t.Errorf("simulator notes: %v", n)
	}
	for _, f := range checks.Judge(sim.Traffic()) {
		if f.Severity != check.SeverityInfo {
			t.Errorf("finding on the reference harness: %v", f)
		}
	}
	for _, f := range sim.Findings() {
		if f.Severity != check.SeverityInfo {
			t.Errorf("simulator finding on the reference harness: %v", f)
		}
	}
}

func TestResponsesReferenceHarnessPasses(t *testing.T) {
	for _, name := range []string{"responses/stateless-reasoning", "responses/parallel-tools"} {
		for _, stream := range []bool{true, false} {
			t.Run(name+"/"+map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
				sc := rspLoad(t, name)
				o := rspPlay(t, sc, stream, nil)
				rspClean(t, o.sim)
				if len(o.errors) > 0 || o.run.EndReason() != engine.EndFinal || !o.sim.Done() {
					t.Fatalf("run ended %q after %d of %d steps; errors %v", o.run.EndReason(), o.sim.Served(), len(sc.Steps), o.errors)
				}
				// Every request after the first resent the reasoning it was
				// given, stateless, and each reasoning item was verified.
				for i, in := range o.sim.Cassette().Interactions {
					if !bytes.Contains(in.Request.Body, []byte(`"store":false`)) || !bytes.Contains(in.Response.Body, []byte(`"store":false`)) {
						t.Errorf("call %d is not store:false both ways", i)
					}
					if got := bytes.Count(in.Request.Body, []byte(`"encrypted_content":"`)); got != i {
						t.Errorf("request %d echoes %d encrypted reasoning items, want %d", i, got, i)
					}
				}
				msgs := o.run.Transcript().Messages()
				last := msgs[len(msgs)-1]
				want := string(sc.Steps[len(sc.Steps)-1].Content[1])
				if got := last.Blocks[0].Text; got == "" || !strings.Contains(want, got) {
					t.Errorf("final text %q is not the last step's", got)
				}
			})
		}
	}
}

// The stream is the API's: sequence numbers from 0 up, the reasoning
// item's .added copy without encrypted_content, and its .done copy and the
// completed response carrying the same minted token.
func TestResponsesStreamShape(t *testing.T) {
	sc := rspLoad(t, "responses/parallel-tools")
	o := rspPlay(t, sc, true, nil)
	rspClean(t, o.sim)
	body := o.sim.Cassette().Interactions[0].Response.Body
	var types []string
	var added, done, completed string
	for i, ev := range sse.Parse(body) {
		var e struct {
			Type     string          `json:"type"`
			Seq      int             `json:"sequence_number"`
			Item     json.RawMessage `json:"item"`
			Response struct {
				Output []json.RawMessage `json:"output"`
			} `json:"response"`
		}
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if e.Seq != i || ev.Event != e.Type {
			t.Errorf("event %d: %s (event: %s) has sequence_number %d", i, e.Type, ev.Event, e.Seq)
		}
		types = append(types, e.Type)
		if !strings.HasPrefix(string(e.Item), `{"id":"rs_`) && e.Type != "response.completed" {
			continue
		}
		switch e.Type {
		case "response.output_item.added":
			added = string(e.Item)
		case "response.output_item.done":
			done = rspTokenOf(t, e.Item)
		case "response.completed":
			completed = rspTokenOf(t, e.Response.Output[0])
		}
	}
	wantStart := "response.created response.in_progress response.output_item.added response.reasoning_summary_part.added response.reasoning_summary_text.delta"
	if got := strings.Join(types, " "); !strings.HasPrefix(got, wantStart) || !strings.HasSuffix(got, "response.function_call_arguments.done response.output_item.done response.completed") {
		t.Errorf("event order %s", got)
	}
	if strings.Contains(added, "encrypted_content") || !strings.Contains(added, `"summary":[]`) {
		t.Errorf(".added reasoning item %s", added)
	}
	if done == "" || done != completed {
		t.Errorf("encrypted_content in .done %q, in response.completed %q", done, completed)
	}
}

func rspTokenOf(t *testing.T, item json.RawMessage) string {
	t.Helper()
	var it struct {
		EncryptedContent string `json:"encrypted_content"`
	}
	if err := json.Unmarshal(item, &it); err != nil {
		t.Fatal(err)
	}
	return it.EncryptedContent
}

// Runs repeat byte for byte: ids, timestamps and tokens are derived from
// the scenario.
func TestResponsesRunsRepeat(t *testing.T) {
	sc := rspLoad(t, "responses/stateless-reasoning")
	var bodies [2][]byte
	for i := range bodies {
		o := rspPlay(t, sc, true, nil)
		for _, in := range o.sim.Cassette().Interactions {
			bodies[i] = append(append(bodies[i], in.Request.Body...), in.Response.Body...)
		}
	}
	if !bytes.Equal(bodies[0], bodies[1]) {
		t.Fatal("two runs of one scenario differ")
	}
}

// rspReasoningAt returns the index of the first reasoning item in req's input.
func rspReasoningAt(req *traffic.Request) int {
	for i, m := range req.Messages {
		if m.WireType == "reasoning" {
			return i
		}
	}
	return -1
}

func TestResponsesBrokenClientsAreRejected(t *testing.T) {
	cases := []struct {
		name, scenario string
		call           int // the request that is broken
		tamper         func(req *traffic.Request)
		check, body    string
		status         int
	}{{
		name: "a flipped byte of encrypted_content", scenario: "responses/stateless-reasoning", call: 1,
		tamper: func(req *traffic.Request) {
			b := &req.Messages[rspReasoningAt(req)].Blocks[0]
			b.EncryptedContent = rspFlip(b.EncryptedContent)
		},
		check: "OAI-RSN-004", status: 400,
		body: `{"error":{"message":"The encrypted content`,
	}, {
		// History from elsewhere has no origin in the traffic, so the
		// catalogue cannot compare it; only the simulator's verification
		// sees that it never issued this payload.
		name: "foreign encrypted reasoning in the starting history", scenario: "responses/stateless-reasoning", call: 0,
		tamper: func(req *traffic.Request) {
			foreign := json.RawMessage(`"gAAAAABoxC0_aDtrISw_zls0dyams-nhm23et1xecYaqlI8y44ih0g9FA5T3R9ueXIOX9seSrysa48qci5QTep"`)
			req.Messages = append(rspForeignHistory(foreign), req.Messages...)
		},
		check: "OAI-RSN-004", status: 400,
		body: `could not be verified`,
	}, {
		// The simulator verifies every byte of a token, wherever it is
		// sent: OpenAI does not bind it to the history, so only an altered
		// payload fails, never a moved one.
		name: "a minted token altered on an item of other history", scenario: "responses/stateless-reasoning", call: 1,
		tamper: func(req *traffic.Request) {
			genuine := req.Messages[rspReasoningAt(req)].Blocks[0].EncryptedContent
			req.Messages = append(rspForeignHistory(rspFlip(genuine)), req.Messages...)
		},
		check: "OAI-RSN-004", status: 400,
		body: `could not be verified`,
	}, {
		name: "the reasoning item dropped before its function_call", scenario: "responses/stateless-reasoning", call: 1,
		tamper: func(req *traffic.Request) {
			i := rspReasoningAt(req)
			req.Messages = append(req.Messages[:i], req.Messages[i+1:]...)
		},
		check: "OAI-RSN-002", status: 400,
		body: `"message":"Item 'fc_68e4b15026c0e8d4b5e38c255a92d9be2dfbea021ba4a982' of type 'function_call' was provided without its required 'reasoning' item: 'rs_68e4b18c830d8e1e7b1ed426d4ab5a3969e03dc636130b83'."`,
	}, {
		name: "the reasoning item moved after its function_call", scenario: "responses/parallel-tools", call: 1,
		tamper: func(req *traffic.Request) {
			i := rspReasoningAt(req)
			req.Messages[i], req.Messages[i+1] = req.Messages[i+1], req.Messages[i]
		},
		check: "OAI-RSN-001", status: 400,
		body: `"message":"Item 'rs_68e4c28b01b34076e8c54ccc2e51e7bc6533c254a39c79e7' of type 'reasoning' was provided without its required following item."`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := rspPlay(t, rspLoad(t, c.scenario), true, func(call int, req *traffic.Request) {
				if call == c.call {
					c.tamper(req)
				}
			})
			rj := o.sim.Rejections()
			if len(rj) != 1 {
				t.Fatalf("rejections %v, want one", rj)
			}
			if rj[0].Check != c.check || rj[0].Step != c.call || rj[0].Status != c.status {
				t.Errorf("rejected %v, want %s at step %d", rj[0], c.check, c.call)
			}
			if o.run.EndReason() != engine.EndError || len(o.errors) != 1 {
				t.Fatalf("run ended %q with errors %v", o.run.EndReason(), o.errors)
			}
			ins := o.sim.Cassette().Interactions
			last := ins[len(ins)-1].Response
			if body := string(last.Body); last.Status != c.status || !strings.Contains(body, c.body) || !strings.Contains(body, `"type":"invalid_request_error","param":null,"code":null}}`) {
				t.Errorf("answered %d %s\nwant it to contain %s", last.Status, body, c.body)
			}
			// The harness read it as the real provider's error.
			if !strings.Contains(o.errors[0], "invalid_request_error: "+rj[0].Message) {
				t.Errorf("the harness said %q", o.errors[0])
			}
		})
	}
}

// rspForeignHistory is an earlier exchange that did not happen in this
// conversation: a greeting answered after reasoning that carries token.
func rspForeignHistory(token json.RawMessage) []traffic.Message {
	return []traffic.Message{
		{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "Hi"}}},
		{Role: traffic.RoleAssistant, WireType: "reasoning", Blocks: []traffic.Block{{Type: traffic.BlockReasoning,
			ItemID: "rs_68e4b1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", EncryptedContent: token, Content: []traffic.Block{}}}},
		{Role: traffic.RoleAssistant, WireType: "message", Extra: map[string]json.RawMessage{"id": json.RawMessage(`"msg_68e4b1bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"`)},
			Blocks: []traffic.Block{{Type: traffic.BlockText, WireType: "output_text", Text: "Hello!"}}},
	}
}

// rspFlip changes one character in the middle of a raw JSON string token.
func rspFlip(raw json.RawMessage) json.RawMessage {
	b := append(json.RawMessage(nil), raw...)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return b
}

// The cancelled tool: the reference engine closes the call the user
// stopped, so the next turn passes; one that drops the cancelled output is
// refused as the API refuses it.
func TestResponsesCancelledTool(t *testing.T) {
	sc := rspLoad(t, "responses/cancelled-tool")
	if len(sc.Turns) != 2 || !sc.Tools[0].Cancel || strings.Join(sc.Requires(), ",") != "responses,cancel" {
		t.Fatalf("scenario: %d turns, requires %v", len(sc.Turns), sc.Requires())
	}
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			sim, err := simulator.Play(sc, func(s *conformance.Session) error {
				return reference.Play(context.Background(), s, reference.Options{Stream: stream})
			})
			if err != nil {
				t.Fatal(err)
			}
			rspClean(t, sim)
			if !sim.Done() {
				t.Fatalf("served %d of %d steps", sim.Served(), len(sc.Steps))
			}
			// Turn 2 answers the cancelled call right after it, saying so.
			req := sim.Exchanges()[1].Request
			i := rspReasoningAt(req)
			if i < 0 || i+2 >= len(req.Messages) {
				t.Fatalf("turn 2 input: %d items, reasoning at %d", len(req.Messages), i)
			}
			call, out := req.Messages[i+1].Blocks[0], req.Messages[i+2].Blocks[0]
			result, _ := rawjson.String(out.ResultRaw)
			if call.Type != traffic.BlockToolCall || out.Type != traffic.BlockToolResult || out.ToolCallID != call.ID || !strings.Contains(strings.ToLower(result), "cancel") {
				t.Errorf("the cancelled call %s is answered by %+v", call.ID, out)
			}
		})
	}
	t.Run("output dropped", func(t *testing.T) {
		client := reference.Tamper(nil, traffic.WireResponses, func(call int, req *traffic.Request) {
			if call != 1 {
				return
			}
			for i, m := range req.Messages {
				if m.WireType == "function_call_output" {
					req.Messages = append(req.Messages[:i], req.Messages[i+1:]...)
					return
				}
			}
		})
		sim, err := simulator.Play(sc, func(s *conformance.Session) error {
			reference.Play(context.Background(), s, reference.Options{HTTPClient: client})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		rj := sim.Rejections()
		if len(rj) != 1 || rj[0].Check != "OAI-TOOL-010" || rj[0].Step != 1 || rj[0].Message != "No tool output found for function call call_VdLozFinjIaTATa3mC0tSHl1." {
			t.Fatalf("rejections %v, want OAI-TOOL-010 at step 1", rj)
		}
	})
}

func TestResponsesEndpoint(t *testing.T) {
	sc := rspLoad(t, "responses/parallel-tools")
	_, err := simulator.Play(sc, func(s *conformance.Session) error {
		resp, err := http.Post(s.BaseURL(traffic.WireResponses)+"/v1/chat/completions", "application/json", strings.NewReader(`{}`))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		want := `{"error":{"message":"Invalid URL (POST /v1/chat/completions)","type":"invalid_request_error","param":null,"code":null}}`
		if resp.StatusCode != 404 || string(body) != want {
			t.Errorf("answered %d %s, want 404 %s", resp.StatusCode, body, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestResponsesParseErrorsSayWhere(t *testing.T) {
	const ok = `{"model":"gpt-5","prompt":"p","tools":[{"name":"t","result":"r"}],"steps":[{"content":[` +
		`{"id":"rs_1","type":"reasoning","encrypted_content":"{{mint}}","summary":[]},` +
		`{"id":"fc_1","type":"function_call","status":"completed","arguments":"{}","call_id":"call_1","name":"t"}]}]}`
	if _, err := scenario.Parse("responses/x", []byte(ok)); err != nil {
		t.Fatalf("a minimal scenario: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"id":"rs_1"`, `"id":"rsx"`, `steps[0].content[0].id: want a reasoning item id rs_…, got "rsx"`},
		{`"{{mint}}"`, `"gAAAA"`, `steps[0].content[0].encrypted_content: want "{{mint}}"`},
		{`"summary":[]`, `"summary":[{"type":"reasoning_text","text":"x"}]`, `steps[0].content[0].summary[0]: want {"type":"summary_text"`},
		{`"call_1","name":"t"`, `"call_1","name":"u"`, `steps[0].content[1].name: tool "u" is not among the scenario's tools`},
		{`"arguments":"{}"`, `"arguments":{}`, `steps[0].content[1]: want an output item object`},
		{`"arguments":"{}"`, `"arguments":"{"`, `steps[0].content[1].arguments: want a string holding a JSON object`},
		{`"call_id":"call_1"`, `"call_id":"toolu_1"`, `steps[0].content[1].call_id: want call_…`},
		{`"type":"function_call"`, `"type":"web_search_call"`, `steps[0].content[1].type: want reasoning, function_call or message, got "web_search_call"`},
		{`]}]}`, `],"stop_reason":"end_turn"}]}`, `steps[0].stop_reason: want "" (completed), max_output_tokens or content_filter`},
	} {
		data := strings.Replace(ok, c.from, c.to, 1)
		_, err := scenario.Parse("responses/x", []byte(data))
		if err == nil || !strings.Contains(err.Error(), "responses/x.json: "+c.want) {
			t.Errorf("Parse(%s) = %v, want an error containing %q", data, err, c.want)
		}
	}
	msg := `{"model":"gpt-5","prompt":"p","steps":[{"content":[{"id":"msg_1","type":"message","status":"completed","content":[],"role":"assistant"}]}]}`
	if _, err := scenario.Parse("responses/x", []byte(msg)); err == nil || !strings.Contains(err.Error(), "steps[0].content[0].content: want at least one output_text part") {
		t.Errorf("an empty message: %v", err)
	}
}

// FuzzResponsesStep: any output item gives a parse error or a step that
// renders, both ways, into a response the codec reads without issues, with
// the tokens it minted verifying when echoed.
func FuzzResponsesStep(f *testing.F) {
	for _, n := range []string{"responses/stateless-reasoning", "responses/parallel-tools", "responses/cancelled-tool"} {
		sc, err := scenario.Load(n)
		if err != nil {
			f.Fatal(err)
		}
		for _, st := range sc.Steps {
			for _, c := range st.Content {
				f.Add([]byte(c))
			}
		}
	}
	f.Add([]byte(`{"id":"msg_1","type":"message","content":[{"type":"output_text","text":"é\n\"x\""}],"role":"assistant"}`))
	codec := providers.For(traffic.WireResponses)
	f.Fuzz(func(t *testing.T, item []byte) {
		tools := `[{"name":"get_weather","result":"r"},{"name":"get_quarterly_revenue","result":"r"},{"name":"convert_currency","result":"r"},{"name":"run_tests","result":"r"}]`
		data := `{"model":"gpt-5","prompt":"p","tools":` + tools + `,"steps":[{"content":[` + string(item) + `]}]}`
		sc, err := scenario.Parse("responses/fuzz", []byte(data))
		if err != nil {
			return
		}
		m := scenario.NewMinter([]byte("fuzz"))
		req := &traffic.Request{Wire: traffic.WireResponses, Messages: []traffic.Message{{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "p"}}}}}
		for _, stream := range []bool{false, true} {
			parts, _, err := sc.Respond(m, 0, req, stream)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := codec.DecodeResponse(200, nil, bytes.Join(parts, nil))
			if err != nil || (resp.Stream != nil && len(resp.Stream.Issues) > 0) || len(resp.Output) != 1 {
				t.Fatalf("served %s: %v %+v", bytes.Join(parts, nil), err, resp)
			}
			echo := *req
			echo.Messages = append(append([]traffic.Message(nil), req.Messages...), resp.Output...)
			if f := scenario.Verify(m, traffic.WireResponses, &echo); f != nil {
				t.Fatalf("its own token does not verify: %v", f)
			}
		}
	})
}
