package checks_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/providers"
)

// growingConversation builds the traffic of `threads` Anthropic
// conversations, each growing turn by turn to `turns` turns: every response
// is a signed thinking block plus a tool_use, and every next request echoes
// the whole history with the tool_result appended — the shape that makes a
// naive cross-turn checker quadratic.
func growingConversation(threads, turns int) *check.Traffic {
	tr := &check.Traffic{}
	for th := 0; th < threads; th++ {
		var history []string
		history = append(history, fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"conversation %d: list the files"}]}`, th))
		for turn := 0; turn < turns; turn++ {
			sig := fmt.Sprintf("EqQBCkYIBxgCKkA%dT%dsig%s==", th, turn, strings.Repeat("x", 300))
			id := fmt.Sprintf("toolu_%02d%04d", th, turn)
			reqBody := fmt.Sprintf(`{"model":"claude-sonnet-4-5","max_tokens":4096,"thinking":{"type":"enabled","budget_tokens":2048},"system":"You are a file agent.","tools":[{"name":"ls","description":"list","input_schema":{"type":"object"}}],"messages":[%s]}`, strings.Join(history, ","))
			respBody := fmt.Sprintf(`{"id":"msg_%d_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"thinking","thinking":"Step %d.","signature":%q},{"type":"tool_use","id":%q,"name":"ls","input":{"path":"dir%d"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}`, th, turn, turn, sig, id, turn)
			ex := providers.Decode(len(tr.Exchanges), providers.Call{
				Method: "POST", URL: "https://api.anthropic.com/v1/messages",
				RequestHeader: http.Header{"Anthropic-Version": {"2023-06-01"}, "X-Api-Key": {"<redacted>"}},
				RequestBody:   []byte(reqBody), Status: 200, ResponseBody: []byte(respBody),
			})
			tr.Exchanges = append(tr.Exchanges, ex)
			history = append(history,
				fmt.Sprintf(`{"role":"assistant","content":[{"type":"thinking","thinking":"Step %d.","signature":%q},{"type":"tool_use","id":%q,"name":"ls","input":{"path":"dir%d"}}]}`, turn, sig, id, turn),
				fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"a.txt b.txt"}]}`, id))
		}
	}
	return tr
}

// BenchmarkJudgeGrowingConversation: the whole catalogue over 1,000
// interactions (5 conversations growing to 200 turns). The bar is under 1 s
// per op on one core (go test -bench JudgeGrowing -cpu 1).
func BenchmarkJudgeGrowingConversation(b *testing.B) {
	tr := growingConversation(5, 200)
	checks := checks.All()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A fresh check.Traffic each run: checks cache indexes per check.Traffic.
		fresh := &check.Traffic{Exchanges: tr.Exchanges}
		if fs := check.Judge(fresh, checks); len(fs) > 0 && i == 0 {
			b.Logf("%d findings, first: %s", len(fs), fs[0])
		}
	}
}

// TestGrowingConversationIsClean keeps the benchmark honest: the generated
// traffic follows the rules, so the benchmark measures the clean path.
func TestGrowingConversationIsClean(t *testing.T) {
	tr := growingConversation(2, 6)
	for _, f := range check.Judge(tr, checks.All()) {
		if f.Severity == check.SeverityError {
			t.Errorf("%s", f)
		}
	}
}
