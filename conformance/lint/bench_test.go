package lint

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"

	"github.com/llmtck/llmtck/providers"
)

// BenchmarkJudge is what the recording proxy spends on one call of an
// agent's loop: judging a request that repeats the last one against a
// history of 1 and of 256 calls (the calls before the last are left out of
// the judgement, so both should cost the same), and decoding the request
// alone and the whole call.
func BenchmarkJudge(b *testing.B) {
	resp := bytes.Repeat([]byte("x"), 2048)
	respBody := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + string(resp) + `"}]}`)
	reqBody := []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"` + string(resp[:1024]) + `"}]}`)
	h := http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {"REDACTED"}, "Anthropic-Version": {"2023-06-01"}}
	for _, hist := range []int{1, 256} {
		b.Run(map[int]string{1: "hist1", 256: "hist256"}[hist], func(b *testing.B) {
			l := New(nil)
			call := providers.Call{Method: "POST", URL: "https://api.anthropic.com/v1/messages", RequestHeader: h, RequestBody: reqBody, Status: 200, ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: respBody}
			for range hist {
				l.Add(providers.Decode(0, call))
			}
			next := providers.Decode(0, providers.Call{Method: "POST", URL: call.URL, RequestHeader: h, RequestBody: reqBody})
			b.ResetTimer()
			for range b.N {
				l.Prepare(next).Verdict()
			}
		})
	}
	// An eval harness: every request a new one-turn conversation.
	b.Run("distinct-hist256", func(b *testing.B) {
		l := New(nil)
		prompt := func(n int) []byte {
			return []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"question ` + strconv.Itoa(n) + ` ` + string(resp[:1024]) + `"}]}`)
		}
		for n := range 256 {
			l.Add(providers.Decode(0, providers.Call{Method: "POST", URL: "https://api.anthropic.com/v1/messages", RequestHeader: h, RequestBody: prompt(n), Status: 200, ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: respBody}))
		}
		next := providers.Decode(0, providers.Call{Method: "POST", URL: "https://api.anthropic.com/v1/messages", RequestHeader: h, RequestBody: prompt(-1)})
		b.ResetTimer()
		for range b.N {
			l.Prepare(next).Verdict()
		}
	})
	b.Run("decode-request", func(b *testing.B) {
		for range b.N {
			providers.Decode(0, providers.Call{Method: "POST", URL: "https://api.anthropic.com/v1/messages", RequestHeader: h, RequestBody: reqBody})
		}
	})
	b.Run("decode-call", func(b *testing.B) {
		for range b.N {
			providers.Decode(0, providers.Call{Method: "POST", URL: "https://api.anthropic.com/v1/messages", RequestHeader: h, RequestBody: reqBody, Status: 200, ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: respBody})
		}
	})
}
