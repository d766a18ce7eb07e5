package anthropic

import (
	"slices"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

func TestAntModelFamily(t *testing.T) {
	for model, family := range map[string]string{
		"claude-sonnet-4-0":                          "claude-sonnet-4",
		"claude-sonnet-4-20250514":                   "claude-sonnet-4",
		"claude-sonnet-4-5-20250929":                 "claude-sonnet-4-5",
		"claude-3-7-sonnet-latest":                   "claude-3-7-sonnet",
		"us.anthropic.claude-opus-4-1-20250805-v1:0": "claude-opus-4-1",
		"claude-opus-4-1@20250805":                   "claude-opus-4-1",
	} {
		if got := modelFamily(model); got != family {
			t.Errorf("modelFamily(%q) = %q, want %q", model, got, family)
		}
	}
}

// TestEachWalksTheLatestOnlyLive: a live judgement (Traffic.Latest) walks
// the last request only; a recording's judgement, and eachAll, walk every
// request.
func TestEachWalksTheLatestOnlyLive(t *testing.T) {
	body := func(msgs string) []byte {
		return []byte(`{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[` + msgs + `]}`)
	}
	q := `{"role":"user","content":"q"}`
	a := `{"role":"assistant","content":[{"type":"text","text":"a"}]}`
	exs := []traffic.Exchange{
		providers.Decode(0, providers.Call{Method: "POST", URL: "https://api.anthropic.com/v1/messages", RequestBody: body(q), Status: 200}),
		providers.Decode(1, providers.Call{Method: "POST", URL: "https://api.anthropic.com/v1/messages", RequestBody: body(q + "," + a + "," + q), Status: 200}),
	}
	for _, tc := range []struct {
		latest   bool
		each     []int
		everyone []int
	}{
		{latest: false, each: []int{0, 1}, everyone: []int{0, 1}},
		{latest: true, each: []int{1}, everyone: []int{0, 1}},
	} {
		a := analyze(&check.Traffic{Exchanges: exs, Latest: tc.latest})
		var each, everyone []int
		a.each(func(i int, _ *request) { each = append(each, i) })
		a.eachAll(func(i int, _ *request) { everyone = append(everyone, i) })
		if !slices.Equal(each, tc.each) || !slices.Equal(everyone, tc.everyone) {
			t.Errorf("Latest %v: each walked %v, eachAll %v; want %v and %v", tc.latest, each, everyone, tc.each, tc.everyone)
		}
	}
}
