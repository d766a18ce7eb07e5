package anthropic

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// sdkAccumulate serves body as a stream from a loopback server and lets
// anthropic-sdk-go read and Accumulate it, the reference our reassembly must
// match.
func sdkAccumulate(t *testing.T, body []byte) (anthropic.Message, error) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	defer srv.Close()
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{
		Model: "claude-x", MaxTokens: 16,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))},
	})
	defer stream.Close()
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			return msg, err
		}
	}
	return msg, stream.Err()
}

// sameAsSDK compares our reassembled response with the SDK's message: the
// same blocks in order, with equal text, thinking, signature bytes and
// tool input, and the same id, model, stop reason and token counts.
func sameAsSDK(t *testing.T, ours *traffic.Response, sdk anthropic.Message) {
	t.Helper()
	eq(t, "id", ours.ID, sdk.ID)
	eq(t, "model", ours.Model, string(sdk.Model))
	eq(t, "stop_reason", ours.StopReason, string(sdk.StopReason))
	if ours.Usage == nil {
		t.Fatal("no usage")
	}
	eq(t, "usage", *ours.Usage, traffic.Usage{
		InputTokens: int(sdk.Usage.InputTokens), OutputTokens: int(sdk.Usage.OutputTokens),
		CacheReadTokens: int(sdk.Usage.CacheReadInputTokens), CacheCreationTokens: int(sdk.Usage.CacheCreationInputTokens),
		ReasoningTokens: int(sdk.Usage.OutputTokensDetails.ThinkingTokens),
	})
	if len(ours.Output) != 1 || len(ours.Output[0].Blocks) != len(sdk.Content) {
		t.Fatalf("blocks: ours %d messages, SDK %d blocks", len(ours.Output), len(sdk.Content))
	}
	for i, b := range ours.Output[0].Blocks {
		s := sdk.Content[i]
		eq(t, b.Path+" type", b.WireType, s.Type)
		switch b.Type {
		case traffic.BlockText:
			eq(t, b.Path+" text", b.Text, s.Text)
		case traffic.BlockThinking:
			eq(t, b.Path+" thinking", b.Text, s.Thinking)
			// The signature must be the exact JSON string the SDK would send back.
			eq(t, b.Path+" signature", string(b.Signature), string(rawjson.Quote(s.Signature)))
		case traffic.BlockRedacted:
			eq(t, b.Path+" data", string(b.Data), string(rawjson.Quote(s.Data)))
		case traffic.BlockToolCall:
			eq(t, b.Path+" id", b.ID, s.ID)
			eq(t, b.Path+" name", b.Name, s.Name)
			if !rawjson.Equal(b.Input, s.Input) {
				t.Errorf("%s input: ours %s, SDK %s", b.Path, b.Input, s.Input)
			}
		case traffic.BlockOther:
			if !rawjson.Equal(b.Raw, []byte(s.RawJSON())) {
				t.Errorf("%s raw differs from the SDK's\n ours %.300s\n SDK  %.300s", b.Path, b.Raw, s.RawJSON())
			}
		}
	}
}

// TestStreamMatchesSDK runs every well-formed table stream through the SDK.
func TestStreamMatchesSDK(t *testing.T) {
	streams := map[string][]string{
		"thinking and tool": goodStream,
		"interleaved":       {evStart, evThinkStart, evToolStart, evJSON1, evThink, evJSON2, evSigA, evStop1, evStop0, evMsgDelta, evMsgStop},
		"empty tool input":  {evStart, evThinkStart, evStop0, evToolStart, evJSONEmpty, evStop1, evMsgDelta, evMsgStop},
		"server tools and citations": {evStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"sf\"}"}}`,
			evStop0,
			`{"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{"type":"web_search_result","title":"A","url":"https://x","encrypted_content":"Ev8L+/==","page_age":null}]}}`,
			evStop1,
			`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Sunny"}}`,
			`{"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"https://x","title":"A","encrypted_index":"Eo8=","cited_text":"sun"}}}`,
			`{"type":"content_block_stop","index":2}`,
			`{"type":"content_block_start","index":3,"content_block":{"type":"redacted_thinking","data":"EmwK"}}`,
			`{"type":"content_block_stop","index":3}`,
			evMsgDelta, evMsgStop},
	}
	for name, events := range streams {
		t.Run(name, func(t *testing.T) {
			body := sseBody(events...)
			ours, err := Codec{}.DecodeResponse(200, nil, body)
			if err != nil {
				t.Fatal(err)
			}
			checkStream(t, ours, want{complete: true})
			sdk, err := sdkAccumulate(t, body)
			if err != nil {
				t.Fatalf("SDK: %v", err)
			}
			sameAsSDK(t, ours, sdk)
		})
	}
}
