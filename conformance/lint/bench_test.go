package lint

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/engine"
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

// The whole of what the recording proxy's linter spends on one call of an
// eval harness (a new one-turn conversation each time): decoding the
// request with the cassette's memo, judging it, decoding the answer and
// remembering the call, with a full history of 256 calls.
func BenchmarkEvalCall(b *testing.B) {
	answer := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + strings.Repeat("x", 2048) + `"}]}`)
	prompt := func(n int) []byte {
		return []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"question ` + strconv.Itoa(n) + ` ` + strings.Repeat("x", 1024) + `"}]}`)
	}
	l, memo := New(nil), engine.NewMemo()
	for n := range 256 {
		lintCall(l, memo, prompt(n), answer, true)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := range b.N {
		lintCall(l, memo, prompt(256+n), answer, true)
	}
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
			linters, memos, next := make([]*Linter, len(turns)), make([]*engine.Memo, len(turns)), make([][]byte, len(turns))
			for k, n := range turns {
				linters[k], memos[k] = New(nil), engine.NewMemo()
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

// growingWire is a conversation of text turns on one wire: the request
// of turn n and the answer to each.
type growingWire struct {
	name, url string
	header    http.Header
	answer    []byte
	body      func(n int) []byte
}

func growingWires() []growingWire {
	question := func(i int) string { return "question " + strconv.Itoa(i) + " " + strings.Repeat("words ", 40) }
	answer := strings.Repeat("answer ", 40)
	grow := func(n int, user, model func(i int) string) string {
		var items []string
		for i := range n + 1 {
			if i > 0 {
				items = append(items, model(i))
			}
			items = append(items, user(i))
		}
		return strings.Join(items, ",")
	}
	bearer := http.Header{"Content-Type": {"application/json"}, "Authorization": {"REDACTED"}}
	return []growingWire{
		{"anthropic", "https://api.anthropic.com/v1/messages", callHeader,
			[]byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"` + answer + `"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`),
			func(n int) []byte {
				return []byte(`{"model":"claude-x","max_tokens":10,"messages":[` + grow(n,
					func(i int) string { return `{"role":"user","content":"` + question(i) + `"}` },
					func(int) string { return `{"role":"assistant","content":[{"type":"text","text":"` + answer + `"}]}` }) + `]}`)
			}},
		{"chat", "https://api.openai.com/v1/chat/completions", bearer,
			[]byte(`{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-x","choices":[{"index":0,"message":{"role":"assistant","content":"` + answer + `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`),
			func(n int) []byte {
				return []byte(`{"model":"gpt-x","messages":[` + grow(n,
					func(i int) string { return `{"role":"user","content":"` + question(i) + `"}` },
					func(int) string { return `{"role":"assistant","content":"` + answer + `"}` }) + `]}`)
			}},
		{"responses", "https://api.openai.com/v1/responses", bearer,
			[]byte(`{"id":"resp_1","object":"response","status":"completed","model":"gpt-x","output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"` + answer + `","annotations":[]}]}],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}`),
			func(n int) []byte {
				return []byte(`{"model":"gpt-x","input":[` + grow(n,
					func(i int) string { return `{"role":"user","content":"` + question(i) + `"}` },
					func(int) string {
						return `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"` + answer + `"}]}`
					}) + `]}`)
			}},
		{"gemini", "https://generativelanguage.googleapis.com/v1beta/models/gemini-x:generateContent", http.Header{"Content-Type": {"application/json"}, "X-Goog-Api-Key": {"REDACTED"}},
			[]byte(`{"candidates":[{"content":{"role":"model","parts":[{"text":"` + answer + `"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1}}`),
			func(n int) []byte {
				return []byte(`{"contents":[` + grow(n,
					func(i int) string { return `{"role":"user","parts":[{"text":"` + question(i) + `"}]}` },
					func(int) string { return `{"role":"model","parts":[{"text":"` + answer + `"}]}` }) + `]}`)
			}},
	}
}

func (w growingWire) lintCall(l *Linter, memo *engine.Memo, req []byte, add bool) {
	lintCallTo(w.url, w.header, l, memo, req, w.answer, add)
}

// lintCall is one call as the recording proxy lints it: the request decoded
// on arrival and judged, the answer decoded, and the call remembered when
// add is set (with the proxy's bound on the history).
func lintCall(l *Linter, memo *engine.Memo, req, answer []byte, add bool) {
	lintCallTo("https://api.anthropic.com/v1/messages", callHeader, l, memo, req, answer, add)
}

func lintCallTo(url string, header http.Header, l *Linter, memo *engine.Memo, req, answer []byte, add bool) {
	ex := providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: header, RequestBody: req, Memo: memo})
	l.Prepare(ex).Verdict()
	providers.AddResponse(&ex, providers.Call{Method: "POST", URL: url, RequestHeader: header, RequestBody: req,
		Status: 200, ResponseHeader: answerHeader, ResponseBody: answer})
	if !add {
		return
	}
	if l.Len() == 256 {
		l.Forget(128)
	}
	l.Add(ex)
}

var (
	callHeader   = http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {"REDACTED"}, "Anthropic-Version": {"2023-06-01"}}
	answerHeader = http.Header{"Content-Type": {"application/json"}}
)
