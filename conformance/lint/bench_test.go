package lint

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
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
			l := New(checks.All())
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
		l := New(checks.All())
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

// The whole of what the recording proxy's linter spends on one call of an
// eval harness (a new one-turn conversation each time): decoding the
// request with the cassette's memo, judging it and remembering the call,
// with a full history of 256 calls. The answer is added undecoded, as the
// proxy adds a JSON answer, and no later request needs it decoded.
func BenchmarkEvalCall(b *testing.B) {
	call := evalHarness()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		call()
	}
}

// evalHarness returns a linter's next call of an eval harness, its
// history already full (256 calls).
func evalHarness() (next func()) {
	answer := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + strings.Repeat("x", 2048) + `"}]}`)
	l, memo := New(checks.All()), traffic.NewMemo()
	n := 0
	next = func() {
		prompt := []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"question ` + strconv.Itoa(n) + ` ` + strings.Repeat("x", 1024) + `"}]}`)
		n++
		lintCall(l, memo, prompt, answer, true)
	}
	for range 256 {
		next()
	}
	return next
}

// BenchmarkEvalCallCold is BenchmarkEvalCall with the processor's caches
// evicted before every other call, as the proxy's HTTP work between two
// calls evicts the linter's code and data. The cold call (µs/call-cold,
// the call alone) is what the linter costs inside the proxy, more than the
// tight loop of BenchmarkEvalCall shows; the call that follows it at once
// (µs/call-warm) finds the code in the caches again.
// Most of the difference is code fetched again: a change that makes only
// the tight loop faster does not show in BenchmarkThroughput, one that
// runs less code per call does.
func BenchmarkEvalCallCold(b *testing.B) {
	call := evalHarness()
	// Larger than a core's share of the caches on most machines (a few MB
	// of L2, tens of MB of L3): writing a line of each evicts them.
	evict := make([]byte, 32<<20)
	var cold, warm time.Duration
	b.ResetTimer()
	for range b.N {
		for i := 0; i < len(evict); i += 64 {
			evict[i]++
		}
		start := time.Now()
		call()
		mid := time.Now()
		call()
		cold, warm = cold+mid.Sub(start), warm+time.Since(mid)
	}
	b.ReportMetric(float64(cold.Nanoseconds())/1e3/float64(b.N), "µs/call-cold")
	b.ReportMetric(float64(warm.Nanoseconds())/1e3/float64(b.N), "µs/call-warm")
	b.ReportMetric(float64(cold)/float64(warm), "x-cold-of-warm")
}

// BenchmarkGrowingCall is what the recording proxy's linter spends on one
// call of an agent whose conversation has grown to 6 and to 600 turns, on
// each wire a conversation grows on: decoding the request through the memo
// (which holds every earlier turn), judging it and decoding its answer.
// x-turn-600-of-turn-6 is about 1 for work that follows the new turn, and
// grows toward 100 (the request's growth) for work that redoes the
// history.
func BenchmarkGrowingCall(b *testing.B) {
	for _, w := range growingWires() {
		b.Run(w.name, func(b *testing.B) {
			turns := []int{6, 600}
			took := make([]time.Duration, len(turns))
			linters, memos, next := make([]*Linter, len(turns)), make([]*traffic.Memo, len(turns)), make([][]byte, len(turns))
			for k, n := range turns {
				linters[k], memos[k] = New(checks.All()), traffic.NewMemo()
				for i := range n {
					w.lintCall(linters[k], memos[k], w.body(i), true)
				}
				next[k] = w.body(n)
			}
			b.ResetTimer()
			for range b.N {
				for k := range turns {
					// The same next turn each time, not added: the history stays.
					start := time.Now()
					w.lintCall(linters[k], memos[k], next[k], false)
					took[k] += time.Since(start)
				}
			}
			for k, n := range turns {
				b.ReportMetric(float64(took[k].Microseconds())/float64(b.N), "us/call-turn-"+strconv.Itoa(n))
			}
			b.ReportMetric(float64(took[1])/float64(took[0]), "x-turn-600-of-turn-6")
		})
	}
}
