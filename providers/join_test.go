package providers_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// A response decoded alone and joined to its request (JoinResponse, as the
// recorder joins a stream's answer to the request its lint queue decoded)
// is the exchange AddResponse gives, on every call of the corpus, those
// whose wire only the response tells included.
func TestJoinResponseIsAddResponse(t *testing.T) {
	n := 0
	for _, path := range append(corpus.Files(t), corpus.SetFiles(t, corpus.Wave2)...) {
		c, err := cassette.Load(path)
		if err != nil {
			continue
		}
		for i, in := range c.Interactions {
			call := providers.Call{Method: in.Request.Method, URL: in.Request.URL, RequestHeader: in.Request.Header,
				RequestBody: in.Request.Body, Status: in.Response.Status, ResponseHeader: in.Response.Header,
				ResponseBody: in.Response.Body, Duration: in.Response.Duration}
			wire := providers.Detect(call.URL, call.RequestBody, nil)
			request := func() *traffic.Exchange {
				ex := providers.Decode(0, providers.Call{Method: call.Method, URL: call.URL,
					RequestHeader: call.RequestHeader, RequestBody: call.RequestBody, Wire: wire})
				return &ex
			}
			want := request()
			providers.AddResponse(want, call)
			resp := &traffic.Exchange{Method: call.Method, URL: call.URL, Wire: wire}
			providers.AddResponse(resp, call)
			got := request()
			providers.JoinResponse(got, resp)
			if d := cmp.Diff(want, got, rawTokens); d != "" {
				t.Errorf("%s#%d: joined mismatch (-AddResponse +JoinResponse):\n%s", corpus.Name(t, path), i, d)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no call compared")
	}
	t.Logf("%d calls compared", n)
}
