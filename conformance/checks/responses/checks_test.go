package responses_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
)

const (
	apiURL  = "https://api.openai.com/v1/responses"
	chatURL = "https://api.openai.com/v1/chat/completions"
)

// Responses bodies for the tables.
const (
	user          = `{"role":"user","content":"Weather in Paris?"}`
	reasoningItem = `{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA-one"}`
	callItem      = `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"}`
	call2         = `{"type":"function_call","id":"fc_2","call_id":"call_2","name":"get_time","arguments":"{}"}`
	outputItem    = `{"type":"function_call_output","call_id":"call_1","output":"21C"}`
	out2          = `{"type":"function_call_output","call_id":"call_2","output":"noon"}`
	answer        = `{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"It is 21C."}]}`
)

func request(items ...string) string {
	return `{"model":"gpt-5","input":[` + strings.Join(items, ",") + `]}`
}

func responseBody(id string, items ...string) string {
	return `{"id":"` + id + `","object":"response","status":"completed","output":[` + strings.Join(items, ",") + `]}`
}

// turn is the first call of most tables: the model reasons, then calls.
// summarised is a reasoning item with a summary.
const summarised = `{"type":"reasoning","id":"rs_2","summary":[{"type":"summary_text","text":"Add the numbers."}],"encrypted_content":"gAAAA-two"}`

var turn = checktest.Call{URL: apiURL, Req: request(user), Resp: responseBody("resp_1", reasoningItem, callItem)}

func TestResponsesReasoningChecks(t *testing.T) {
	checktest.RunCases(t, []checktest.Case{
		{Name: "echo in output order", Check: "OAI-RSN-001",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, reasoningItem, callItem, outputItem)}}},
		{Name: "follower replaced by an id-less message", Check: "OAI-RSN-001",
			Calls: []checktest.Call{
				{URL: apiURL, Req: request(user), Resp: responseBody("resp_1", reasoningItem, answer)},
				{URL: apiURL, Req: request(user, reasoningItem, `{"role":"assistant","content":"42"}`, user)}},
			Want: []string{`1: followed by assistant message without an id "42" at input[2] instead of assistant message msg_1`}},
		{Name: "follower diff", Check: "OAI-RSN-001",
			Calls: []checktest.Call{
				{URL: apiURL, Req: request(user), Resp: responseBody("resp_1", reasoningItem, answer)},
				{URL: apiURL, Req: request(user, reasoningItem, `{"role":"assistant","content":"42"}`, user)}},
			Want: []string{`1: "msg_1"`}},
		{Name: "reasoning left last", Check: "OAI-RSN-001",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, reasoningItem)}},
			Want:  []string{"1: is the last input item, but interaction 0 produced it followed by function_call fc_1 (call_id call_1) (output[1])"}},
		{Name: "unknown origin followed by a user message", Check: "OAI-RSN-001",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, reasoningItem, user)}},
			Want:  []string{"0: is followed by user message"}},
		{Name: "unknown origin followed by the model's item", Check: "OAI-RSN-001",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, reasoningItem, `{"role":"assistant","content":"hi"}`)}}},
		{Name: "unknown origin followed by an item reference", Check: "OAI-RSN-001",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, reasoningItem, `{"type":"item_reference","id":"msg_9"}`)}}},
		{Name: "follower by item reference", Check: "OAI-RSN-001",
			Calls: []checktest.Call{
				{URL: apiURL, Req: request(user), Resp: responseBody("resp_1", reasoningItem, answer)},
				{URL: apiURL, Req: request(user, reasoningItem, `{"type":"item_reference","id":"msg_1"}`, user)}}},

		{Name: "call with its reasoning", Check: "OAI-RSN-002",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, reasoningItem, callItem, outputItem)}}},
		{Name: "call without its reasoning", Check: "OAI-RSN-002",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, callItem, outputItem)}},
			Want:  []string{"1: function_call fc_1 (call_id call_1) at input[1] is sent without reasoning item rs_1, which interaction 0 produced"}},
		{Name: "call id dropped instead", Check: "OAI-RSN-002",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, strings.Replace(callItem, `"id":"fc_1",`, "", 1), outputItem)}}},
		{Name: "chained requests are the server's business", Check: "OAI-RSN-002",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: `{"model":"gpt-5","previous_response_id":"resp_1","input":[` + callItem + `,` + outputItem + `]}`}}},
		{Name: "call produced without reasoning", Check: "OAI-RSN-002",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user), Resp: responseBody("resp_1", callItem)},
				{URL: apiURL, Req: request(user, callItem, outputItem)}}},

		{Name: "stored: id-only reasoning is fine", Check: "OAI-RSN-003",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, `{"type":"reasoning","id":"rs_1","summary":[]}`, callItem, outputItem)}}},
		{Name: "stateless id-only reasoning", Check: "OAI-RSN-003",
			Calls: []checktest.Call{{URL: apiURL, Req: `{"model":"gpt-5","store":false,"include":["reasoning.encrypted_content"],"input":[` + user + `,{"type":"reasoning","id":"rs_1","summary":[]},` + callItem + `,` + outputItem + `]}`}},
			Want:  []string{"0: reasoning item rs_1 at input[1] has no encrypted_content"}},
		{Name: "stateless without include", Check: "OAI-RSN-003",
			Calls: []checktest.Call{{URL: apiURL, Req: `{"model":"gpt-5","store":false,"reasoning":{"effort":"low"},"input":[` + user + `]}`}},
			Want:  []string{`0: include does not ask for "reasoning.encrypted_content"`}},
		{Name: "stateless without reasoning needs no include", Check: "OAI-RSN-003",
			Calls: []checktest.Call{{URL: apiURL, Req: `{"model":"gpt-4.1","store":false,"input":[` + user + `]}`, Resp: responseBody("resp_1", answer)}}},

		{Name: "payload echoed exactly", Check: "OAI-RSN-004",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, reasoningItem, callItem, outputItem)}}},
		{Name: "payload echoed with a JSON escape is the same string", Check: "OAI-RSN-004",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, strings.Replace(reasoningItem, "gAAAA-one", `gAAAA\u002done`, 1), callItem, outputItem)}}},
		{Name: "payload altered", Check: "OAI-RSN-004",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, strings.Replace(reasoningItem, "-one", "-0ne", 1), callItem, outputItem)}},
			Want:  []string{"1: first difference at byte 6"}},
		{Name: "payload sent to another organization", Check: "OAI-RSN-004",
			Calls: []checktest.Call{
				{URL: apiURL, Req: turn.Req, Resp: turn.Resp, Header: http.Header{"Openai-Organization": {"org-a"}}},
				{URL: apiURL, Req: request(user, reasoningItem, callItem, outputItem), Resp: responseBody("resp_2", answer), Header: http.Header{"Openai-Organization": {"org-b"}}}},
			Want: []string{`1: issued to organization "org-a" (interaction 0) but is sent to organization "org-b"`}},
		{Name: "payload sent to another host", Check: "OAI-RSN-004",
			Calls: []checktest.Call{turn, {URL: "https://gateway.example.com/v1/responses", Req: request(user, reasoningItem, callItem, outputItem)}},
			Want:  []string{"1: issued by api.openai.com (interaction 0) but is sent to gateway.example.com"}},
		{Name: "payload from an unfinished stream", Check: "OAI-RSN-004",
			Calls: []checktest.Call{
				{URL: apiURL, Req: request(user), Resp: "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"output\":[]}}\n\n" +
					"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[],\"encrypted_content\":\"gAAAA-one\"}}\n\n"},
				{URL: apiURL, Req: request(user, reasoningItem, `{"role":"assistant","content":"hi"}`)}},
			Want: []string{"1: never sent response.output_item.done"}},
		{Name: "payload invented for a summary-only item", Check: "OAI-RSN-004",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user), Resp: responseBody("resp_1", `{"type":"reasoning","id":"rs_1","summary":[]}`, callItem)},
				{URL: apiURL, Req: request(user, reasoningItem, callItem, outputItem)}},
			Want: []string{"1: interaction 0 produced it without one"}},
		// Ruby and Python SDK users send reasoning back without its id: the
		// item is matched by the call that follows it, or by its summary.
		{Name: "payload without an id, echoed exactly", Check: "OAI-RSN-004",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, strings.Replace(reasoningItem, `"id":"rs_1",`, "", 1), callItem, outputItem)}}},
		{Name: "payload without an id, altered", Check: "OAI-RSN-004",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, strings.Replace(strings.Replace(reasoningItem, `"id":"rs_1",`, "", 1), "-one", "-0ne", 1), callItem, outputItem)}},
			Want:  []string{"1: sent without an id (matched to rs_1 of interaction 0 by the function call call_1 that follows it)"}},
		{Name: "payload without an id, altered, matched by its summary", Check: "OAI-RSN-004",
			Calls: []checktest.Call{
				{URL: apiURL, Req: request(user), Resp: responseBody("resp_1", summarised, answer)},
				{URL: apiURL, Req: request(user, strings.Replace(strings.Replace(summarised, `"id":"rs_2",`, "", 1), "-two", "-tw0", 1), `{"role":"assistant","content":"42"}`, user)}},
			Want: []string{"1: sent without an id (matched to rs_2 of interaction 0 by its summary)"}},
		{Name: "payload from another recording is not judged", Check: "OAI-RSN-004",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, reasoningItem, callItem, outputItem)}}},
	})
}

func TestResponsesToolChecks(t *testing.T) {
	chained := func(items ...string) string {
		return `{"model":"gpt-5","previous_response_id":"resp_1","input":[` + strings.Join(items, ",") + `]}`
	}
	checktest.RunCases(t, []checktest.Case{
		{Name: "parallel calls answered", Check: "OAI-TOOL-010",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, callItem, call2, outputItem, out2)}}},
		{Name: "one of two calls unanswered", Check: "OAI-TOOL-010",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, callItem, call2, out2)}},
			Want:  []string{"0: function_call call_1 (get_weather) at input[1] has no function_call_output"}},
		{Name: "chained: previous response's call unanswered", Check: "OAI-TOOL-010",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: chained(user)}},
			Want:  []string{"1: function call call_1 (get_weather) of response resp_1, named by previous_response_id"}},
		{Name: "chained: answered", Check: "OAI-TOOL-010",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: chained(outputItem)}}},

		{Name: "chained: output answers the previous response", Check: "OAI-TOOL-011",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: chained(outputItem)}}},
		{Name: "chained to an unrecorded response: not judged", Check: "OAI-TOOL-011",
			Calls: []checktest.Call{{URL: apiURL, Req: `{"model":"gpt-5","previous_response_id":"resp_x","input":[` + outputItem + `]}`}}},
		{Name: "chained: orphan output", Check: "OAI-TOOL-011",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: chained(out2)}},
			Want:  []string{"1: answers call_id call_2, but no function_call with that call_id is in the input or in response resp_1"}},
		{Name: "output before its call", Check: "OAI-TOOL-011",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, outputItem, callItem)}},
			Want:  []string{"0: whose function_call comes later, at input[2]"}},
		{Name: "call by item reference", Check: "OAI-TOOL-011",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, `{"type":"item_reference","id":"rs_1"}`, `{"type":"item_reference","id":"fc_1"}`, outputItem)}}},
		{Name: "unknown item reference: not judged", Check: "OAI-TOOL-011",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, `{"type":"item_reference","id":"fc_9"}`, outputItem)}}},

		{Name: "role tool", Check: "OAI-TOOL-012",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, callItem, `{"role":"tool","tool_call_id":"call_1","content":"21C"}`)}},
			Want:  []string{`0: input[2] is a message with role "tool"`}},
		{Name: "role model", Check: "OAI-TOOL-012",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, `{"role":"model","content":"hi"}`)}},
			Want:  []string{`0: input[1] has role "model"`}},
		{Name: "foreign ids", Check: "OAI-TOOL-012",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user,
				`{"type":"reasoning","id":"thought_1","summary":[]}`,
				strings.Replace(callItem, `"fc_1"`, `"call_1"`, 1),
				`{"type":"message","id":"item_1","role":"assistant","content":[{"type":"output_text","text":"ok"}]}`, outputItem)}},
			Want: []string{`0: reasoning at input[1] has id "thought_1"`, `0: function_call at input[2] has id "call_1"`, `0: message at input[3] has id "item_1"`}},
		{Name: "developer role and kept ids", Check: "OAI-TOOL-012",
			Calls: []checktest.Call{{URL: apiURL, Req: request(`{"role":"developer","content":"be brief"}`, user, reasoningItem, callItem, outputItem, answer)}}},

		{Name: "parallel outputs after their calls", Check: "OAI-CANCEL-001",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, reasoningItem, callItem, call2, outputItem, out2)}}},
		{Name: "user text between call and output, reported once", Check: "OAI-CANCEL-001",
			Calls: []checktest.Call{
				{URL: apiURL, Req: request(user, callItem, `{"role":"user","content":"stop"}`, outputItem)},
				{URL: apiURL, Req: request(user, callItem, `{"role":"user","content":"stop"}`, outputItem, answer, user)}},
			Want: []string{`0: the output of call call_1 (get_weather at input[1]) comes at input[3], after user message "stop" at input[2]`}},
		{Name: "blank output", Check: "OAI-CANCEL-001",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, callItem, `{"type":"function_call_output","call_id":"call_1","output":"  "}`)}},
			Want:  []string{"0: the output of call call_1 (get_weather) is empty"}},
		{Name: "aborted output", Check: "OAI-CANCEL-001",
			Calls: []checktest.Call{{URL: apiURL, Req: request(user, callItem, `{"type":"function_call_output","call_id":"call_1","output":"aborted"}`)}}},
	})
}

// TestResponsesLintLive: the live path judges a request that has no
// response yet against the recorded history.
func TestResponsesLintLive(t *testing.T) {
	tr := checktest.Traffic(t, turn, checktest.Call{URL: apiURL, Req: request(user, callItem, outputItem)})
	got := checktest.LintNext(tr.Exchanges[:1], tr.Exchanges[1], checks.All())
	for _, f := range got {
		if f.Check == "OAI-RSN-002" && f.Interaction == 1 && f.Location == "request.input[1]" {
			return
		}
	}
	t.Errorf("Lint did not raise OAI-RSN-002 on the live request:\n%s", checktest.FindingLines(got))
}

func TestResponsesReasoningByReference(t *testing.T) {
	checktest.RunCases(t, []checktest.Case{
		{Name: "reasoning sent as an item reference", Check: "OAI-RSN-002",
			Calls: []checktest.Call{turn, {URL: apiURL, Req: request(user, `{"type":"item_reference","id":"rs_1"}`, callItem, outputItem)}}},
	})
}
