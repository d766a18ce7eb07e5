package responses

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// goodEvents is a well-formed stream: a reasoning item, a function call and
// a message, then response.completed carrying the same output. Each payload
// is one event; sequence numbers are filled in by sseBody.
func goodEvents() []string {
	return []string{
		`{"type":"response.created","response":{"id":"resp_1","model":"gpt-5","status":"in_progress","output":[]}}`,
		`{"type":"response.in_progress","response":{"id":"resp_1","model":"gpt-5","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`,
		`{"type":"response.reasoning_summary_part.added","output_index":0,"item_id":"rs_1","summary_index":0,"part":{"type":"summary_text","text":""}}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":0,"item_id":"rs_1","summary_index":0,"delta":"Need ","obfuscation":"x"}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":0,"item_id":"rs_1","summary_index":0,"delta":"weather"}`,
		`{"type":"response.reasoning_summary_text.done","output_index":0,"item_id":"rs_1","summary_index":0,"text":"Need weather"}`,
		`{"type":"response.reasoning_summary_part.done","output_index":0,"item_id":"rs_1","summary_index":0,"part":{"type":"summary_text","text":"Need weather"}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Need weather"}],"encrypted_content":"gAAA-done"}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"get_weather"}}`,
		`{"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_1","delta":"{\"city\":"}`,
		`{"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_1","delta":"\"Paris\"}"}`,
		`{"type":"response.function_call_arguments.done","output_index":1,"item_id":"fc_1","arguments":"{\"city\":\"Paris\"}"}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"city\":\"Paris\"}","call_id":"call_1","name":"get_weather"}}`,
		`{"type":"response.output_item.added","output_index":2,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}`,
		`{"type":"response.content_part.added","output_index":2,"item_id":"msg_1","content_index":0,"part":{"type":"output_text","annotations":[],"text":""}}`,
		`{"type":"response.output_text.delta","output_index":2,"item_id":"msg_1","content_index":0,"delta":"Check"}`,
		`{"type":"response.output_text.delta","output_index":2,"item_id":"msg_1","content_index":0,"delta":"ing."}`,
		`{"type":"response.output_text.done","output_index":2,"item_id":"msg_1","content_index":0,"text":"Checking."}`,
		`{"type":"response.content_part.done","output_index":2,"item_id":"msg_1","content_index":0,"part":{"type":"output_text","annotations":[],"text":"Checking."}}`,
		`{"type":"response.output_item.done","output_index":2,"item":{"id":"msg_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"text":"Checking."}],"role":"assistant"}}`,
		`{"type":"response.completed","response":{"id":"resp_1","model":"gpt-5","status":"completed","output":[` +
			`{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Need weather"}],"encrypted_content":"gAAA-terminal"},` +
			`{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"city\":\"Paris\"}","call_id":"call_1","name":"get_weather"},` +
			`{"id":"msg_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"text":"Checking."}],"role":"assistant"}],` +
			`"usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":20,"output_tokens_details":{"reasoning_tokens":8}}}}`,
	}
}

var typeRE = regexp.MustCompile(`^\{"type":"([^"]+)"`)

// sseBody frames payloads as the API does: an event: line named after the
// payload's type, and sequence_number counting from 0 unless the payload
// already carries one.
func sseBody(payloads []string) []byte {
	var b []byte
	for i, p := range payloads {
		name := ""
		if m := typeRE.FindStringSubmatch(p); m != nil {
			name = m[1]
			if !strings.Contains(p, `"sequence_number"`) {
				p = fmt.Sprintf(`%s,"sequence_number":%d}`, strings.TrimSuffix(p, "}"), i)
			}
		}
		b = sse.Write(b, name, p)
	}
	return b
}

func decodeEvents(t *testing.T, payloads []string) *traffic.Response {
	t.Helper()
	resp, err := Codec{}.DecodeResponse(http.StatusOK, http.Header{}, sseBody(payloads))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stream == nil {
		t.Fatal("no Stream")
	}
	return resp
}

func TestStreamWellFormed(t *testing.T) {
	resp := decodeEvents(t, goodEvents())
	st := resp.Stream
	if len(st.Issues) != 0 || !st.Complete || st.Truncated || st.Error != nil || len(st.Partial) != 0 {
		t.Fatalf("stream facts: %+v", st)
	}
	if st.Events != 22 || len(st.Offsets) != 22 || st.Offsets[0] != 0 {
		t.Errorf("events %d, offsets %v", st.Events, st.Offsets)
	}
	if resp.ID != "resp_1" || resp.Model != "gpt-5" || resp.Status != "completed" {
		t.Errorf("response: %s %s %s", resp.ID, resp.Model, resp.Status)
	}
	if diff := cmp.Diff(&traffic.Usage{InputTokens: 10, OutputTokens: 20, CacheReadTokens: 4, ReasoningTokens: 8}, resp.Usage); diff != "" {
		t.Errorf("usage: %s", diff)
	}
	if len(resp.Output) != 3 {
		t.Fatalf("%d output messages", len(resp.Output))
	}
	rs := resp.Output[0].Blocks[0]
	// The .done copy is authoritative; the terminal's token is a fresh
	// encryption of the same content, so it does not count as a disagreement.
	if rs.Type != traffic.BlockReasoning || string(rs.EncryptedContent) != `"gAAA-done"` || rs.Text != "Need weather" || resp.Output[0].Path != "output[0]" {
		t.Errorf("reasoning: %+v", rs)
	}
	fc := resp.Output[1].Blocks[0]
	if fc.ID != "call_1" || fc.ItemID != "fc_1" || string(fc.Input) != `"{\"city\":\"Paris\"}"` || string(fc.Extra["status"]) != `"completed"` {
		t.Errorf("function call: %+v", fc)
	}
	if msg := resp.Output[2]; msg.Blocks[0].Text != "Checking." || ItemID(msg) != "msg_1" || msg.Blocks[0].Path != "output[2].content[0]" {
		t.Errorf("message: %+v", msg)
	}
}

// issue is an expected stream issue: the event index and a message fragment.
type issue struct {
	event int
	msg   string
}

func TestStreamFaults(t *testing.T) {
	good := goodEvents()
	last := len(good) - 1
	without := func(drop ...int) []string {
		var out []string
	next:
		for i, e := range good {
			for _, d := range drop {
				if i == d {
					continue next
				}
			}
			out = append(out, e)
		}
		return out
	}
	replace := func(i int, e string) []string {
		out := append([]string(nil), good...)
		out[i] = e
		return out
	}
	insert := func(i int, e string) []string {
		out := append([]string(nil), good[:i]...)
		out = append(out, e)
		return append(out, good[i:]...)
	}
	cases := []struct {
		name      string
		events    []string
		issues    []issue
		truncated bool
		complete  bool
		partial   []int
		status    string
		check     func(t *testing.T, r *traffic.Response)
	}{{
		name:      "truncated inside a function call",
		events:    good[:11],
		issues:    []issue{{9, "output_index 1 (function_call fc_1) was added but never done"}, {11, "stream ended after 11 events without response.completed"}},
		truncated: true, partial: []int{1}, status: "in_progress",
		check: func(t *testing.T, r *traffic.Response) {
			fc := r.Output[1].Blocks[0]
			if string(fc.Input) != `"{\"city\":"` || string(fc.Extra["status"]) != `"in_progress"` {
				t.Errorf("partial call keeps the deltas and its in_progress status: %+v", fc)
			}
		},
	}, {
		name:      "truncated inside message text",
		events:    good[:18],
		issues:    []issue{{14, "output_index 2 (message msg_1) was added but never done"}, {18, "without response.completed"}},
		truncated: true, partial: []int{2}, status: "in_progress",
		check: func(t *testing.T, r *traffic.Response) {
			if m := r.Output[2]; m.Blocks[0].Text != "Checking." || string(m.Extra["status"]) != `"in_progress"` {
				t.Errorf("partial message: %+v", m)
			}
		},
	}, {
		name: "error event then response.failed in a 200",
		events: append(good[:2:2],
			`{"type":"error","error":{"type":"insufficient_quota","code":"insufficient_quota","message":"You exceeded your current quota","param":null}}`,
			`{"type":"response.failed","response":{"id":"resp_1","status":"failed","error":{"code":"insufficient_quota","message":"You exceeded your current quota"},"output":[]}}`),
		status: "failed",
		check: func(t *testing.T, r *traffic.Response) {
			want := &traffic.APIError{Type: "insufficient_quota", Code: "insufficient_quota", Message: "You exceeded your current quota"}
			if !cmp.Equal(r.Stream.Error, want) || !cmp.Equal(r.Error, want) {
				t.Errorf("errors: stream %+v response %+v", r.Stream.Error, r.Error)
			}
		},
	}, {
		name:   "response.failed alone",
		events: append(good[:2:2], `{"type":"response.failed","response":{"id":"resp_1","status":"failed","error":{"code":"server_error","message":"boom"},"output":[]}}`),
		status: "failed",
		check: func(t *testing.T, r *traffic.Response) {
			if r.Stream.Error != nil || r.Error == nil || r.Error.Code != "server_error" {
				t.Errorf("errors: stream %+v response %+v", r.Stream.Error, r.Error)
			}
		},
	}, {
		name:     "response.incomplete",
		events:   replace(last, `{"type":"response.incomplete","response":{"id":"resp_1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`),
		complete: true, status: "incomplete",
		check: func(t *testing.T, r *traffic.Response) {
			if r.StopReason != "max_output_tokens" || len(r.Output) != 3 {
				t.Errorf("stop %q, %d outputs", r.StopReason, len(r.Output))
			}
		},
	}, {
		name:     "sequence_number goes back",
		events:   replace(5, `{"type":"response.reasoning_summary_text.delta","output_index":0,"item_id":"rs_1","summary_index":0,"delta":"weather","sequence_number":3}`),
		issues:   []issue{{5, "sequence_number 3 after 4: not strictly increasing"}},
		complete: true, status: "completed",
	}, {
		name:     "item done without added",
		events:   without(9, 10, 11, 12),
		issues:   []issue{{9, "output_index 1 (fc_1) done without output_item.added"}},
		complete: true, status: "completed",
	}, {
		name:     "output_index gap",
		events:   replace(14, `{"type":"response.output_item.added","output_index":3,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}`),
		issues:   []issue{{14, "output_index 3 added where 2 was expected"}, {14, "output_index 3 (message msg_1) was added but never done"}, {15, "content_part.added for output_index 2, which was never added"}, {20, "output_index 2 (msg_1) done without output_item.added"}},
		complete: true, status: "completed", partial: []int{3},
	}, {
		name:     "delta for a never-started item",
		events:   insert(14, `{"type":"response.output_text.delta","output_index":5,"item_id":"msg_x","content_index":0,"delta":"stray"}`),
		issues:   []issue{{14, "response.output_text.delta for output_index 5, which was never added"}, {14, "response.output_text.delta for content_index 0 of output_index 5, which was never added"}, {14, "output_index 5 (message msg_x) was added but never done"}},
		complete: true, status: "completed", partial: []int{3},
		check: func(t *testing.T, r *traffic.Response) {
			if m := r.Output[3]; m.Path != "output[5]" || m.Blocks[0].Text != "stray" || ItemID(m) != "msg_x" {
				t.Errorf("the stray text is kept in an implicit item: %+v", m)
			}
		},
	}, {
		name:     "delta of the wrong type",
		events:   insert(12, `{"type":"response.output_text.delta","output_index":1,"item_id":"fc_1","content_index":0,"delta":"x"}`),
		issues:   []issue{{12, "response.output_text.delta on output_index 1, a function_call item"}},
		complete: true, status: "completed",
	}, {
		name:     "delta after its item is done",
		events:   insert(9, `{"type":"response.reasoning_summary_text.delta","output_index":0,"item_id":"rs_1","summary_index":0,"delta":"late"}`),
		issues:   []issue{{9, "response.reasoning_summary_text.delta for output_index 0 after its output_item.done"}},
		complete: true, status: "completed",
	}, {
		name:     "text delta before its part",
		events:   without(15),
		issues:   []issue{{15, "response.output_text.delta for content_index 0 of output_index 2, which was never added"}},
		complete: true, status: "completed",
	}, {
		name:     "final text differs from deltas",
		events:   replace(18, `{"type":"response.output_text.done","output_index":2,"item_id":"msg_1","content_index":0,"text":"Checked."}`),
		issues:   []issue{{18, "final text of content_index 0 of output_index 2 differs from its deltas"}, {19, "final text of content_index 0 of output_index 2 differs from its deltas"}},
		complete: true, status: "completed",
	}, {
		name: "invalid JSON arguments at done",
		events: append(good[:10:10],
			`{"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_1","delta":"{\"city\":"}`,
			`{"type":"response.function_call_arguments.done","output_index":1,"item_id":"fc_1","arguments":"{\"city\":"}`),
		issues:    []issue{{9, "output_index 1 (function_call fc_1) was added but never done"}, {11, "arguments of output_index 1 are not valid JSON"}, {12, "without response.completed"}},
		truncated: true, partial: []int{1}, status: "in_progress",
	}, {
		name: "terminal output disagrees with the done items",
		events: replace(last, `{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[`+
			`{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"gAAA-terminal"},`+
			`{"id":"fc_1","type":"function_call","status":"completed","arguments":"{}","call_id":"call_1","name":"get_weather"}]}}`),
		issues:   []issue{{21, "output[0] of response.completed differs from its response.output_item.done item"}, {21, "output[1] of response.completed differs"}, {21, "output_index 2 (msg_1) is missing from the response.completed output"}},
		complete: true, status: "completed",
		check: func(t *testing.T, r *traffic.Response) {
			if string(r.Output[1].Blocks[0].Input) != `"{\"city\":\"Paris\"}"` {
				t.Errorf("the .done copy wins: %s", r.Output[1].Blocks[0].Input)
			}
		},
	}, {
		name:     "events after the terminal event",
		events:   append(append([]string(nil), good...), good[0], good[1]),
		issues:   []issue{{22, "response.created after the terminal response.completed event (event 21)"}},
		complete: true, status: "completed",
	}, {
		name:     "response id changes",
		events:   replace(1, `{"type":"response.in_progress","response":{"id":"resp_2","status":"in_progress"}}`),
		issues:   []issue{{1, "response.in_progress names response resp_2, but the stream began as resp_1"}},
		complete: true, status: "completed",
	}, {
		name:     "data that is not JSON",
		events:   insert(3, `{"type": oops`),
		issues:   []issue{{3, "event data is not a JSON object"}},
		complete: true, status: "completed",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := decodeEvents(t, c.events)
			st := r.Stream
			if len(st.Issues) != len(c.issues) {
				t.Errorf("%d issues, want %d:\n%s", len(st.Issues), len(c.issues), issueList(st.Issues))
			}
			for i, want := range c.issues {
				if i >= len(st.Issues) {
					break
				}
				got := st.Issues[i]
				if got.Check != traffic.CheckResponsesStream || got.Event != want.event || !strings.Contains(got.Message, want.msg) {
					t.Errorf("issue %d = %s %d %q, want %d %q", i, got.Check, got.Event, got.Message, want.event, want.msg)
				}
			}
			if st.Truncated != c.truncated || st.Complete != c.complete || r.Status != c.status {
				t.Errorf("truncated %t complete %t status %q; want %t %t %q", st.Truncated, st.Complete, r.Status, c.truncated, c.complete, c.status)
			}
			if !cmp.Equal(st.Partial, c.partial) {
				t.Errorf("partial %v, want %v", st.Partial, c.partial)
			}
			// The blocks of exactly the partial items are Incomplete.
			for m, msg := range r.Output {
				for k, blk := range msg.Blocks {
					if want := slices.Contains(c.partial, m); blk.Incomplete != want {
						t.Errorf("output[%d] block %d: Incomplete %t, want %t", m, k, blk.Incomplete, want)
					}
				}
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

func issueList(issues []traffic.StreamIssue) string {
	var b strings.Builder
	for _, is := range issues {
		fmt.Fprintf(&b, "  %d %s\n", is.Event, is.Message)
	}
	return b.String()
}
