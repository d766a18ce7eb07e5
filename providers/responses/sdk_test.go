package responses

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
	"github.com/openai/openai-go/packages/param"
	"github.com/openai/openai-go/responses"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// fakeAPI is a loopback Responses endpoint: it records each request body and
// answers with the next scripted SSE body, written in small flushed chunks
// so the client reads a real stream.
type fakeAPI struct {
	mu     sync.Mutex
	script [][]byte
	got    [][]byte
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.got = append(f.got, body)
	var out []byte
	if len(f.script) > 0 {
		out, f.script = f.script[0], f.script[1:]
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	for len(out) > 0 {
		n := min(len(out), 700)
		w.Write(out[:n])
		w.(http.Flusher).Flush()
		out = out[n:]
	}
}

func sdkClient(t *testing.T, api *fakeAPI) openai.Client {
	t.Helper()
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return openai.NewClient(option.WithBaseURL(srv.URL+"/v1/"), option.WithAPIKey("test"), option.WithMaxRetries(0))
}

// sdkRun streams body to openai-go and returns what the SDK surfaced: the
// output_item.done items by output_index, the terminal response, and the
// stream error.
func sdkRun(t *testing.T, body []byte) (done map[int64]responses.ResponseOutputItemUnion, final *responses.Response, err error) {
	t.Helper()
	api := &fakeAPI{script: [][]byte{body}}
	client := sdkClient(t, api)
	stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
		Model: "gpt-5",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")},
	})
	defer stream.Close()
	done = map[int64]responses.ResponseOutputItemUnion{}
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.output_item.done":
			done[ev.OutputIndex] = ev.Item
		case "response.completed", "response.incomplete", "response.failed":
			r := ev.Response
			final = &r
		}
	}
	return done, final, stream.Err()
}

// TestStreamsMatchOpenAIGo feeds every real Responses stream through the
// official Go SDK over a loopback server and checks that the reassembled
// output says what the SDK's final response says, item by item, and that
// each reasoning token is the one the SDK delivered in output_item.done.
func TestStreamsMatchOpenAIGo(t *testing.T) {
	var bodies [][]byte
	var names []string
	for _, c := range corpusCalls(t) {
		if !bytes.Contains(c.in.Response.Body, []byte("response.created")) || c.in.Response.Status != 200 {
			continue
		}
		for _, s := range splitStreams(c.in.Response.Body) {
			bodies = append(bodies, s)
			names = append(names, c.file)
		}
	}
	if len(bodies) < 9 {
		t.Fatalf("%d streams, want at least 9", len(bodies))
	}
	for i, body := range bodies {
		t.Run(names[i], func(t *testing.T) {
			done, final, sdkErr := sdkRun(t, body)
			ours, err := Codec{}.DecodeResponse(200, nil, body)
			if err != nil {
				t.Fatal(err)
			}
			if sdkErr != nil {
				// openai-go ends the stream at an error event, as we do.
				if ours.Stream.Error == nil || !strings.Contains(sdkErr.Error(), ours.Stream.Error.Code) || ours.Stream.Complete {
					t.Errorf("SDK error %v; ours %+v", sdkErr, ours.Stream)
				}
				return
			}
			if final == nil {
				t.Fatal("the SDK saw no terminal event")
			}
			if ours.ID != final.ID || ours.Status != string(final.Status) || len(ours.Output) != len(final.Output) {
				t.Fatalf("ours %s %s %d items; SDK %s %s %d items", ours.ID, ours.Status, len(ours.Output), final.ID, final.Status, len(final.Output))
			}
			if ours.Usage.OutputTokens != int(final.Usage.OutputTokens) || ours.Usage.ReasoningTokens != int(final.Usage.OutputTokensDetails.ReasoningTokens) {
				t.Errorf("usage ours %+v, SDK %+v", ours.Usage, final.Usage)
			}
			for j, sdk := range final.Output {
				compareItem(t, j, ours.Output[j], sdk, done[int64(j)])
			}
		})
	}
}

func compareItem(t *testing.T, j int, m traffic.Message, sdk, sdkDone responses.ResponseOutputItemUnion) {
	t.Helper()
	if m.WireType != sdk.Type || ItemID(m) != sdk.ID {
		t.Errorf("output[%d]: ours %s %s, SDK %s %s", j, m.WireType, ItemID(m), sdk.Type, sdk.ID)
		return
	}
	b := m.Blocks[0]
	switch sdk.Type {
	case "function_call":
		args, _ := rawjson.String(b.Input)
		if b.ID != sdk.CallID || b.Name != sdk.Name || args != sdk.Arguments {
			t.Errorf("output[%d]: ours %s %s %s, SDK %s %s %s", j, b.ID, b.Name, args, sdk.CallID, sdk.Name, sdk.Arguments)
		}
	case "message":
		var ourText, sdkText strings.Builder
		for _, p := range m.Blocks {
			ourText.WriteString(p.Text)
		}
		for _, p := range sdk.Content {
			sdkText.WriteString(p.Text)
		}
		if ourText.String() != sdkText.String() {
			t.Errorf("output[%d]: text ours %q, SDK %q", j, ourText.String(), sdkText.String())
		}
	case "reasoning":
		var texts []string
		for _, s := range sdk.Summary {
			texts = append(texts, s.Text)
		}
		if b.Text != strings.Join(texts, summarySeparator) {
			t.Errorf("output[%d]: summary ours %q, SDK %q", j, b.Text, texts)
		}
		enc, _ := rawjson.String(b.EncryptedContent)
		if enc != sdkDone.EncryptedContent {
			t.Errorf("output[%d]: encrypted_content is not the output_item.done token", j)
		}
		if !bytes.Contains([]byte(sdkDone.RawJSON()), b.EncryptedContent) {
			t.Errorf("output[%d]: encrypted_content token is not byte-identical to the SDK's raw .done item", j)
		}
	}
}

// TestRequestFromOpenAIGo decodes the body the official SDK sends for a
// stateless tool loop, re-encodes it, and checks the opaque tokens survive
// byte for byte (the SDK escapes <, > and & as \u003c…; we keep its bytes).
func TestRequestFromOpenAIGo(t *testing.T) {
	api := &fakeAPI{script: [][]byte{sseBody(goodEvents())}}
	client := sdkClient(t, api)
	input := responses.ResponseInputParam{
		{OfMessage: &responses.EasyInputMessageParam{Role: responses.EasyInputMessageRoleUser,
			Content: responses.EasyInputMessageContentUnionParam{OfString: openai.String("Weather in <Paris> & Nice?")}}},
		{OfReasoning: &responses.ResponseReasoningItemParam{ID: "rs_1",
			Summary:          []responses.ResponseReasoningItemSummaryParam{{Text: "Need weather"}},
			EncryptedContent: param.NewOpt("gAAAA+/=<&>")}},
		{OfFunctionCall: &responses.ResponseFunctionToolCallParam{ID: openai.String("fc_1"), CallID: "call_1", Name: "get_weather",
			Arguments: `{"city":"<Paris>","n":1.50}`}},
		{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{CallID: "call_1", Output: `{"temp":"21 & sunny"}`}},
	}
	stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
		Model:        "gpt-5",
		Input:        responses.ResponseNewParamsInputUnion{OfInputItemList: input},
		Instructions: openai.String("Be brief"),
		Store:        openai.Bool(false),
		Include:      []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent},
	})
	for stream.Next() {
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	stream.Close()
	if len(api.got) != 1 {
		t.Fatalf("%d requests", len(api.got))
	}
	sent := api.got[0]
	first, second, encoded := roundTrip(t, sent)
	if !rawjson.Equal(encoded, sent) {
		t.Errorf("encoded %s\nsent    %s", encoded, sent)
	}
	if !first.Stream || first.Store == nil || *first.Store || len(first.Messages) != 4 || first.System[0].Text != "Be brief" {
		t.Errorf("decoded %+v", first)
	}
	rs, fc, out := first.Messages[1].Blocks[0], first.Messages[2].Blocks[0], first.Messages[3].Blocks[0]
	if string(rs.EncryptedContent) != `"gAAAA+/=\u003c\u0026\u003e"` || fc.ItemID != "fc_1" || fc.ID != "call_1" {
		t.Errorf("reasoning %s, call %+v", rs.EncryptedContent, fc)
	}
	for _, tok := range []json.RawMessage{rs.EncryptedContent, fc.Input, out.ResultRaw} {
		if !bytes.Contains(sent, tok) || !bytes.Contains(encoded, tok) {
			t.Errorf("token %s not byte-identical in the sent and encoded bodies", tok)
		}
	}
	if second.Messages[1].Blocks[0].Text != "Need weather" {
		t.Errorf("second decode: %+v", second.Messages[1])
	}
}
