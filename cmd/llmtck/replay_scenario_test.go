package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/traffic"
)

// replay --scenario serves a real SDK client driven by hand: three calls
// echoing each response's content blocks get 200s; a tampered echo gets
// the provider's 400 body, and the untampered retry goes on.
func TestReplayScenarioServesTheAnthropicSDK(t *testing.T) {
	sc, err := scenario.Load("anthropic/thinking-tool-loop")
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "replay", "--scenario", sc.Name)
	client := anthropic.NewClient(option.WithBaseURL(s.addr), option.WithAPIKey("sk-ant-test"), option.WithMaxRetries(0))
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(sc.Turns[0].Model),
		MaxTokens: int64(sc.MaxTokens),
		System:    []anthropic.TextBlockParam{{Text: sc.System}},
		Thinking:  anthropic.ThinkingConfigParamOfEnabled(int64(sc.Thinking.BudgetTokens)),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(sc.Turns[0].Prompt))},
	}
	for _, tool := range sc.Tools {
		var schema anthropic.ToolInputSchemaParam
		if err := json.Unmarshal(tool.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: tool.Name, Description: anthropic.String(tool.Description), InputSchema: schema}})
	}
	ctx := context.Background()
	// step answers one call and appends the reply and its tool results.
	step := func(n int, want anthropic.StopReason) {
		t.Helper()
		resp, err := client.Messages.New(ctx, params)
		if err != nil {
			t.Fatalf("call %d: %v", n, err)
		}
		if resp.StopReason != want || resp.Content[0].Type != "thinking" || resp.Content[0].Signature == "" {
			t.Fatalf("call %d: stop %q, first block %q", n, resp.StopReason, resp.Content[0].Type)
		}
		params.Messages = append(params.Messages, resp.ToParam())
		var results []anthropic.ContentBlockParamUnion
		for _, b := range resp.Content {
			if b.Type == "tool_use" {
				tool, _ := sc.Tool(b.Name)
				results = append(results, anthropic.NewToolResultBlock(b.ID, tool.Result, false))
			}
		}
		if len(results) > 0 {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(results...))
		}
	}
	step(1, anthropic.StopReasonToolUse)

	// The echoed signature with one character changed.
	good := params.Messages
	tampered := append([]anthropic.MessageParam(nil), good...)
	asst := good[1]
	asst.Content = append([]anthropic.ContentBlockParamUnion(nil), asst.Content...)
	th := *asst.Content[0].OfThinking
	sig := []byte(th.Signature)
	sig[len(sig)/2] ^= 1
	th.Signature = string(sig)
	asst.Content[0].OfThinking = &th
	tampered[1] = asst
	params.Messages = tampered
	_, err = client.Messages.New(ctx, params)
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Fatalf("tampered call: %v", err)
	}
	want := "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.\"}}"
	if got := apiErr.RawJSON(); got != want {
		t.Errorf("tampered call answered\n%s\nwant\n%s", got, want)
	}

	params.Messages = good
	step(2, anthropic.StopReasonToolUse)
	step(3, anthropic.StopReasonEndTurn)

	// After the last step, and on a path no provider serves, it refuses.
	resp, err := http.Post(s.addr+"/v1/complete", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("POST /v1/complete answered %d, want 404", resp.StatusCode)
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit %d after SIGTERM; stderr:\n%s", code, s.stderr)
	}
	log := s.stderr.String()
	for _, line := range []string{
		"llmtck: simulating anthropic/thinking-tool-loop, 3 steps (anthropic POST /v1/messages)\n",
		"sim step 1/3 POST /v1/messages 200 json ",
		"sim step 2/3 POST /v1/messages 400 json ",
		" refused=ANT-THINK-001 messages[1].content[0].signature: messages.1.content.0: `thinking` or `redacted_thinking` blocks",
		"sim step 3/3 POST /v1/messages 200 json ",
		"sim anthropic/thinking-tool-loop: all 3 steps served; a further request is refused\n",
		"sim step 4/3 POST /v1/complete 404 json ",
		"sim anthropic/thinking-tool-loop: 3 of 3 steps served, 2 requests refused\n",
	} {
		if !strings.Contains(log, line) {
			t.Errorf("stderr lacks %q", line)
		}
	}
	t.Logf("stderr:\n%s", log)
}

func TestReplayScenarioUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "--scenario", "anthropic/parallel-tools", "--cassette", "x.yaml"},
		{"replay", "--scenario", "anthropic/no-such-thing"},
		{"replay", "--scenario", "anthropic/parallel-tools", "--check=false"},
		{"replay", "--scenario", "anthropic/parallel-tools", "--timing", "recorded"},
		{"replay"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.HasPrefix(errOut, "llmtck: replay: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a replay usage error", args, code, errOut)
		}
	}
}

func TestWireForPath(t *testing.T) {
	for p, want := range map[string]traffic.Wire{
		"/v1/messages":         traffic.WireAnthropic,
		"/v1/chat/completions": traffic.WireOpenAI,
		"/v1/responses":        traffic.WireResponses,
		"/v1beta/models/gemini-2.5-flash:streamGenerateContent": traffic.WireGemini,
		"/v1/models/gemini-2.5-pro:generateContent":             traffic.WireGemini,
		"/v1/messages/count_tokens":                             traffic.WireAnthropic,
		"/model/us.anthropic.claude-sonnet-4-5/converse-stream": traffic.WireBedrock,
		"/v1/complete": "",
	} {
		if got, _ := simulator.WireForPath(p); got != want {
			t.Errorf("WireForPath(%q) = %q, want %q", p, got, want)
		}
	}
}

// Every scenario the user does not stop mid-stream, multi-provider ones
// included, is played to the end by the reference engine against one
// listener serving replay --scenario's handler, with no request refused.
func TestReplayScenarioServesTheReferenceEngine(t *testing.T) {
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, sc := range all {
		if aborts(sc) {
			continue // over plain HTTP the simulator cuts such a stream off
		}
		if len(sc.Wires()) > 1 {
			multi++
		}
		t.Run(sc.Name, func(t *testing.T) {
			var log bytes.Buffer
			srv := httptest.NewServer(newScenarioHandler(simulator.NewSimulator(sc), &log))
			urls := map[traffic.Wire]string{}
			for _, w := range sc.Wires() {
				urls[w] = srv.URL
			}
			err := reference.Play(context.Background(), simulator.NewSession(sc, urls, nil), reference.Options{Stream: true})
			srv.Close() // waits for the handlers: the log is complete
			if err != nil || strings.Contains(log.String(), "refused=") || !strings.Contains(log.String(), fmt.Sprintf("all %d steps served", len(sc.Steps))) {
				t.Errorf("play: %v; log:\n%s", err, log.String())
			}
		})
	}
	if multi == 0 {
		t.Error("no bundled scenario talks to two providers: one listener serving several is untested")
	}
}

func aborts(sc *scenario.Scenario) bool {
	for _, st := range sc.Steps {
		if st.AbortAfter > 0 {
			return true
		}
	}
	return false
}

func TestExplain(t *testing.T) {
	code, out, errOut := runCLI(t, "explain", "ant-think-001")
	for _, want := range []string{"ANT-THINK-001: ", "law: ", "the provider answers: ", "evidence: refused on ", "how to fix: "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("explain: exit %d, stderr %q; want %q in\n%s", code, errOut, want, out)
		}
	}
	if code, _, errOut := runCLI(t, "explain", "NOPE-001"); code != 2 || !strings.Contains(errOut, "no check") {
		t.Errorf("explain NOPE-001: exit %d, %q; want 2", code, errOut)
	}
}
