package scenario_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	oai "github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
	"github.com/openai/openai-go/shared"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

var chatCodec = providers.For(traffic.WireOpenAI)

func oaiScenario(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// oaiToolDefs are the session's tools as the reference harness registers
// them, each running the session's canned tool.
func oaiToolDefs(s *conformance.Session) []engine.ToolDefinition {
	var out []engine.ToolDefinition
	for _, tool := range s.Tools {
		out = append(out, engine.ToolDefinition{Name: tool.Name, Description: tool.Description, Schema: tool.InputSchema,
			Execute: func(ctx context.Context, args json.RawMessage, _ engine.ToolContext) (engine.ToolExecutionResult, error) {
				res, err := tool.Call(ctx, args)
				return engine.ToolExecutionResult{Context: res}, err
			}})
	}
	return out
}

func oaiText(role traffic.Role, s string) traffic.Message {
	return traffic.Message{Role: role, ContentString: true, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: s}}}
}

// oaiPlay plays a one-turn scenario with the reference harness over
// loopback HTTP; wrap, when set, wraps the harness's transport.
func oaiPlay(t *testing.T, name string, stream bool, wrap func(http.RoundTripper) http.RoundTripper) (*simulator.Simulator, *harness.Run, []string) {
	t.Helper()
	var run *harness.Run
	var errs []string
	sim, err := simulator.Play(oaiScenario(t, name), func(s *conformance.Session) error {
		client := &http.Client{Transport: http.DefaultTransport}
		if wrap != nil {
			client.Transport = wrap(client.Transport)
		}
		turn := s.Turns[0]
		h, err := harness.New(harness.Config{BaseURL: s.BaseURL(turn.Provider), Wire: turn.Provider, Model: turn.Model,
			MaxTokens: s.MaxTokens, Stream: stream, HTTPClient: client})
		if err != nil {
			return err
		}
		run, err = h.Start(context.Background(), harness.Params{
			Messages: []traffic.Message{oaiText(traffic.RoleSystem, s.System), oaiText(traffic.RoleUser, turn.Prompt)}, Tools: oaiToolDefs(s)})
		if err != nil {
			return err
		}
		for ev := range run.Events() {
			switch ev := ev.(type) {
			case engine.RelayEvent:
				ev.Respond(engine.PermissionResponse{Approved: true})
			case engine.ErrorEvent:
				errs = append(errs, ev.Err.Error())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sim, run, errs
}

// oaiClean fails t on any rejection, any error or warning from the
// simulator or the whole catalogue, or an unfinished scenario.
func oaiClean(t *testing.T, sim *simulator.Simulator) {
	t.Helper()
	if rj := sim.Rejections(); len(rj) > 0 {
		t.Fatalf("rejected: %v", rj)
	}
	if !sim.Done() {
		t.Fatalf("served %d of %d steps", sim.Served(), len(sim.Scenario().Steps))
	}
	for _, f := range append(sim.Findings(), checks.Judge(sim.Traffic())...) {
		if f.Severity == check.SeverityError || f.Severity == check.SeverityWarning {
			t.Errorf("finding: %v", f)
		}
	}
}

func TestOpenAIReferenceHarnessPasses(t *testing.T) {
	for _, name := range []string{"openai/tool-loop", "openai/parallel-tools"} {
		for _, stream := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/stream=%v", name, stream), func(t *testing.T) {
				sim, run, errs := oaiPlay(t, name, stream, nil)
				oaiClean(t, sim)
				if len(errs) > 0 || run.EndReason() != engine.EndFinal {
					t.Fatalf("run ended %q, errors %v", run.EndReason(), errs)
				}
				msgs := run.Transcript().Messages()
				last := msgs[len(msgs)-1]
				steps := sim.Scenario().Steps
				if got := last.Blocks[0].Text; got == "" || !strings.Contains(string(steps[len(steps)-1].Content[0]), got) {
					t.Errorf("final answer %q is not the last step's", got)
				}
				// The stream is the real one: [DONE] last, chunks only.
				body := string(sim.Cassette().Interactions[0].Response.Body)
				if stream != strings.HasSuffix(body, "data: [DONE]\n\n") || stream != strings.Contains(body, `"object":"chat.completion.chunk"`) {
					t.Errorf("response 0 does not look like a %v response:\n%s", map[bool]string{true: "streamed", false: "JSON"}[stream], body)
				}
			})
		}
	}
}

func TestOpenAIBrokenClientsAreRejected(t *testing.T) {
	cases := []struct {
		name   string
		tamper func(req *traffic.Request)
		check  string
		body   string
	}{{
		name: "a dropped tool message",
		// messages: system, user, assistant (two calls), tool, tool
		tamper: func(req *traffic.Request) { req.Messages = req.Messages[:4] },
		check:  "OAI-TOOL-001",
		body:   `{"error":{"message":"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_Gt7nBc3MwQs9vXk5RjHfA2yE","type":"invalid_request_error","param":null,"code":null}}`,
	}, {
		name: "a tool message for an unknown call",
		tamper: func(req *traffic.Request) {
			req.Messages = append(req.Messages, traffic.Message{Role: traffic.RoleTool, Blocks: []traffic.Block{
				{Type: traffic.BlockToolResult, ToolCallID: "call_Zz9yXw8VuT7sR6qP5oN4mL3k", Text: "18 °C"}}})
		},
		check: "OAI-TOOL-002",
		body:  `{"error":{"message":"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.","type":"invalid_request_error","param":null,"code":null}}`,
	}}
	for _, c := range cases {
		for _, stream := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/stream=%v", c.name, stream), func(t *testing.T) {
				sim, run, errs := oaiPlay(t, "openai/parallel-tools", stream, func(next http.RoundTripper) http.RoundTripper {
					return reference.Tamper(&http.Client{Transport: next}, traffic.WireOpenAI, func(call int, req *traffic.Request) {
						if call == 1 {
							c.tamper(req)
						}
					}).Transport
				})
				rj := sim.Rejections()
				if len(rj) != 1 || rj[0].Check != c.check || rj[0].Status != http.StatusBadRequest || rj[0].Step != 1 {
					t.Fatalf("rejections = %v, want one %s at step 1", rj, c.check)
				}
				if got := string(sim.Cassette().Interactions[1].Response.Body); got != c.body {
					t.Errorf("error body\n got %s\nwant %s", got, c.body)
				}
				if len(errs) == 0 || run.EndReason() == engine.EndFinal {
					t.Errorf("the harness did not see the error: ended %q, errors %v", run.EndReason(), errs)
				}
			})
		}
	}
}

func TestOpenAIWrongEndpoint(t *testing.T) {
	_, err := simulator.Play(oaiScenario(t, "openai/tool-loop"), func(s *conformance.Session) error {
		resp, err := http.Post(s.BaseURL(traffic.WireOpenAI)+"/v1/completions", "application/json", strings.NewReader(`{"model":"gpt-4.1","prompt":"hi"}`))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		const want = `{"error":{"message":"Invalid URL (POST /v1/completions)","type":"invalid_request_error","param":null,"code":null}}`
		if resp.StatusCode != http.StatusNotFound || string(body) != want {
			return fmt.Errorf("HTTP %d %s, want 404 %s", resp.StatusCode, body, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// oaiStepMessage is the assistant message a scenario step serves.
func oaiStepMessage(t *testing.T, st scenario.Step) (content string, calls []oai.ChatCompletionMessageToolCall) {
	t.Helper()
	var m struct {
		Content   string                              `json:"content"`
		ToolCalls []oai.ChatCompletionMessageToolCall `json:"tool_calls"`
	}
	if err := json.Unmarshal(st.Content[0], &m); err != nil {
		t.Fatal(err)
	}
	return m.Content, m.ToolCalls
}

// The official SDK reads what the simulator serves, streamed (with the
// usage chunk) and not, and drives the whole tool loop with it.
func TestOpenAISDKPlaysToolLoop(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			sc := oaiScenario(t, "openai/tool-loop")
			sim, err := simulator.Play(sc, func(s *conformance.Session) error {
				return oaiSDKLoop(t, s, sc, stream)
			})
			if err != nil {
				t.Fatal(err)
			}
			oaiClean(t, sim)
		})
	}
}

func oaiSDKLoop(t *testing.T, s *conformance.Session, sc *scenario.Scenario, stream bool) error {
	ctx := context.Background()
	client := oai.NewClient(option.WithBaseURL(s.BaseURL(traffic.WireOpenAI)+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	params := oai.ChatCompletionNewParams{
		Model:    sc.Turns[0].Model,
		Messages: []oai.ChatCompletionMessageParamUnion{oai.SystemMessage(s.System), oai.UserMessage(s.Turns[0].Prompt)},
	}
	for _, tool := range s.Tools {
		var schema shared.FunctionParameters
		if err := json.Unmarshal(tool.InputSchema, &schema); err != nil {
			return err
		}
		params.Tools = append(params.Tools, oai.ChatCompletionToolParam{Function: shared.FunctionDefinitionParam{
			Name: tool.Name, Description: oai.String(tool.Description), Parameters: schema}})
	}
	if stream {
		params.StreamOptions = oai.ChatCompletionStreamOptionsParam{IncludeUsage: oai.Bool(true)}
	}
	for i, st := range sc.Steps {
		var got oai.ChatCompletion
		if stream {
			st := client.Chat.Completions.NewStreaming(ctx, params)
			var acc oai.ChatCompletionAccumulator
			for st.Next() {
				if !acc.AddChunk(st.Current()) {
					return fmt.Errorf("step %d: the SDK refused a chunk", i)
				}
			}
			if err := st.Err(); err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
			got = acc.ChatCompletion
		} else {
			resp, err := client.Chat.Completions.New(ctx, params)
			if err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
			got = *resp
		}
		content, calls := oaiStepMessage(t, st)
		msg := got.Choices[0].Message
		if msg.Content != content || len(msg.ToolCalls) != len(calls) {
			return fmt.Errorf("step %d: the SDK read %q with %d calls, want %q with %d", i, msg.Content, len(msg.ToolCalls), content, len(calls))
		}
		var usage struct {
			Total int64 `json:"total_tokens"`
		}
		json.Unmarshal(st.Usage, &usage)
		if got.Usage.TotalTokens != usage.Total || !strings.HasPrefix(got.ID, "chatcmpl-") {
			return fmt.Errorf("step %d: id %q, usage %d, want chatcmpl-… and %d", i, got.ID, got.Usage.TotalTokens, usage.Total)
		}
		params.Messages = append(params.Messages, msg.ToParam())
		for j, c := range msg.ToolCalls {
			if c.ID != calls[j].ID || c.Function.Name != calls[j].Function.Name || c.Function.Arguments != calls[j].Function.Arguments {
				return fmt.Errorf("step %d: the SDK read call %+v, want %+v", i, c.Function, calls[j].Function)
			}
			tool, _ := sc.Tool(c.Function.Name)
			params.Messages = append(params.Messages, oai.ToolMessage(tool.Result, c.ID))
		}
	}
	return nil
}

// oaiClient is a hand-written correct client over net/http: it keeps the
// persisted history and sends it with the codec.
type oaiClient struct {
	s       *conformance.Session
	stream  bool
	tools   []traffic.Tool
	history []traffic.Message
}

func newOAIClient(s *conformance.Session, stream bool) *oaiClient {
	c := &oaiClient{s: s, stream: stream, history: []traffic.Message{oaiText(traffic.RoleSystem, s.System)}}
	for _, tool := range s.Tools {
		c.tools = append(c.tools, traffic.Tool{Name: tool.Name, Description: tool.Description, Schema: tool.InputSchema})
	}
	return c
}

// send posts the history and then extra, which is not persisted, and
// returns the assistant message.
func (c *oaiClient) send(ctx context.Context, turn conformance.Turn, extra ...traffic.Message) (traffic.Message, error) {
	req := &traffic.Request{Wire: traffic.WireOpenAI, Model: turn.Model, Stream: c.stream, MaxTokens: c.s.MaxTokens,
		Messages: append(append([]traffic.Message(nil), c.history...), extra...), Tools: c.tools}
	if c.stream {
		req.Extra = map[string]json.RawMessage{"stream_options": json.RawMessage(`{"include_usage":true}`)}
	}
	body, err := chatCodec.EncodeRequest(req)
	if err != nil {
		return traffic.Message{}, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.s.BaseURL(turn.Provider)+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return traffic.Message{}, err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer sk-test")
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return traffic.Message{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return traffic.Message{}, err
	}
	out, err := chatCodec.DecodeResponse(resp.StatusCode, resp.Header, data)
	switch {
	case err != nil:
		return traffic.Message{}, err
	case out.Error != nil:
		return traffic.Message{}, fmt.Errorf("HTTP %d: %s", resp.StatusCode, out.Error.Message)
	case len(out.Output) != 1:
		return traffic.Message{}, fmt.Errorf("%d messages in the response", len(out.Output))
	}
	m := out.Output[0]
	m.Extra = nil // refusal and annotations stay out of the history
	return m, nil
}

func (c *oaiClient) calls(m traffic.Message) []traffic.Block {
	var out []traffic.Block
	for _, b := range m.Blocks {
		if b.Type == traffic.BlockToolCall {
			out = append(out, b)
		}
	}
	return out
}

func oaiAnswer(m traffic.Message) string {
	for _, b := range m.Blocks {
		if b.Type == traffic.BlockText {
			return b.Text
		}
	}
	return ""
}

// oaiPlayTurns plays every turn of s with the hand-written client: tools run
// under the turn's context, which the session's stop button cancels; a
// cancelled call is answered as cancelled (unless dropCancelled); an answer
// that fails the turn's schema is retried once with the feedback sent
// ephemerally (persisted instead with persistFeedback).
func oaiPlayTurns(ctx context.Context, s *conformance.Session, stream, dropCancelled, persistFeedback bool) error {
	c := newOAIClient(s, stream)
	for ti, turn := range s.Turns {
		tctx, cancel := context.WithCancel(ctx)
		s.OnCancel(cancel)
		c.history = append(c.history, oaiText(traffic.RoleUser, turn.Prompt))
		var extra []traffic.Message
		for tctx.Err() == nil {
			m, err := c.send(tctx, turn, extra...)
			if err != nil {
				cancel()
				return fmt.Errorf("turn %d: %w", ti, err)
			}
			calls := c.calls(m)
			if len(calls) == 0 && !turn.Valid(oaiAnswer(m)) && extra == nil {
				feedback := oaiText(traffic.RoleUser, turn.Feedback)
				feedback.Ephemeral = true
				extra = []traffic.Message{m, feedback}
				if persistFeedback {
					c.history, extra = append(c.history, extra...), []traffic.Message{}
				}
				continue
			}
			c.history = append(c.history, m)
			if len(calls) == 0 {
				break
			}
			for _, call := range calls {
				result, err := oaiSessionTool(s, call.Name).Call(tctx, call.Input)
				if err != nil {
					if dropCancelled {
						continue
					}
					result = "Cancelled by the user; the tool was not run."
				}
				c.history = append(c.history, traffic.Message{Role: traffic.RoleTool, ContentString: true,
					Blocks: []traffic.Block{{Type: traffic.BlockToolResult, ToolCallID: call.ID, Text: result}}})
			}
		}
		cancel()
	}
	return nil
}

func oaiSessionTool(s *conformance.Session, name string) conformance.Tool {
	for _, t := range s.Tools {
		if t.Name == name {
			return t
		}
	}
	return conformance.Tool{Name: name}
}

func TestOpenAIMultiTurnScenarios(t *testing.T) {
	for _, name := range []string{"openai/cancelled-tool", "openai/schema-retry"} {
		for _, stream := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/stream=%v", name, stream), func(t *testing.T) {
				sim, err := simulator.Play(oaiScenario(t, name), func(s *conformance.Session) error {
					return oaiPlayTurns(context.Background(), s, stream, false, false)
				})
				if err != nil {
					t.Fatal(err)
				}
				oaiClean(t, sim)
			})
		}
	}
}

// A client that drops the cancelled call's result is rejected on the next
// turn's request, as OpenAI rejects it.
func TestOpenAIDroppedCancelledResultIsRejected(t *testing.T) {
	sim, err := simulator.Play(oaiScenario(t, "openai/cancelled-tool"), func(s *conformance.Session) error {
		return oaiPlayTurns(context.Background(), s, true, true, false)
	})
	if err == nil || !strings.Contains(err.Error(), "turn 1: HTTP 400: An assistant message with 'tool_calls' must be followed by tool messages") ||
		!strings.Contains(err.Error(), "call_Xw8FkR2nTq5LmZb7VcJd3HsP") {
		t.Fatalf("the harness got %v", err)
	}
	if rj := sim.Rejections(); len(rj) != 1 || rj[0].Check != "OAI-TOOL-001" || rj[0].Step != 1 || rj[0].Location != "messages[2].tool_calls[0]" {
		t.Fatalf("rejections = %v", rj)
	}
}

// A client that keeps the schema feedback in its history is caught by
// HIST-005 on the next turn.
func TestOpenAIPersistedFeedbackIsFound(t *testing.T) {
	if checks.Lookup("HIST-005") == nil {
		t.Skip("HIST-005 is not in the catalogue yet")
	}
	sim, err := simulator.Play(oaiScenario(t, "openai/schema-retry"), func(s *conformance.Session) error {
		return oaiPlayTurns(context.Background(), s, false, false, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	var found []check.Finding
	for _, f := range checks.Judge(sim.Traffic()) {
		if f.Check == "HIST-005" {
			found = append(found, f)
		}
	}
	if len(found) == 0 || found[0].Interaction != 2 {
		t.Fatalf("HIST-005 findings = %v, want one on the turn-2 request", found)
	}
}

func TestOpenAIStepErrorsSayWhere(t *testing.T) {
	const ok = `{"model":"gpt-4.1","prompt":"p","tools":[{"name":"t","result":"r"}],"steps":[{"content":[{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"t","arguments":"{}"}}]}]}]}`
	if _, err := scenario.Parse("openai/x", []byte(ok)); err != nil {
		t.Fatalf("a minimal scenario: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"content":[{`, `"content":[{"role":"assistant","content":"a"},{`, "steps[0].content: want exactly one element, the assistant message, got 2"},
		{`"role":"assistant"`, `"role":"user"`, `steps[0].content[0].role: want "assistant", got "user"`},
		{`"content":null`, `"content":[{"type":"text","text":"a"}]`, "steps[0].content[0].content: want a string or null, got an array"},
		{`"content":null`, `"content":""`, `steps[0].content[0].content: want text or null, got ""`},
		{`"content":null,`, `"refusal":null,`, `steps[0].content[0]: want an assistant message {role, content, tool_calls}: json: unknown field "refusal"`},
		{`"id":"call_1"`, `"id":"toolu_1"`, `steps[0].content[0].tool_calls[0].id: want a call_ id, got "toolu_1"`},
		{`"type":"function"`, `"type":"custom"`, `steps[0].content[0].tool_calls[0].type: want "function", got "custom"`},
		{`"name":"t","arguments"`, `"name":"u","arguments"`, `steps[0].content[0].tool_calls[0].function.name: tool "u" is not among the scenario's tools`},
		{`"arguments":"{}"`, `"arguments":{}`, "steps[0].content[0].tool_calls[0].function.arguments: want a JSON string holding the arguments object, got an object"},
		{`"arguments":"{}"`, `"arguments":"{"`, "steps[0].content[0].tool_calls[0].function.arguments: want a JSON string holding the arguments object"},
		{`,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"t","arguments":"{}"}}]`, ``, "steps[0].content[0]: want content text, tool_calls or both"},
	} {
		data := strings.Replace(ok, c.from, c.to, 1)
		_, err := scenario.Parse("openai/x", []byte(data))
		if err == nil || !strings.Contains(err.Error(), "openai/x.json: "+c.want) {
			t.Errorf("Parse(%s)\n = %v\nwant an error containing %q", data, err, c.want)
		}
	}
}

// FuzzOpenAIStep: any step message gives a scenario or an error naming the
// field, never a panic, and a message accepted is served, as a body and as
// a stream, in forms the codec reads back to the same blocks.
func FuzzOpenAIStep(f *testing.F) {
	for _, n := range scenario.Names() {
		if strings.HasPrefix(n, "openai/") {
			for _, st := range oaiScenario(f, n).Steps {
				f.Add([]byte(st.Content[0]))
			}
		}
	}
	f.Add([]byte(`{"role":"assistant","content":"é  <b>&\n","tool_calls":[{"id":"call_x","type":"function","function":{"name":"t","arguments":"{\"q\":\"\\u00e9 \\\"x\\\"\",\"n\":[1, 2.5e3]}"}}]}`))
	m := scenario.NewMinter([]byte("fuzz"))
	tools := `[{"name":"t"},{"name":"get_weather"},{"name":"convert_temperature"},{"name":"search_flights"}]`
	f.Fuzz(func(t *testing.T, msg []byte) {
		data := `{"model":"gpt-4.1","prompt":"p","tools":` + tools + `,"steps":[{"content":[` + string(msg) + `]}]}`
		sc, err := scenario.Parse("openai/x", []byte(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "openai/x.json: ") {
				t.Fatalf("an error that does not say where: %v", err)
			}
			return
		}
		req := &traffic.Request{Wire: traffic.WireOpenAI, Extra: map[string]json.RawMessage{"stream_options": json.RawMessage(`{"include_usage":true}`)}}
		var first []traffic.Block
		for _, stream := range []bool{false, true} {
			parts, _, err := sc.Respond(m, 0, req, stream)
			if err != nil {
				t.Fatalf("a parsed step does not render: %v", err)
			}
			resp, err := chatCodec.DecodeResponse(http.StatusOK, nil, bytes.Join(parts, nil))
			if err != nil || len(resp.Output) != 1 {
				t.Fatalf("a served step does not decode: %v", err)
			}
			if stream && (!resp.Stream.Complete || len(resp.Stream.Issues) > 0 || resp.Usage == nil) {
				t.Fatalf("stream issues %v, usage %v", resp.Stream.Issues, resp.Usage)
			}
			blocks := resp.Output[0].Blocks
			if first == nil {
				first = blocks
				continue
			}
			if len(blocks) != len(first) {
				t.Fatalf("the body serves %d blocks, the stream %d", len(first), len(blocks))
			}
			for i := range blocks {
				a, b := first[i], blocks[i]
				as, _ := oaiString(a.Input)
				bs, _ := oaiString(b.Input)
				if a.Type != b.Type || a.Text != b.Text || a.ID != b.ID || a.Name != b.Name || as != bs {
					t.Fatalf("block %d: the body serves %+v, the stream %+v", i, a, b)
				}
			}
		}
	})
}

func oaiString(raw json.RawMessage) (string, bool) {
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// The reference engine's multi-turn adapter plays every OpenAI scenario
// cleanly, streamed and not.
func TestOpenAIReferencePlays(t *testing.T) {
	for _, name := range scenario.Names() {
		if !strings.HasPrefix(name, "openai/") {
			continue
		}
		for _, stream := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/stream=%v", name, stream), func(t *testing.T) {
				sim, err := simulator.Play(oaiScenario(t, name), func(s *conformance.Session) error {
					return reference.Play(context.Background(), s, reference.Options{Stream: stream})
				})
				if err != nil {
					t.Fatal(err)
				}
				oaiClean(t, sim)
			})
		}
	}
}

// Through conformance.Run, as a harness repo runs it: every OpenAI
// scenario and each check that applies pass.
func TestOpenAIConformanceRun(t *testing.T) {
	conformance.Run(t, playReference(reference.Options{Stream: true}), conformance.Scenarios("openai/*"))
}

// Two runs serve the same bytes: ids, created times and fingerprints are
// derived from the scenario and the step.
func TestOpenAIRunsRepeat(t *testing.T) {
	var bodies [2][]string
	for i := range bodies {
		sim, _, _ := oaiPlay(t, "openai/tool-loop", true, nil)
		for _, in := range sim.Cassette().Interactions {
			bodies[i] = append(bodies[i], string(in.Response.Body))
		}
	}
	if strings.Join(bodies[0], "") != strings.Join(bodies[1], "") || len(bodies[0]) != 3 {
		t.Fatalf("two runs served different responses:\n%s\n%s", bodies[0], bodies[1])
	}
}
