package bedrock_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// FuzzDecodeRequest: whatever decodes encodes, to the same JSON value, and
// decodes again to the same model.
func FuzzDecodeRequest(f *testing.F) {
	for _, c := range corpusCalls(f) {
		if len(c.in.Request.Body) > 0 {
			if corpus.FuzzSeed(c.in.Request.Body) {
				f.Add(c.in.Request.Body)
			}
		}
	}
	for _, s := range []string{
		`{"messages":[{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"a","signature":"c2ln"}}},{"reasoningContent":{"redactedContent":"cmVk"}}]}],"system":[{"text":"s"},{"cachePoint":{"type":"default"}}]}`,
		`{"messages":[{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"json":{"a":1}},{"text":""}],"status":"error"}}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"f"}}]}}`,
		`{"messages":[{"role":7,"content":null}],"inferenceConfig":{"maxTokens":"x"}}`,
		`{"messages":[{"content":[{"toolUse":{"toolUseId":"t","name":"f","input":{}}, "text":"both"}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := codec.DecodeRequest(body)
		if err != nil {
			return
		}
		enc, err := codec.EncodeRequest(req)
		if err != nil {
			t.Fatalf("a decoded request does not encode: %v", err)
		}
		if !rawjson.Equal(enc, body) {
			t.Fatalf("encoding changed the JSON value\nin:  %s\nout: %s", body, enc)
		}
		again, err := codec.DecodeRequest(enc)
		if err != nil {
			t.Fatalf("the encoding does not decode: %v\n%s", err, enc)
		}
		if d := cmp.Diff(req, again); d != "" {
			t.Fatalf("decode(encode(decode(b))) differs:\n%s", d)
		}
	})
}

// FuzzDecodeResponse: no panic on any body, event streams included, and
// the stream facts stay consistent.
func FuzzDecodeResponse(f *testing.F) {
	for _, c := range corpusCalls(f) {
		if corpus.FuzzSeed(c.in.Response.Body) {
			f.Add(c.in.Response.Status, c.in.Response.Body)
		}
	}
	f.Add(200, streamOf(f, ev("messageStart", `{"role":"assistant"}`), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"hi"}}`)))
	f.Add(200, []byte(`{"messageStart":{"role":"assistant"}}`+"\n"+`{"contentBlockStop":{"contentBlockIndex":3}}`))
	f.Add(400, []byte(`{"message":"The text field in the ContentBlock object at messages.0.content.0 is blank."}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		resp, err := codec.DecodeResponse(status, nil, body)
		if err != nil {
			return
		}
		if resp.Output == nil {
			t.Fatal("Output is nil")
		}
		s := resp.Stream
		if s == nil {
			return
		}
		if s.Events != len(s.Offsets) || s.Complete && s.Truncated || s.Complete && s.Error != nil {
			t.Fatalf("inconsistent stream facts: %+v", s)
		}
		for _, is := range s.Issues {
			if is.Event < 0 || is.Event > s.Events || is.Check != traffic.CheckBedrockStream {
				t.Fatalf("bad issue %+v of %d events", is, s.Events)
			}
		}
	})
}
