package openai_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	oai "github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/openai"
	"github.com/llmtck/llmtck/traffic"
)

// replayServer serves body as an event stream to every request over real
// loopback HTTP and keeps the request bodies it received.
type replayServer struct {
	*httptest.Server
	mu       sync.Mutex
	received [][]byte
}

func newReplayServer(t *testing.T, bodies ...[]byte) *replayServer {
	s := &replayServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.received)
		s.received = append(s.received, b)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(bodies[min(n, len(bodies)-1)])
	}))
	t.Cleanup(s.Close)
	return s
}

// request returns the i-th request body the server received.
func (s *replayServer) request(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.received[i]
}

func withoutComments(body []byte) []byte {
	var out [][]byte
	for _, ev := range bytes.SplitAfter(body, []byte("\n\n")) {
		if !bytes.HasPrefix(ev, []byte(":")) {
			out = append(out, ev)
		}
	}
	return bytes.Join(out, nil)
}

func sdkClient(url string) oai.Client {
	return oai.NewClient(option.WithBaseURL(url), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// sdkAccumulate streams body through openai-go's own SSE reader and
// ChatCompletionAccumulator, over HTTP. Comment lines are dropped first:
// openai-go dispatches an empty event after one and fails with "unexpected
// end of JSON input" on OpenRouter's ": OPENROUTER PROCESSING" (openai-go#227).
func sdkAccumulate(t *testing.T, body []byte) oai.ChatCompletionAccumulator {
	t.Helper()
	srv := newReplayServer(t, withoutComments(body))
	client := sdkClient(srv.URL)
	stream := client.Chat.Completions.NewStreaming(context.Background(), oai.ChatCompletionNewParams{
		Model:    "gpt-4o-mini",
		Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("hi")},
	})
	var acc oai.ChatCompletionAccumulator
	for stream.Next() {
		if !acc.AddChunk(stream.Current()) {
			t.Fatalf("SDK rejected a chunk of a real stream")
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("SDK stream error: %v", err)
	}
	return acc
}

// Our reassembly of every real corpus stream matches openai-go's
// ChatCompletionAccumulator fed the same bytes over HTTP.
func TestCorpusStreamsMatchSDK(t *testing.T) {
	streams := 0
	for _, c := range chatCalls(t) {
		ours, err := openai.Codec{}.DecodeResponse(c.Response.Status, nil, c.Response.Body)
		if err != nil || ours.Stream == nil {
			continue
		}
		streams++
		t.Run(c.String(), func(t *testing.T) {
			acc := sdkAccumulate(t, c.Response.Body)
			if acc.ID != ours.ID || acc.Model != ours.Model {
				t.Errorf("id/model: SDK %q %q, ours %q %q", acc.ID, acc.Model, ours.ID, ours.Model)
			}
			if len(acc.Choices) != len(ours.Output) {
				t.Fatalf("choices: SDK %d, ours %d", len(acc.Choices), len(ours.Output))
			}
			for i, ch := range acc.Choices {
				compareMessage(t, ch.Message, ours.Output[i])
			}
			// The SDK overwrites finish_reason with each chunk; OpenRouter's
			// trailing usage chunk (finish_reason null) leaves it empty. We
			// keep the last real one; otherwise the two agree.
			if sdk := acc.Choices[0].FinishReason; sdk != "" && sdk != ours.StopReason || ours.StopReason == "" {
				t.Errorf("finish_reason: SDK %q, ours %q", sdk, ours.StopReason)
			}
			if u := ours.Usage; u == nil || int64(u.InputTokens) != acc.Usage.PromptTokens || int64(u.OutputTokens) != acc.Usage.CompletionTokens {
				t.Errorf("usage: SDK %+v, ours %+v", acc.Usage, u)
			}
		})
	}
	if streams < 7 {
		t.Errorf("compared %d streams, want the corpus's 7", streams)
	}
}

func compareMessage(t *testing.T, sdk oai.ChatCompletionMessage, ours traffic.Message) {
	t.Helper()
	var text string
	var calls []traffic.Block
	for _, b := range ours.Blocks {
		switch b.Type {
		case traffic.BlockText:
			text += b.Text
		case traffic.BlockToolCall:
			calls = append(calls, b)
		}
	}
	if sdk.Content != text {
		t.Errorf("content: SDK %q, ours %q", sdk.Content, text)
	}
	if len(sdk.ToolCalls) != len(calls) {
		t.Fatalf("tool calls: SDK %d, ours %d", len(sdk.ToolCalls), len(calls))
	}
	for i, tc := range sdk.ToolCalls {
		args, _ := rawjson.String(calls[i].Input)
		if tc.ID != calls[i].ID || tc.Function.Name != calls[i].Name || tc.Function.Arguments != args {
			t.Errorf("tool call %d: SDK %s %s %s, ours %s %s %s", i, tc.ID, tc.Function.Name, tc.Function.Arguments, calls[i].ID, calls[i].Name, args)
		}
	}
}

// A harness built on openai-go streams a real tool call, echoes the
// assistant message with ToParam and answers the call. The request it sends
// decodes to the same call, arguments byte for byte, and round-trips.
func TestSDKEchoOfStreamedCall(t *testing.T) {
	var stream []byte
	for _, c := range chatCalls(t) {
		if r, err := (openai.Codec{}).DecodeResponse(200, nil, c.Response.Body); err == nil && r.Stream != nil && r.StopReason == "tool_calls" {
			stream = c.Response.Body
			break
		}
	}
	if stream == nil {
		t.Fatal("no streamed tool call in the corpus")
	}
	recorded, _ := openai.Codec{}.DecodeResponse(200, nil, stream)
	call := onlyCall(t, recorded)

	srv := newReplayServer(t, stream, stream)
	client := sdkClient(srv.URL)
	ctx := context.Background()
	params := oai.ChatCompletionNewParams{Model: "gpt-4o-mini", Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("weather <in> Paris & Nice?")}}
	s := client.Chat.Completions.NewStreaming(ctx, params)
	var acc oai.ChatCompletionAccumulator
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	params.Messages = append(params.Messages, acc.Choices[0].Message.ToParam(), oai.ToolMessage("21C", acc.Choices[0].Message.ToolCalls[0].ID))
	s = client.Chat.Completions.NewStreaming(ctx, params)
	for s.Next() {
	}

	sent := srv.request(1)
	req := roundTrip(t, sent)
	echoed := req.Messages[1].Blocks[0]
	if echoed.Type != traffic.BlockToolCall || echoed.ID != call.ID || echoed.Name != call.Name || !bytes.Equal(echoed.Input, call.Input) {
		t.Errorf("echoed call %+v\nrecorded call %+v", echoed, call)
	}
	if res := req.Messages[2].Blocks[0]; res.Type != traffic.BlockToolResult || res.ToolCallID != call.ID || res.Text != "21C" {
		t.Errorf("tool result = %+v", res)
	}
}
