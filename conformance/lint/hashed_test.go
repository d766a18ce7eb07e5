package lint

import (
	"testing"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// TestJudgementHashesWhatTheRequestAdds: judging the next turn of a long
// conversation works out the fingerprints of the blocks that turn adds
// only, on every wire: the history's, with every setting the checks hash
// it with, were worked out when their calls were added, or carried over
// when the linter forgot its oldest calls (300 turns pass the proxy's
// bound of 256).
func TestJudgementHashesWhatTheRequestAdds(t *testing.T) {
	for _, w := range growingWires() {
		l, memo := New(checks.All()), traffic.NewMemo()
		const turns = 300
		for i := range turns {
			w.lintCall(l, memo, w.body(i), true)
		}
		ex := providers.Decode(0, providers.Call{Method: "POST", URL: w.url, RequestHeader: w.header, RequestBody: w.body(turns), Memo: memo})
		p := l.Prepare(ex)
		if v := p.Verdict(); len(v.Findings) > 0 {
			t.Fatalf("%s: %v", w.name, v.Findings)
		}
		// The turn adds two blocks: the answer to the last call, and a
		// question; the Gemini checks hash each twice, with and without
		// payloads.
		want := 2
		if ex.Wire == traffic.WireGemini {
			want = 4
		}
		if got := p.blocks.Len(); got > want {
			t.Errorf("%s: the judgement of turn %d worked out %d fingerprints; the turn adds %d", w.name, turns, got, want)
		}
		// It grew the previous call's fingerprints in place, in the room
		// after them, and gave the room back for the linter to keep the
		// call in.
		if borrowed, released := p.blocks.Rooms(); borrowed == 0 || released != borrowed {
			t.Errorf("%s: the judgement borrowed %d rooms of kept prints and gave back %d; want at least one, all given back", w.name, borrowed, released)
		}
	}
}
