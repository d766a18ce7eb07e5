package anthropic

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/llmtck/llmtck/internal/corpus"
)

// FuzzDecodeRequest checks that any body that decodes encodes again, and
// that decode → encode → decode is stable: the same model, the same bytes.
func FuzzDecodeRequest(f *testing.F) {
	for _, rec := range recordings(f) {
		for _, in := range rec.c.Interactions {
			if len(in.Request.Body) > 0 {
				if corpus.FuzzSeed(in.Request.Body) {
					f.Add(in.Request.Body)
				}
			}
		}
	}
	f.Add([]byte(shapes))
	f.Add([]byte(`{"stream":false,"stream":true,"messages":[{"role":"user","content":"x","content":null}]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"tool_result","content":[{"type":"tool_result","content":[]}]}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		first, err := Codec{}.DecodeRequest(body)
		if err != nil {
			return
		}
		enc, err := Codec{}.EncodeRequest(first)
		if err != nil {
			t.Fatalf("a decoded request does not encode: %v", err)
		}
		second, err := Codec{}.DecodeRequest(enc)
		if err != nil {
			t.Fatalf("the encoded body does not decode: %v\n%s", err, enc)
		}
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("decode → encode → decode changed the request\n body    %s\n encoded %s", body, enc)
		}
		again, err := Codec{}.EncodeRequest(second)
		if err != nil || !bytes.Equal(enc, again) {
			t.Fatalf("encoding is not stable: %v\n %s\n %s", err, enc, again)
		}
	})
}

// FuzzDecodeResponse checks that no body panics and that the stream facts
// stay consistent whatever the events.
func FuzzDecodeResponse(f *testing.F) {
	for _, rec := range recordings(f) {
		for _, in := range rec.c.Interactions {
			if corpus.FuzzSeed(in.Response.Body) {
				f.Add(uint16(in.Response.Status), in.Response.Body)
			}
		}
	}
	f.Add(uint16(200), sseBody(goodStream...))
	f.Add(uint16(200), sseBody(evStart, evThinkStart, evThink, evOverloaded, evMsgStop))
	f.Add(uint16(200), sseBody(evStart, evToolStart, evJSON1, evStop1, evThinkStart, evStop0, evStop0))
	f.Add(uint16(502), []byte("<html>Bad Gateway</html>"))
	// Bedrock InvokeModelWithResponseStream: the same events in chunk frames.
	f.Add(uint16(200), invokeStream(f, sseBody(goodStream...)))
	f.Fuzz(func(t *testing.T, status uint16, body []byte) {
		resp, err := Codec{}.DecodeResponse(int(status), nil, body)
		if err != nil {
			if resp != nil {
				t.Fatal("both a response and an error")
			}
			return
		}
		if resp.Output == nil {
			t.Fatal("nil Output")
		}
		st := resp.Stream
		if st == nil {
			return
		}
		switch {
		case len(st.Offsets) != st.Events:
			t.Fatalf("%d offsets for %d events", len(st.Offsets), st.Events)
		case st.Complete && (st.Truncated || st.Error != nil || len(st.Partial) > 0):
			t.Fatalf("complete yet truncated=%t error=%v partial=%v", st.Truncated, st.Error, st.Partial)
		case !st.Complete && len(resp.Output) > 0 && len(st.Partial) == 0:
			t.Fatal("an incomplete message not listed as partial")
		case st.Error != resp.Error:
			t.Fatal("stream error and response error differ")
		}
		for _, is := range st.Issues {
			if is.Event < 0 || (st.Events > 0 && is.Event >= st.Events) {
				t.Fatalf("issue names event %d of %d: %+v", is.Event, st.Events, is)
			}
		}
	})
}
