package gemini

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// A request that extends the one before in memory (a growing conversation
// decoded through a memo) takes over its prefix hashes, and a content
// without signatures takes threading's fingerprint: every request's hashes
// are still those it would have worked out alone.
func TestRequestPrefixTakenOver(t *testing.T) {
	memo := traffic.NewMemo()
	tr := &check.Traffic{}
	contents := []string{`{"role":"user","parts":[{"text":"walk the tree"}]}`}
	for turn := range 12 {
		call := fmt.Sprintf(`{"functionCall":{"name":"step_%d","args":{}}}`, turn)
		ex := providers.Decode(turn, providers.Call{
			Method: "POST", URL: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
			RequestBody: []byte(`{"contents":[` + strings.Join(contents, ",") + `]}`), Status: 200,
			ResponseBody: []byte(`{"candidates":[{"content":{"role":"model","parts":[` + call + `]},"finishReason":"STOP","index":0}]}`),
			Memo:         memo,
		})
		tr.Exchanges = append(tr.Exchanges, ex)
		contents = append(contents, `{"role":"model","parts":[`+call+`]}`, fmt.Sprintf(`{"role":"user","parts":[{"functionResponse":{"name":"step_%d","response":{"output":"ok"}}}]}`, turn))
	}
	x := &index{full: map[uint64]int{}, decoded: map[string]*signature{}, outputs: make([][]*output, len(tr.Exchanges)),
		h: thread.HasherFor(tr, traffic.WireGemini).WithoutPayloads(), threads: thread.Of(tr)}
	shared := 0
	for i := range tr.Exchanges {
		ex := &tr.Exchanges[i]
		if thread.StartsWith(ex.Request.Messages, x.lastMsgs) {
			shared++
		}
		_, whole := x.request(i, ex)
		alone := &index{full: map[uint64]int{}, decoded: map[string]*signature{}, outputs: x.outputs,
			h: thread.NewHasher(traffic.WireGemini).WithoutPayloads()}
		if _, want := alone.request(i, ex); whole != want {
			t.Errorf("request %d: whole-contents hash %x, want %x as worked out alone", i, whole, want)
		}
		if want := alone.lastPrefix; !slices.Equal(x.lastPrefix, want) {
			t.Errorf("request %d: prefix hashes %x, want %x", i, x.lastPrefix, want)
		}
	}
	if shared == 0 {
		t.Fatal("no request extended the one before in memory: the memo no longer shares messages, and this test tests nothing")
	}
}
