package checks_test

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

// oaiCall is one hand-written call for the OpenAI table tests.
type oaiCall struct {
	url    string
	req    string
	resp   string // "" for a live request with no response yet
	status int    // 200 when 0
	header http.Header
}

const (
	responsesURL = "https://api.openai.com/v1/responses"
	chatURL      = "https://api.openai.com/v1/chat/completions"
)

func oaiTraffic(t *testing.T, calls ...oaiCall) *check.Traffic {
	t.Helper()
	tr := &check.Traffic{Path: t.Name()}
	for i, c := range calls {
		status := c.status
		if status == 0 {
			status = 200
		}
		if c.resp == "" {
			status = 0
		}
		ex := providers.Decode(i, providers.Call{Method: "POST", URL: c.url, RequestBody: []byte(c.req),
			Status: status, ResponseHeader: c.header, ResponseBody: []byte(c.resp)})
		if ex.RequestErr != "" || (c.resp != "" && ex.ResponseErr != "") {
			t.Fatalf("call %d does not decode: %s %s", i, ex.RequestErr, ex.ResponseErr)
		}
		tr.Exchanges = append(tr.Exchanges, ex)
	}
	return tr
}

// oaiCase is one table row: the traffic, the check, and where it must fire
// (interaction: message substring); none when want is empty.
type oaiCase struct {
	name  string
	check string
	calls []oaiCall
	want  []string // "N: substring", in order
}

func runOAICases(t *testing.T, cases []oaiCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := oaiTraffic(t, c.calls...)
			var got []check.Finding
			for _, f := range check.Judge(tr, []*check.Check{checks.Lookup(c.check)}) {
				got = append(got, f)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d findings, want %d:\n%s", len(got), len(c.want), findingLines(got))
			}
			for i, w := range c.want {
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
				for _, f := range check.Judge(&check.Traffic{Exchanges: tr.Exchanges[:i+1], Latest: true}, []*check.Check{checks.Lookup(c.check)}) {
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

// Responses bodies for the tables.
const (
	rsUser   = `{"role":"user","content":"Weather in Paris?"}`
	rsItem   = `{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA-one"}`
	rsCall   = `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"}`
	rsCall2  = `{"type":"function_call","id":"fc_2","call_id":"call_2","name":"get_time","arguments":"{}"}`
	rsOut    = `{"type":"function_call_output","call_id":"call_1","output":"21C"}`
	rsOut2   = `{"type":"function_call_output","call_id":"call_2","output":"noon"}`
	rsAnswer = `{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"It is 21C."}]}`
)

func rsReq(items ...string) string {
	return `{"model":"gpt-5","input":[` + strings.Join(items, ",") + `]}`
}

func rsResp(id string, items ...string) string {
	return `{"id":"` + id + `","object":"response","status":"completed","output":[` + strings.Join(items, ",") + `]}`
}

// rsTurn is the first call of most tables: the model reasons, then calls.
// rsSummarised is a reasoning item with a summary.
const rsSummarised = `{"type":"reasoning","id":"rs_2","summary":[{"type":"summary_text","text":"Add the numbers."}],"encrypted_content":"gAAAA-two"}`

var rsTurn = oaiCall{url: responsesURL, req: rsReq(rsUser), resp: rsResp("resp_1", rsItem, rsCall)}

func TestResponsesReasoningChecks(t *testing.T) {
	runOAICases(t, []oaiCase{
		{name: "echo in output order", check: "OAI-RSN-001",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, rsItem, rsCall, rsOut)}}},
		{name: "follower replaced by an id-less message", check: "OAI-RSN-001",
			calls: []oaiCall{
				{url: responsesURL, req: rsReq(rsUser), resp: rsResp("resp_1", rsItem, rsAnswer)},
				{url: responsesURL, req: rsReq(rsUser, rsItem, `{"role":"assistant","content":"42"}`, rsUser)}},
			want: []string{`1: followed by assistant message without an id "42" at input[2] instead of assistant message msg_1`}},
		{name: "follower diff", check: "OAI-RSN-001",
			calls: []oaiCall{
				{url: responsesURL, req: rsReq(rsUser), resp: rsResp("resp_1", rsItem, rsAnswer)},
				{url: responsesURL, req: rsReq(rsUser, rsItem, `{"role":"assistant","content":"42"}`, rsUser)}},
			want: []string{`1: "msg_1"`}},
		{name: "reasoning left last", check: "OAI-RSN-001",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, rsItem)}},
			want:  []string{"1: is the last input item, but interaction 0 produced it followed by function_call fc_1 (call_id call_1) (output[1])"}},
		{name: "unknown origin followed by a user message", check: "OAI-RSN-001",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsItem, rsUser)}},
			want:  []string{"0: is followed by user message"}},
		{name: "unknown origin followed by the model's item", check: "OAI-RSN-001",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsItem, `{"role":"assistant","content":"hi"}`)}}},
		{name: "unknown origin followed by an item reference", check: "OAI-RSN-001",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsItem, `{"type":"item_reference","id":"msg_9"}`)}}},
		{name: "follower by item reference", check: "OAI-RSN-001",
			calls: []oaiCall{
				{url: responsesURL, req: rsReq(rsUser), resp: rsResp("resp_1", rsItem, rsAnswer)},
				{url: responsesURL, req: rsReq(rsUser, rsItem, `{"type":"item_reference","id":"msg_1"}`, rsUser)}}},

		{name: "call with its reasoning", check: "OAI-RSN-002",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, rsItem, rsCall, rsOut)}}},
		{name: "call without its reasoning", check: "OAI-RSN-002",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, rsCall, rsOut)}},
			want:  []string{"1: function_call fc_1 (call_id call_1) at input[1] is sent without reasoning item rs_1, which interaction 0 produced"}},
		{name: "call id dropped instead", check: "OAI-RSN-002",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, strings.Replace(rsCall, `"id":"fc_1",`, "", 1), rsOut)}}},
		{name: "chained requests are the server's business", check: "OAI-RSN-002",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: `{"model":"gpt-5","previous_response_id":"resp_1","input":[` + rsCall + `,` + rsOut + `]}`}}},
		{name: "call produced without reasoning", check: "OAI-RSN-002",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser), resp: rsResp("resp_1", rsCall)},
				{url: responsesURL, req: rsReq(rsUser, rsCall, rsOut)}}},

		{name: "stored: id-only reasoning is fine", check: "OAI-RSN-003",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, `{"type":"reasoning","id":"rs_1","summary":[]}`, rsCall, rsOut)}}},
		{name: "stateless id-only reasoning", check: "OAI-RSN-003",
			calls: []oaiCall{{url: responsesURL, req: `{"model":"gpt-5","store":false,"include":["reasoning.encrypted_content"],"input":[` + rsUser + `,{"type":"reasoning","id":"rs_1","summary":[]},` + rsCall + `,` + rsOut + `]}`}},
			want:  []string{"0: reasoning item rs_1 at input[1] has no encrypted_content"}},
		{name: "stateless without include", check: "OAI-RSN-003",
			calls: []oaiCall{{url: responsesURL, req: `{"model":"gpt-5","store":false,"reasoning":{"effort":"low"},"input":[` + rsUser + `]}`}},
			want:  []string{`0: include does not ask for "reasoning.encrypted_content"`}},
		{name: "stateless without reasoning needs no include", check: "OAI-RSN-003",
			calls: []oaiCall{{url: responsesURL, req: `{"model":"gpt-4.1","store":false,"input":[` + rsUser + `]}`, resp: rsResp("resp_1", rsAnswer)}}},

		{name: "payload echoed exactly", check: "OAI-RSN-004",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, rsItem, rsCall, rsOut)}}},
		{name: "payload echoed with a JSON escape is the same string", check: "OAI-RSN-004",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, strings.Replace(rsItem, "gAAAA-one", `gAAAA\u002done`, 1), rsCall, rsOut)}}},
		{name: "payload altered", check: "OAI-RSN-004",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, strings.Replace(rsItem, "-one", "-0ne", 1), rsCall, rsOut)}},
			want:  []string{"1: first difference at byte 6"}},
		{name: "payload sent to another organization", check: "OAI-RSN-004",
			calls: []oaiCall{
				{url: responsesURL, req: rsTurn.req, resp: rsTurn.resp, header: http.Header{"Openai-Organization": {"org-a"}}},
				{url: responsesURL, req: rsReq(rsUser, rsItem, rsCall, rsOut), resp: rsResp("resp_2", rsAnswer), header: http.Header{"Openai-Organization": {"org-b"}}}},
			want: []string{`1: issued to organization "org-a" (interaction 0) but is sent to organization "org-b"`}},
		{name: "payload sent to another host", check: "OAI-RSN-004",
			calls: []oaiCall{rsTurn, {url: "https://gateway.example.com/v1/responses", req: rsReq(rsUser, rsItem, rsCall, rsOut)}},
			want:  []string{"1: issued by api.openai.com (interaction 0) but is sent to gateway.example.com"}},
		{name: "payload from an unfinished stream", check: "OAI-RSN-004",
			calls: []oaiCall{
				{url: responsesURL, req: rsReq(rsUser), resp: "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"output\":[]}}\n\n" +
					"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[],\"encrypted_content\":\"gAAAA-one\"}}\n\n"},
				{url: responsesURL, req: rsReq(rsUser, rsItem, `{"role":"assistant","content":"hi"}`)}},
			want: []string{"1: never sent response.output_item.done"}},
		{name: "payload invented for a summary-only item", check: "OAI-RSN-004",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser), resp: rsResp("resp_1", `{"type":"reasoning","id":"rs_1","summary":[]}`, rsCall)},
				{url: responsesURL, req: rsReq(rsUser, rsItem, rsCall, rsOut)}},
			want: []string{"1: interaction 0 produced it without one"}},
		// Ruby and Python SDK users send reasoning back without its id: the
		// item is matched by the call that follows it, or by its summary.
		{name: "payload without an id, echoed exactly", check: "OAI-RSN-004",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, strings.Replace(rsItem, `"id":"rs_1",`, "", 1), rsCall, rsOut)}}},
		{name: "payload without an id, altered", check: "OAI-RSN-004",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, strings.Replace(strings.Replace(rsItem, `"id":"rs_1",`, "", 1), "-one", "-0ne", 1), rsCall, rsOut)}},
			want:  []string{"1: sent without an id (matched to rs_1 of interaction 0 by the function call call_1 that follows it)"}},
		{name: "payload without an id, altered, matched by its summary", check: "OAI-RSN-004",
			calls: []oaiCall{
				{url: responsesURL, req: rsReq(rsUser), resp: rsResp("resp_1", rsSummarised, rsAnswer)},
				{url: responsesURL, req: rsReq(rsUser, strings.Replace(strings.Replace(rsSummarised, `"id":"rs_2",`, "", 1), "-two", "-tw0", 1), `{"role":"assistant","content":"42"}`, rsUser)}},
			want: []string{"1: sent without an id (matched to rs_2 of interaction 0 by its summary)"}},
		{name: "payload from another recording is not judged", check: "OAI-RSN-004",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsItem, rsCall, rsOut)}}},
	})
}

func TestResponsesToolChecks(t *testing.T) {
	chained := func(items ...string) string {
		return `{"model":"gpt-5","previous_response_id":"resp_1","input":[` + strings.Join(items, ",") + `]}`
	}
	runOAICases(t, []oaiCase{
		{name: "parallel calls answered", check: "OAI-TOOL-010",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsCall, rsCall2, rsOut, rsOut2)}}},
		{name: "one of two calls unanswered", check: "OAI-TOOL-010",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsCall, rsCall2, rsOut2)}},
			want:  []string{"0: function_call call_1 (get_weather) at input[1] has no function_call_output"}},
		{name: "chained: previous response's call unanswered", check: "OAI-TOOL-010",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: chained(rsUser)}},
			want:  []string{"1: function call call_1 (get_weather) of response resp_1, named by previous_response_id"}},
		{name: "chained: answered", check: "OAI-TOOL-010",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: chained(rsOut)}}},

		{name: "chained: output answers the previous response", check: "OAI-TOOL-011",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: chained(rsOut)}}},
		{name: "chained to an unrecorded response: not judged", check: "OAI-TOOL-011",
			calls: []oaiCall{{url: responsesURL, req: `{"model":"gpt-5","previous_response_id":"resp_x","input":[` + rsOut + `]}`}}},
		{name: "chained: orphan output", check: "OAI-TOOL-011",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: chained(rsOut2)}},
			want:  []string{"1: answers call_id call_2, but no function_call with that call_id is in the input or in response resp_1"}},
		{name: "output before its call", check: "OAI-TOOL-011",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsOut, rsCall)}},
			want:  []string{"0: whose function_call comes later, at input[2]"}},
		{name: "call by item reference", check: "OAI-TOOL-011",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, `{"type":"item_reference","id":"rs_1"}`, `{"type":"item_reference","id":"fc_1"}`, rsOut)}}},
		{name: "unknown item reference: not judged", check: "OAI-TOOL-011",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, `{"type":"item_reference","id":"fc_9"}`, rsOut)}}},

		{name: "role tool", check: "OAI-TOOL-012",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsCall, `{"role":"tool","tool_call_id":"call_1","content":"21C"}`)}},
			want:  []string{`0: input[2] is a message with role "tool"`}},
		{name: "role model", check: "OAI-TOOL-012",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, `{"role":"model","content":"hi"}`)}},
			want:  []string{`0: input[1] has role "model"`}},
		{name: "foreign ids", check: "OAI-TOOL-012",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser,
				`{"type":"reasoning","id":"thought_1","summary":[]}`,
				strings.Replace(rsCall, `"fc_1"`, `"call_1"`, 1),
				`{"type":"message","id":"item_1","role":"assistant","content":[{"type":"output_text","text":"ok"}]}`, rsOut)}},
			want: []string{`0: reasoning at input[1] has id "thought_1"`, `0: function_call at input[2] has id "call_1"`, `0: message at input[3] has id "item_1"`}},
		{name: "developer role and kept ids", check: "OAI-TOOL-012",
			calls: []oaiCall{{url: responsesURL, req: rsReq(`{"role":"developer","content":"be brief"}`, rsUser, rsItem, rsCall, rsOut, rsAnswer)}}},

		{name: "parallel outputs after their calls", check: "OAI-CANCEL-001",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsItem, rsCall, rsCall2, rsOut, rsOut2)}}},
		{name: "user text between call and output, reported once", check: "OAI-CANCEL-001",
			calls: []oaiCall{
				{url: responsesURL, req: rsReq(rsUser, rsCall, `{"role":"user","content":"stop"}`, rsOut)},
				{url: responsesURL, req: rsReq(rsUser, rsCall, `{"role":"user","content":"stop"}`, rsOut, rsAnswer, rsUser)}},
			want: []string{`0: the output of call call_1 (get_weather at input[1]) comes at input[3], after user message "stop" at input[2]`}},
		{name: "blank output", check: "OAI-CANCEL-001",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsCall, `{"type":"function_call_output","call_id":"call_1","output":"  "}`)}},
			want:  []string{"0: the output of call call_1 (get_weather) is empty"}},
		{name: "aborted output", check: "OAI-CANCEL-001",
			calls: []oaiCall{{url: responsesURL, req: rsReq(rsUser, rsCall, `{"type":"function_call_output","call_id":"call_1","output":"aborted"}`)}}},
	})
}

// TestResponsesLintLive: the live path judges a request that has no
// response yet against the recorded history.
func TestResponsesLintLive(t *testing.T) {
	tr := oaiTraffic(t, rsTurn, oaiCall{url: responsesURL, req: rsReq(rsUser, rsCall, rsOut)})
	got := lintNext(tr.Exchanges[:1], tr.Exchanges[1], checks.All())
	for _, f := range got {
		if f.Check == "OAI-RSN-002" && f.Interaction == 1 && f.Location == "request.input[1]" {
			return
		}
	}
	t.Errorf("Lint did not raise OAI-RSN-002 on the live request:\n%s", findingLines(got))
}

func TestResponsesReasoningByReference(t *testing.T) {
	runOAICases(t, []oaiCase{
		{name: "reasoning sent as an item reference", check: "OAI-RSN-002",
			calls: []oaiCall{rsTurn, {url: responsesURL, req: rsReq(rsUser, `{"type":"item_reference","id":"rs_1"}`, rsCall, rsOut)}}},
	})
}
