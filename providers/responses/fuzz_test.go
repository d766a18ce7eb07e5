package responses

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/llmtck/llmtck/internal/corpus"
)

// seedBodies returns the request and response bodies of the real corpus,
// plus the hand-built ones, as fuzz seeds.
func seedBodies(f *testing.F) (reqs, resps [][]byte) {
	f.Helper()
	for _, c := range corpusCalls(f) {
		if len(c.in.Request.Body) > 0 {
			reqs = append(reqs, c.in.Request.Body)
		}
		resps = append(resps, c.in.Response.Body)
	}
	reqs = append(reqs, []byte(loopBody), []byte(`{"input":"hi","stream":true}`))
	resps = append(resps, sseBody(goodEvents()), sseBody(goodEvents()[:11]))
	return reqs, resps
}

// FuzzDecodeRequest: decoding never panics, and whatever decodes survives
// encode → decode unchanged.
func FuzzDecodeRequest(f *testing.F) {
	reqs, _ := seedBodies(f)
	for _, b := range reqs {
		if corpus.FuzzSeed(b) {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		first, err := Codec{}.DecodeRequest(body)
		if err != nil {
			return
		}
		enc, err := Codec{}.EncodeRequest(first)
		if err != nil {
			t.Fatalf("encode of a decoded body failed: %v", err)
		}
		second, err := Codec{}.DecodeRequest(enc)
		if err != nil {
			t.Fatalf("decode of an encoded body failed: %v\n%s", err, enc)
		}
		if diff := cmp.Diff(first, second); diff != "" {
			t.Fatalf("decode(encode(decode(b))) differs:\n%s\nencoded: %s", diff, enc)
		}
	})
}

// FuzzDecodeResponse: decoding any body, at any status, never panics, and a
// stream always reports as many offsets as events.
func FuzzDecodeResponse(f *testing.F) {
	_, resps := seedBodies(f)
	for _, b := range resps {
		if corpus.FuzzSeed(b) {
			f.Add(200, b)
		}
	}
	f.Add(400, []byte(`{"error":{"message":"x","type":"invalid_request_error","param":"input","code":null}}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		r, err := Codec{}.DecodeResponse(status, http.Header{}, body)
		if err != nil {
			return
		}
		if st := r.Stream; st != nil && len(st.Offsets) != st.Events {
			t.Fatalf("%d offsets for %d events", len(st.Offsets), st.Events)
		}
	})
}
