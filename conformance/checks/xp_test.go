package checks_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
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
		{"escaped characters with no known origin", []string{
			gemRequest(q, gemModel(`{"functionCall":{"name":"f","args":{}},"thoughtSignature":"c2ln\/YQ=="}`), gemResults("f")), gemResponse(gemText("ok", "")),
		}, []string{"[0] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature"}},
		{"signature stored as an array", []string{
			gemRequest(q, gemModel(`{"functionCall":{"name":"f","args":{}},"thoughtSignature":[115,105,103]}`), gemResults("f")), gemResponse(gemText("ok", "")),
		}, []string{"[0] info XP-RAW-001 request.contents[1].parts[0].thoughtSignature"}},
	}
	checks, _ := checks.Select([]string{"XP-RAW-001"}, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range check.Judge(gemTrafficOf(t, "gemini-3-pro-preview", tc.bodies...), checks) {
				got = append(got, fmt.Sprintf("[%d] %s %s %s", f.Interaction, f.Severity, f.Check, f.Location))
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}
