package checks_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/providers"
)

// growingResponses builds `threads` Responses conversations growing to
// `turns` turns each, interleaved turn by turn: every response is an
// encrypted reasoning item plus a function call, and every next request
// resends the whole history with the output appended (stateless mode).
const (
	responsesURL = "https://api.openai.com/v1/responses"
	chatURL      = "https://api.openai.com/v1/chat/completions"
)

func growingResponses(threads, turns int) *check.Traffic {
	tr := &check.Traffic{}
	history := make([][]string, threads)
	for th := range history {
		history[th] = []string{fmt.Sprintf(`{"role":"user","content":"conversation %d: list the files"}`, th)}
	}
	for turn := 0; turn < turns; turn++ {
		for th := 0; th < threads; th++ {
			rs := fmt.Sprintf(`{"type":"reasoning","id":"rs_%02d%04d","summary":[],"encrypted_content":"gAAAA%s%d"}`, th, turn, strings.Repeat("x", 300), turn)
			fc := fmt.Sprintf(`{"type":"function_call","id":"fc_%02d%04d","call_id":"call_%02d%04d","name":"ls","arguments":"{\"path\":\"dir%d\"}"}`, th, turn, th, turn, turn)
			req := `{"model":"gpt-5","store":false,"include":["reasoning.encrypted_content"],"input":[` + strings.Join(history[th], ",") + `]}`
			resp := fmt.Sprintf(`{"id":"resp_%02d%04d","object":"response","status":"completed","output":[%s,%s]}`, th, turn, rs, fc)
			tr.Exchanges = append(tr.Exchanges, providers.Decode(len(tr.Exchanges), providers.Call{
				Method: "POST", URL: responsesURL, RequestBody: []byte(req), Status: 200, ResponseBody: []byte(resp)}))
			out := fmt.Sprintf(`{"type":"function_call_output","call_id":"call_%02d%04d","output":"a.txt b.txt"}`, th, turn)
			history[th] = append(history[th], rs, fc, out)
		}
	}
	return tr
}

// growingChat is the same shape on Chat Completions.
func growingChat(threads, turns int) *check.Traffic {
	tr := &check.Traffic{}
	history := make([][]string, threads)
	for th := range history {
		history[th] = []string{fmt.Sprintf(`{"role":"user","content":"conversation %d: list the files"}`, th)}
	}
	for turn := 0; turn < turns; turn++ {
		for th := 0; th < threads; th++ {
			msg := fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_%02d%04d","type":"function","function":{"name":"ls","arguments":"{\"path\":\"dir%d\"}"}}]}`, th, turn, turn)
			req := `{"model":"gpt-4o","messages":[` + strings.Join(history[th], ",") + `]}`
			resp := `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":` + msg + `,"finish_reason":"tool_calls"}]}`
			tr.Exchanges = append(tr.Exchanges, providers.Decode(len(tr.Exchanges), providers.Call{
				Method: "POST", URL: chatURL, RequestBody: []byte(req), Status: 200, ResponseBody: []byte(resp)}))
			tool := fmt.Sprintf(`{"role":"tool","tool_call_id":"call_%02d%04d","content":"a.txt b.txt"}`, th, turn)
			history[th] = append(history[th], msg, tool)
		}
	}
	return tr
}

// TestGrowingOpenAIIsClean keeps the benchmarks honest: the generated
// traffic follows the rules, so they measure the clean path.
func TestGrowingOpenAIIsClean(t *testing.T) {
	for name, tr := range map[string]*check.Traffic{"responses": growingResponses(2, 6), "chat": growingChat(2, 6)} {
		for i := range tr.Exchanges {
			if ex := tr.Exchanges[i]; ex.RequestErr != "" || ex.ResponseErr != "" {
				t.Fatalf("%s: interaction %d does not decode: %s %s", name, i, ex.RequestErr, ex.ResponseErr)
			}
		}
		for _, f := range check.Judge(tr, checks.All()) {
			if strings.HasPrefix(f.Check, "OAI-") {
				t.Errorf("%s: %s", name, f)
			}
		}
	}
}

// BenchmarkJudgeGrowingResponses: the whole catalogue over 1,000 Responses
// interactions (5 conversations growing to 200 turns, 600 input items at
// the end). The bar is under 1 s per op on one core.
func BenchmarkJudgeGrowingResponses(b *testing.B) {
	tr := growingResponses(5, 200)
	checks := checks.All()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		check.Judge(tr, checks)
	}
}

// BenchmarkJudgeGrowingChat: the same over 1,000 Chat Completions
// interactions.
func BenchmarkJudgeGrowingChat(b *testing.B) {
	tr := growingChat(5, 200)
	checks := checks.All()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		check.Judge(tr, checks)
	}
}

// BenchmarkJudgeGrowingOpenAIOnly isolates this family's checks on both
// wires, so a regression here is not hidden by other families' cost.
func BenchmarkJudgeGrowingOpenAIOnly(b *testing.B) {
	rsp, chat := growingResponses(5, 200), growingChat(5, 200)
	checks, err := checks.Select([]string{"OAI-TOOL-*", "OAI-RSN-*", "OAI-CANCEL-*", "OAI-COMPAT-*"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		check.Judge(rsp, checks)
		check.Judge(chat, checks)
	}
}
