package lint

import (
	"bytes"
	"slices"
	"testing"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// TestPrintKeepsSharedFingerprints: a request whose messages start, in
// memory, with the last call's (a growing conversation decoded through a
// memo) takes that call's fingerprints for them and is printed exactly as
// it is alone, on every wire; a request that does not share them (another
// conversation as long or longer, decoded apart) takes none.
func TestPrintKeepsSharedFingerprints(t *testing.T) {
	for _, w := range growingWires() {
		t.Run(w.name, func(t *testing.T) {
			memo := traffic.NewMemo()
			decode := func(body []byte, memo *traffic.Memo) traffic.Exchange {
				return providers.Decode(0, providers.Call{Method: "POST", URL: w.url, RequestHeader: w.header, RequestBody: body,
					Status: 200, ResponseHeader: answerHeader, ResponseBody: w.answer, Memo: memo})
			}
			alone := func(ex *traffic.Exchange) print { return printOf(ex, nil, printed{}) }
			prev := decode(w.body(0), memo)
			prevPrint := alone(&prev)
			shared := 0
			for n := 1; n < 12; n++ {
				next := decode(w.body(n), memo)
				last := printed{&prev, &prevPrint}
				if last.shared(&next) > 0 {
					shared++
				}
				got, want := printOf(&next, nil, last), alone(&next)
				if got.settings != want.settings || !slices.Equal(got.prefix, want.prefix) {
					t.Fatalf("turn %d printed after turn %d differs from turn %d printed alone", n, n-1, n)
				}
				// Another conversation, longer, decoded without the memo.
				other := decode(bytes.ReplaceAll(w.body(n+1), []byte("question"), []byte("another")), nil)
				if k := last.shared(&other); k != 0 {
					t.Fatalf("turn %d: a conversation decoded apart shares %d messages with it", n, k)
				}
				if got := printOf(&other, nil, last); !slices.Equal(got.prefix, alone(&other).prefix) {
					t.Fatalf("turn %d: another conversation took its fingerprints", n)
				}
				prev, prevPrint = next, got
			}
			if shared == 0 {
				t.Fatal("no turn shared the last one's messages: the test proves nothing")
			}
		})
	}
}
