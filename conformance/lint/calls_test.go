package lint

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

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

func (w growingWire) lintCall(l *Linter, memo *traffic.Memo, req []byte, add bool) {
	lintCallTo(w.url, w.header, l, memo, req, w.answer, add)
}

// lintCall is one call as the recording proxy lints it: the request decoded
// on arrival and judged, and the call remembered when add is set (with the
// proxy's bound on the history), its answer to be decoded when a later
// judgement needs it. With add unset, the answer is decoded at once.
func lintCall(l *Linter, memo *traffic.Memo, req, answer []byte, add bool) {
	lintCallTo("https://api.anthropic.com/v1/messages", callHeader, l, memo, req, answer, add)
}

func lintCallTo(url string, header http.Header, l *Linter, memo *traffic.Memo, req, answer []byte, add bool) {
	ex := providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: header, RequestBody: req, Memo: memo})
	l.Prepare(ex).Verdict()
	if !add {
		providers.AddResponse(&ex, providers.Call{Method: "POST", URL: url, Status: 200, ResponseHeader: answerHeader, ResponseBody: answer})
		return
	}
	if l.Len() == 256 {
		l.Forget(128)
	}
	addDeferred(l, ex, answer, nil)
}

// addDeferred adds ex to l with answer, a 200 JSON answer, undecoded, as
// the proxy adds one (providers.DeferResponse); decoded, when set, is
// called when the answer is decoded.
func addDeferred(l *Linter, ex traffic.Exchange, answer []byte, decoded func()) {
	later := providers.DeferResponse(&ex, providers.Call{Method: "POST", URL: ex.URL, Status: 200, ResponseHeader: answerHeader, ResponseBody: answer})
	l.AddDeferred(ex, func(ex *traffic.Exchange) {
		if decoded != nil {
			decoded()
		}
		later(ex)
	})
}

var (
	callHeader   = http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {"REDACTED"}, "Anthropic-Version": {"2023-06-01"}}
	answerHeader = http.Header{"Content-Type": {"application/json"}}
)
