package gemini_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
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
		`{"contents":[{"parts":[{"function_call":{"name":"f","args":{},"thoughtSignature":"c2ln"},"thought_signature":"c2ln"}]}],"system_instruction":{"role":"user"}}`,
		`{"contents":[{"role":"assistant","parts":null},{"role":7}],"systemInstruction":"be brief","model":5}`,
		`{"tools":[{"functionDeclarations":[{"name":"a"}],"googleSearch":{}},{}],"generationConfig":{"thinkingConfig":[]}}`,
		`{"contents":[{"parts":[{"functionResponse":{"name":"f","response":{},"parts":[{"text":"a","thought":false}]}},{"thoughtSignature":""}]}]}`,
		`{"systemInstruction":{"parts":{"text":"s"}},"contents":{"parts":{"functionResponse":{"name":"f","parts":{"text":"a"}}}},"tools":{"functionDeclarations":{"name":"f"}}}`,
		` {"generationConfig":{"maxOutputTokens":"12","thinkingConfig":{"thinkingBudget":"-1"}},"contents":[{"parts":{"text":"a"}}]}` + "\n",
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

// FuzzDecodeResponse: no panic, and the stream facts stay consistent.
func FuzzDecodeResponse(f *testing.F) {
	for _, c := range corpusCalls(f) {
		if corpus.FuzzSeed(c.in.Response.Body) {
			f.Add(c.in.Response.Status, c.in.Response.Body)
		}
	}
	for _, s := range []string{
		sseBody(chunkHel, chunkError, chunkLo),
		sseBody(chunkHel, chunkStop, "[DONE]", `{}`),
		"[" + chunkHel + ",\n" + chunkStop[:30],
		`{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":3,"index":1}],"promptFeedback":{"blockReason":2}}`,
	} {
		f.Add(200, []byte(s))
	}
	f.Add(403, []byte(`[{"error":{"code":"403","message":"no"}}]`))
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
			if is.Event < 0 || is.Event >= s.Events || is.Check != "GEM-STREAM-001" {
				t.Fatalf("bad issue %+v of %d events", is, s.Events)
			}
		}
		for _, p := range s.Partial {
			if p < 0 || p >= len(resp.Output) {
				t.Fatalf("partial index %d of %d messages", p, len(resp.Output))
			}
		}
	})
}
