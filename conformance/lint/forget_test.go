package lint

import (
	"maps"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// TestForgetKeepsWhatAddingTheKeptCallsGives: after Forget, the linter knows
// the kept calls' blocks exactly as a new linter given only those calls
// does, and judges the next request alike, for conversations that grow,
// branch (an edited turn) and start afresh (an eval harness's prompts).
func TestForgetKeepsWhatAddingTheKeptCallsGives(t *testing.T) {
	const url = "https://api.anthropic.com/v1/messages"
	h := http.Header{"Content-Type": {"application/json"}, "Anthropic-Version": {"2023-06-01"}}
	answer := `{"type":"text","text":"answer"}`
	respBody := []byte(`{"id":"msg_1","type":"message","role":"assistant","content":[` + answer + `],"stop_reason":"end_turn"}`)
	// body is turn n of conversation c; edited changes its first question.
	body := func(c string, n int, edited bool) []byte {
		var msgs []string
		for i := range n + 1 {
			if i > 0 {
				msgs = append(msgs, `{"role":"assistant","content":[`+answer+`]}`)
			}
			q := c + " question " + strconv.Itoa(i)
			if edited && i == 0 {
				q += " (edited)"
			}
			msgs = append(msgs, `{"role":"user","content":"`+q+`"}`)
		}
		return []byte(`{"model":"claude-x","max_tokens":10,"messages":[` + strings.Join(msgs, ",") + `]}`)
	}
	memo := traffic.NewMemo()
	call := func(req []byte) traffic.Exchange {
		ex := providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: h, RequestBody: req, Memo: memo})
		providers.AddResponse(&ex, providers.Call{Method: "POST", URL: url, RequestHeader: h, RequestBody: req,
			Status: 200, ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: respBody})
		return ex
	}
	var calls []traffic.Exchange
	for n := range 40 {
		calls = append(calls, call(body("a", n, false)))
		if n%7 == 3 {
			calls = append(calls, call(body("eval "+strconv.Itoa(n), 0, false)))
		}
		if n%10 == 5 {
			calls = append(calls, call(body("a", n, true))) // a branch from an edited first turn
		}
	}
	for _, keep := range []int{1, 5, 20, len(calls) - 1} {
		l := New(checks.All())
		for _, ex := range calls {
			l.Add(ex)
		}
		l.Forget(keep)
		fresh := New(checks.All())
		for _, ex := range calls[len(calls)-keep:] {
			fresh.Add(ex)
		}
		if !maps.Equal(l.seen.blocks, fresh.seen.blocks) || l.seen.bare != fresh.seen.bare {
			t.Errorf("keep %d: Forget knows %d blocks (%d bare), adding the kept calls %d (%d bare)",
				keep, len(l.seen.blocks), l.seen.bare, len(fresh.seen.blocks), fresh.seen.bare)
		}
		for _, next := range [][]byte{body("a", 40, false), body("a", 12, true), body("new", 0, false)} {
			ex := providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: h, RequestBody: next, Memo: memo})
			if d := cmp.Diff(fresh.Judge(ex), l.Judge(ex)); d != "" {
				t.Errorf("keep %d: judgement mismatch (-added +forgotten):\n%s", keep, d)
			}
		}
	}
}
