package openai_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers/openai"
)

// Hand-built seeds beside the corpus: every request shape the codec names.
var requestSeeds = []string{
	`{"model":"m","messages":[{"role":"developer","content":[{"type":"text","text":"<b>&","cache_control":{"type":"ephemeral"}}]},{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AA=="}},{"type":"file","file":{"file_id":"f"}},{"type":"input_audio","input_audio":{}}]}],"max_completion_tokens":5,"stream":false}`,
	`{"messages":[{"role":"assistant","content":null,"reasoning_content":"r","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":\"\\u00e9\"}","strict":true},"extra_content":{"google":{"thought_signature":"sig=="}}}]},{"role":"tool","tool_call_id":"c","content":[{"type":"text","text":"ok"}]}]}`,
	`{"messages":[{"role":"assistant","content":[],"tool_calls":[],"function_call":{"name":"f","arguments":"{}"}},{"role":"function","name":"f","content":"x"}],"tools":null,"max_tokens":3}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"id":1,"type":"custom","custom":{"name":7,"input":"a"},"function.x":1}]},{"role":"tool","tool_call_id":2}],"stream":"yes"}`,
	`{"stream":true,"stream":false,"messages":[{"role":"assistant","name":"a","name":1,"tool_calls":[],"tool_calls":[{"id":"c"}],"reasoning_content":"x","reasoning_content":"y"}]}`,
}

func FuzzDecodeRequest(f *testing.F) {
	for _, c := range chatCalls(f) {
		if corpus.FuzzSeed(c.Request.Body) {
			f.Add(c.Request.Body)
		}
	}
	for _, s := range requestSeeds {
		f.Add([]byte(s))
	}
	c := openai.Codec{}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := c.DecodeRequest(body)
		if err != nil {
			return
		}
		enc, err := c.EncodeRequest(req)
		if err != nil {
			t.Fatalf("a decoded request does not encode: %v", err)
		}
		if !json.Valid(enc) {
			t.Fatalf("encoded body is not JSON: %s", enc)
		}
		again, err := c.DecodeRequest(enc)
		if err != nil {
			t.Fatalf("encoded body does not decode: %v\n%s", err, enc)
		}
		if !reflect.DeepEqual(req, again) {
			t.Fatalf("decode → encode → decode changed the model\nin:  %s\nout: %s", body, enc)
		}
		for i := range req.Messages {
			for j, b := range req.Messages[i].Blocks {
				if !bytes.Equal(b.Input, again.Messages[i].Blocks[j].Input) {
					t.Fatalf("%s: arguments bytes changed", b.Path)
				}
			}
		}
	})
}

func FuzzDecodeResponse(f *testing.F) {
	for _, c := range chatCalls(f) {
		if corpus.FuzzSeed(c.Response.Body) {
			f.Add(c.Response.Status, c.Response.Body)
		}
	}
	f.Add(200, sseBody(cStart, cArgs1, cArgs2, cFinish, cUsage, cDone))
	f.Add(200, sseBody(cStart, `{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":-1},{"function":{"arguments":5}},{"index":999999}]}}]}`, `{"error":"x"}`))
	f.Add(200, []byte(cStart+"\n"+cArgs1+"\n"))
	f.Add(500, []byte("<html>oops</html>"))
	c := openai.Codec{}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		r, err := c.DecodeResponse(status, nil, body)
		if err != nil {
			return
		}
		if r == nil || r.Output == nil {
			t.Fatal("no error and no response")
		}
		if s := r.Stream; s != nil {
			if s.Complete && (s.Truncated || s.Error != nil) {
				t.Fatalf("stream both complete and cut off or failed: %+v", s)
			}
			if len(s.Offsets) != s.Events {
				t.Fatalf("%d offsets for %d events", len(s.Offsets), s.Events)
			}
		}
	})
}

// largeStream is a chat stream of n events: text deltas, then one tool
// call whose arguments arrive in pieces.
func largeStream(n int) []byte {
	var b bytes.Buffer
	b.WriteString("data: " + cStart + "\n\n")
	for i := 0; i < n/2; i++ {
		fmt.Fprintf(&b, "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word %d \"},\"finish_reason\":null}],\"obfuscation\":\"abc\"}\n\n", i)
	}
	b.WriteString(`data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"items\":["}}]},"finish_reason":null}]}` + "\n\n")
	for i := 0; i < n/2; i++ {
		fmt.Fprintf(&b, "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"%d,\"}}]},\"finish_reason\":null}]}\n\n", i)
	}
	b.WriteString(`data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"0]}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n")
	b.WriteString("data: " + cUsage + "\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkDecodeStream reports ns per event at three sizes; a flat figure
// shows reassembly is linear in the stream's length.
func BenchmarkDecodeStream(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		body := largeStream(n)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				r, err := openai.Codec{}.DecodeResponse(200, nil, body)
				if err != nil || !r.Stream.Complete || len(r.Stream.Issues) > 0 {
					b.Fatalf("err %v stream %+v", err, r.Stream)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/event")
		})
	}
}
