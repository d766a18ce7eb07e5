package crosswire_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

func TestXPRawRules(t *testing.T) {
	a := gemSigOf("\xfb\xef\xff signature a")
	urlSafe := strings.NewReplacer("+", "-", "/", "_").Replace(a)
	q := gemUser("q")
	cases := []struct {
		name   string
		bodies []string
		want   []string
	}{
		{"echoed byte for byte", []string{
			gemRequest(q), gemResponse(gemCall("f", a)),
			gemRequest(q, gemModel(gemCall("f", a)), gemResults("f")), gemResponse(gemText("ok", "")),
		}, nil},
		{"re-encoded once, reported once", []string{
			gemRequest(q), gemResponse(gemCall("f", a)),
			gemRequest(q, gemModel(gemCall("f", urlSafe)), gemResults("f")), gemResponse(gemCall("g", "")),
			gemRequest(q, gemModel(gemCall("f", urlSafe)), gemResults("f"), gemModel(gemCall("g", "")), gemResults("g")), gemResponse(gemText("ok", "")),
		}, []string{"[1] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature"}},
		{"re-encoded in a history that was echoed clean before", []string{
			gemRequest(q), gemResponse(gemCall("f", a)),
			gemRequest(q, gemModel(gemCall("f", a)), gemResults("f")), gemResponse(gemCall("g", "")),
			gemRequest(q, gemModel(gemCall("f", urlSafe)), gemResults("f"), gemModel(gemCall("g", "")), gemResults("g")), gemResponse(gemText("ok", "")),
		}, []string{"[2] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature"}},
		{"re-encoded in the turn a growing history adds", []string{
			gemRequest(q), gemResponse(gemCall("f", "")),
			gemRequest(q, gemModel(gemCall("f", "")), gemResults("f")), gemResponse(gemCall("g", "")),
			gemRequest(q, gemModel(gemCall("f", "")), gemResults("f"), gemModel(gemCall("g", "")), gemResults("g")), gemResponse(gemCall("h", a)),
			gemRequest(q, gemModel(gemCall("f", "")), gemResults("f"), gemModel(gemCall("g", "")), gemResults("g"), gemModel(gemCall("h", urlSafe)), gemResults("h")), gemResponse(gemText("ok", "")),
		}, []string{"[3] info XP-RAW-001 request.contents[5].parts[0].thoughtSignature"}},
		{"escaped characters with no known origin", []string{
			gemRequest(q, gemModel(`{"functionCall":{"name":"f","args":{}},"thoughtSignature":"c2ln\/YQ=="}`), gemResults("f")), gemResponse(gemText("ok", "")),
		}, []string{"[0] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature"}},
		{"signature stored as an array", []string{
			gemRequest(q, gemModel(`{"functionCall":{"name":"f","args":{}},"thoughtSignature":[115,105,103]}`), gemResults("f")), gemResponse(gemText("ok", "")),
		}, []string{"[0] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature"}},
	}
	checks, _ := checks.Select([]string{"XP-RAW-001"}, nil)
	for _, tc := range cases {
		// Decoded alone, and through a memo, as check decodes a recording:
		// a request then shares the messages it repeats with the one before.
		for _, memo := range []*traffic.Memo{nil, traffic.NewMemo()} {
			t.Run(fmt.Sprintf("%s/memo=%t", tc.name, memo != nil), func(t *testing.T) {
				tr := gemTrafficThrough(t, memo, "gemini-3-pro-preview", tc.bodies...)
				if last := len(tr.Exchanges) - 1; memo != nil && strings.Contains(tc.name, "growing") &&
					!thread.StartsWith(tr.Exchanges[last].Request.Messages, tr.Exchanges[last-1].Request.Messages) {
					t.Fatal("the memo no longer hands the last request the messages of the one before: this case tests nothing")
				}
				var got []string
				for _, f := range check.Judge(tr, checks) {
					got = append(got, fmt.Sprintf("[%d] %s %s %s", f.Interaction, f.Severity, f.Check, f.Location))
				}
				if d := cmp.Diff(tc.want, got); d != "" {
					t.Errorf("findings (-want +got):\n%s", d)
				}
				// Judged live, as the recorder judges each request on
				// arrival, every request gets what the whole judgement
				// gives it.
				for i := range tr.Exchanges {
					var whole, live []string
					for _, s := range got {
						if strings.HasPrefix(s, fmt.Sprintf("[%d] ", i)) {
							whole = append(whole, s)
						}
					}
					for _, f := range check.Judge(&check.Traffic{Exchanges: tr.Exchanges[:i+1], Latest: true}, checks) {
						if f.Interaction == i {
							live = append(live, fmt.Sprintf("[%d] %s %s %s", f.Interaction, f.Severity, f.Check, f.Location))
						}
					}
					if d := cmp.Diff(whole, live); d != "" {
						t.Errorf("request %d judged live (-whole +live):\n%s", i, d)
					}
				}
			})
		}
	}
}

// XP-SECRET-001 scans a request only where it stops repeating the previous
// request to the same URL: a key in the history is reported once, where it
// first appears, and a new key after it is still found.
func TestXPSecretInGrowingHistory(t *testing.T) {
	key1 := "sk-ant-api03-" + strings.Repeat("a1B2c3D4", 10)
	key2 := "ghp_" + strings.Repeat("Zy9", 12)
	pad := gemUser(strings.Repeat("filler ", 300)) // the keys sit far from where the bodies part
	first := gemRequest(gemUser("my key is "+key1), pad)
	second := gemRequest(gemUser("my key is "+key1), pad, gemModel(gemText("noted", "")), gemUser("and "+key2))
	third := gemRequest(gemUser("my key is "+key1), pad, gemModel(gemText("noted", "")), gemUser("and "+key2), gemModel(gemText("ok", "")), gemUser("thanks"))
	checks, _ := checks.Select([]string{"XP-SECRET-001"}, nil)
	var got []string
	for _, f := range check.Judge(gemTrafficOf(t, "gemini-3-pro-preview", first, gemResponse(gemText("noted", "")), second, gemResponse(gemText("ok", "")), third, gemResponse(gemText("bye", ""))), checks) {
		got = append(got, fmt.Sprintf("[%d] %s", f.Interaction, f.Message))
	}
	// Scanned whole, the second request shows the Anthropic key first, which
	// was reported already, and the GitHub token was never reported.
	at := fmt.Sprintf("at byte %d)", strings.Index(second, "ghp_"))
	if len(got) != 2 || !strings.HasPrefix(got[0], "[0] ") || !strings.Contains(got[0], "Anthropic") ||
		!strings.HasPrefix(got[1], "[1] ") || !strings.Contains(got[1], "GitHub") || !strings.HasSuffix(got[1], at) {
		t.Errorf("findings %q, want the Anthropic key at [0] and the GitHub token at [1], %s", got, at)
	}
}
