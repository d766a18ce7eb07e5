package responses

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func FuzzZZReq(f *testing.F) {
	for _, s := range []string{`{"input":[{"role":"user","content":"x"},{"type":"reasoning","id":"rs","summary":[{"type":"summary_text","text":"a"}],"encrypted_content":"e"},{"type":"function_call","call_id":"c","name":"n","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"o"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"t"},{"type":"input_image","image_url":"data:x;,"}]}],"instructions":"i","stream":true,"store":false,"include":["a"],"max_output_tokens":5,"tools":[{"type":"function","name":"f"}],"reasoning":{}}`, `{"input":"s"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		first, err := Codec{}.DecodeRequest(body)
		if err != nil {
			return
		}
		enc, err := Codec{}.EncodeRequest(first)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		second, err := Codec{}.DecodeRequest(enc)
		if err != nil {
			t.Fatalf("decode2: %v\n%s", err, enc)
		}
		if diff := cmp.Diff(first, second); diff != "" {
			t.Fatalf("%s\n%s", diff, enc)
		}
	})
}

func FuzzZZResp(f *testing.F) {
	ev := goodEvents()
	f.Add(sseBody(ev[:12]))
	f.Add([]byte(`{"id":"r","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"x"}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := Codec{}.DecodeResponse(200, http.Header{}, body)
		if err != nil {
			return
		}
		if st := r.Stream; st != nil && len(st.Offsets) != st.Events {
			t.Fatal("offsets")
		}
	})
}
