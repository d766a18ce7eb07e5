package lint

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// A deferred answer is decoded once, by the first judgement that reaches
// back to its call, and never for calls no later request continues: an
// eval harness's, each a new conversation, and the calls before the one a
// growing conversation's next request extends. Judgements running at once
// share the one decode (run with -race).
func TestDeferredAnswersAreDecodedOnDemandOnce(t *testing.T) {
	const url = "https://api.anthropic.com/v1/messages"
	answer := []byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"the answer"}],"stop_reason":"end_turn"}`)
	turn := func(conv string, n int) []byte {
		var msgs []string
		for i := range n + 1 {
			if i > 0 {
				msgs = append(msgs, `{"role":"assistant","content":[{"type":"text","text":"the answer"}]}`)
			}
			msgs = append(msgs, `{"role":"user","content":"`+conv+` question `+strconv.Itoa(i)+`"}`)
		}
		return []byte(`{"model":"claude-x","max_tokens":10,"messages":[` + strings.Join(msgs, ",") + `]}`)
	}
	memo := traffic.NewMemo()
	request := func(body []byte) traffic.Exchange {
		return providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: callHeader, RequestBody: body, Memo: memo})
	}
	var decodes []int // the calls whose answers were decoded, in order
	var mu sync.Mutex
	l := New(checks.All())
	add := func(body []byte) {
		ex := request(body)
		l.Judge(ex)
		n := l.Len()
		addDeferred(l, ex, answer, func() {
			mu.Lock()
			decodes = append(decodes, n)
			mu.Unlock()
		})
	}
	for n := range 5 {
		add(turn("eval "+strconv.Itoa(n), 0))
	}
	if len(decodes) != 0 {
		t.Fatalf("answers decoded for new conversations: calls %v", decodes)
	}
	for n := range 4 {
		add(turn("agent", n))
	}
	// Calls 5..8 are the agent's turns 0..3: each of turns 1..3 extends
	// the one before, whose answer it repeats.
	if want := []int{5, 6, 7}; !cmp.Equal(decodes, want) {
		t.Fatalf("decoded answers of calls %v, want %v", decodes, want)
	}
	next := request(turn("agent", 4))
	var wg sync.WaitGroup
	verdicts := make([]Verdict, 8)
	for i := range verdicts {
		wg.Add(1)
		go func() { defer wg.Done(); verdicts[i] = l.Prepare(next).Verdict() }()
	}
	wg.Wait()
	if want := []int{5, 6, 7, 8}; !cmp.Equal(decodes, want) {
		t.Fatalf("after 8 judgements at once, decoded answers of calls %v, want %v", decodes, want)
	}
	for _, v := range verdicts[1:] {
		if d := cmp.Diff(verdicts[0], v); d != "" {
			t.Fatalf("judgements at once differ (-first +other):\n%s", d)
		}
	}
	h := l.History()
	if len(decodes) != len(h) || h[0].Response == nil || h[0].Response.Output[0].Blocks[0].Text != "the answer" {
		t.Fatalf("History decoded %d of %d answers; the first is %+v", len(decodes), len(h), h[0].Response)
	}
	for i, ex := range h {
		if ex.Index != i {
			t.Errorf("History()[%d].Index = %d", i, ex.Index)
		}
	}
}

// The calls a Forget keeps keep their deferred answers, renumbered.
func TestForgetKeepsDeferredAnswers(t *testing.T) {
	const url = "https://api.anthropic.com/v1/messages"
	l := New(checks.All())
	for n := range 6 {
		ex := providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: callHeader,
			RequestBody: []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"q` + strconv.Itoa(n) + `"}]}`)})
		addDeferred(l, ex, []byte(`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"answer `+strconv.Itoa(n)+`"}]}`), nil)
	}
	l.Forget(2)
	h := l.History()
	for i, want := range []string{"answer 4", "answer 5"} {
		if h[i].Index != i || h[i].Response == nil || h[i].Response.Output[0].Blocks[0].Text != want {
			t.Errorf("kept call %d: Index %d, response %+v; want %q", i, h[i].Index, h[i].Response, want)
		}
	}
}

// A judgement prepared before a Forget decodes, when it is carried out
// after, the answers of the calls it was prepared against: Forget moves
// the history's arrays, not the judgement's.
func TestJudgementPreparedBeforeForgetDecodesItsOwnCalls(t *testing.T) {
	const url = "https://api.anthropic.com/v1/messages"
	l := New(checks.All())
	l.Full = true // judged against every call
	var decoded []int
	add := func(n int) {
		ex := providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: callHeader,
			RequestBody: []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"q` + strconv.Itoa(n) + `"}]}`)})
		addDeferred(l, ex, []byte(`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"a"}]}`),
			func() { decoded = append(decoded, n) })
	}
	for n := range 8 {
		add(n)
	}
	l.Forget(4) // calls 4 to 7, in arrays with room for more
	decoded = nil
	p := l.Prepare(providers.Decode(0, providers.Call{Method: "POST", URL: url, RequestHeader: callHeader,
		RequestBody: []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"next"}]}`)}))
	for n := 8; n < 12; n++ {
		add(n)
	}
	l.Forget(4)
	p.Verdict()
	if want := []int{4, 5, 6, 7}; !cmp.Equal(decoded, want) {
		t.Fatalf("the judgement decoded the answers of calls %v, want %v", decoded, want)
	}
}
