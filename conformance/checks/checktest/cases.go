package checktest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/providers"
)

// Call is one hand-written call of a table test.
type Call struct {
	URL    string
	Req    string
	Resp   string      // "" for a live request with no response yet
	Status int         // 200 when 0
	Header http.Header // of the response
}

// Traffic decodes the calls as the real codecs decode a cassette.
func Traffic(t *testing.T, calls ...Call) *check.Traffic {
	t.Helper()
	tr := &check.Traffic{Path: t.Name()}
	for i, c := range calls {
		status := c.Status
		if status == 0 {
			status = 200
		}
		if c.Resp == "" {
			status = 0
		}
		ex := providers.Decode(i, providers.Call{Method: "POST", URL: c.URL, RequestBody: []byte(c.Req),
			Status: status, ResponseHeader: c.Header, ResponseBody: []byte(c.Resp)})
		if ex.RequestErr != "" || (c.Resp != "" && ex.ResponseErr != "") {
			t.Fatalf("call %d does not decode: %s %s", i, ex.RequestErr, ex.ResponseErr)
		}
		tr.Exchanges = append(tr.Exchanges, ex)
	}
	return tr
}

// Case is one table row: the traffic, the check, and where it must fire
// (interaction: message substring); none when Want is empty.
type Case struct {
	Name  string
	Check string
	Calls []Call
	Want  []string // "N: substring", in order
}

// RunCases judges each case's traffic with its check and asserts the
// wanted findings, in order; each request judged live, as the recorder
// judges it on arrival, must get what the whole judgement gives it.
func RunCases(t *testing.T, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tr := Traffic(t, c.Calls...)
			var got []check.Finding
			for _, f := range check.Judge(tr, []*check.Check{checks.Lookup(c.Check)}) {
				got = append(got, f)
			}
			if len(got) != len(c.Want) {
				t.Fatalf("%d findings, want %d:\n%s", len(got), len(c.Want), FindingLines(got))
			}
			for i, w := range c.Want {
				at, sub, _ := strings.Cut(w, ": ")
				if fmt.Sprint(got[i].Interaction) != at || !strings.Contains(got[i].Message+"\n"+got[i].Diff, sub) {
					t.Errorf("finding %d = %s\n%s\nwant interaction %s containing %q", i, got[i], got[i].Diff, at, sub)
				}
			}
			// Judged live, as the recorder judges each request on arrival
			// (only its findings wanted), every request gets what the
			// whole judgement gives it.
			for i := range tr.Exchanges {
				var whole, live []string
				for _, f := range got {
					if f.Interaction == i {
						whole = append(whole, f.String())
					}
				}
				for _, f := range check.Judge(&check.Traffic{Exchanges: tr.Exchanges[:i+1], Latest: true}, []*check.Check{checks.Lookup(c.Check)}) {
					if f.Interaction == i {
						live = append(live, f.String())
					}
				}
				if !slices.Equal(whole, live) {
					t.Errorf("request %d judged live:\n%q\njudged whole:\n%q", i, live, whole)
				}
			}
		})
	}
}
