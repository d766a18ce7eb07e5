package history_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

// TestHistRules walks the history rules one shape at a time. Each case is a
// thread of requests; want lists "CHECK@interaction/severity".
func TestHistRules(t *testing.T) {
	const sys = "You are a coding agent."
	u1, u2, u3 := user("Fix the parser test"), user("Run the tests"), user("Thanks")
	a1 := asst(think("Read the test.", "sig-a1"), toolUse("toolu_01", "read"))
	r1 := userBlocks(toolResult("toolu_01", "func TestParse…"))
	a2 := asst(think("The value is stale.", "sig-a2"), text("Fixed the expected value."))
	reminder := user("<reminder>2 files changed</reminder>")

	cases := []struct {
		name  string
		calls []call
		want  []string
	}{
		{"append-only", []call{
			antCall(sys, u1), antCall(sys, u1, a1, r1), antCall(sys, u1, a1, r1, a2, u2),
		}, nil},
		{"retry of the same request", []call{
			antCall(sys, u1, a1, r1), antCall(sys, u1, a1, r1),
		}, nil},
		{"ephemeral trailing message", []call{
			antCall(sys, u1, a1, r1, reminder), antCall(sys, u1, a1, r1, a2, u2),
		}, nil},
		{"ephemeral text after the tool results", []call{
			antCall(sys, u1, a1, userBlocks(toolResult("toolu_01", "ok"), text("<reminder>tests are slow</reminder>"))),
			antCall(sys, u1, a1, userBlocks(toolResult("toolu_01", "ok")), a2, u2),
		}, nil},
		{"the same reminder at the tail of every request", []call{
			antCall(sys, u1, reminder), antCall(sys, u1, a2, u2, reminder), antCall(sys, u1, a2, u2, a2, u3, reminder),
		}, nil},
		{"last message gains blocks", []call{
			antCall(sys, u1, a1, r1),
			antCall(sys, u1, a1, userBlocks(toolResult("toolu_01", "func TestParse…"), text("Also check the lexer."))),
		}, nil},
		{"cache_control moves every turn", []call{
			antCall(sys, userBlocks(`{"type":"text","text":"Fix the parser test","cache_control":{"type":"ephemeral"}}`)),
			antCall(sys, u1, asst(text("Which one?")), userBlocks(`{"type":"text","text":"parser_test.go","cache_control":{"type":"ephemeral"}}`)),
		}, nil},
		{"other JSON spacing", []call{
			{wire: traffic.WireAnthropic, req: `{"model":"m","max_tokens":9,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_9","name":"ls","input":{"a":1}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"x"}]}]}`},
			{wire: traffic.WireAnthropic, req: `{"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}, {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_9", "name": "ls", "input": {"a": 1}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9", "content": "x"}]}]}`},
		}, nil},
		{"repair after a rejected request", []call{
			antCall(sys, u1, a1, r1),
			{wire: traffic.WireAnthropic, req: antBody(sys, u1, a1, r1, asst(text("bad")), u2), status: 400},
			antCall(sys, u1, a1, r1, a2, u2),
		}, nil},
		{"earlier user message edited", []call{
			antCall(sys, u1, a1, r1, a2, u2), antCall(sys, user("Fix the lexer test"), a1, r1, a2, u2),
		}, []string{"HIST-001@1/warning"}},
		{"message inserted in the middle", []call{
			antCall(sys, u1, a1, r1, a2, u2), antCall(sys, u1, a1, r1, user("(note)"), a2, u2),
		}, []string{"HIST-001@1/warning"}},
		{"prefill dropped at the tail", []call{
			antCall(sys, u1, asst(text("Sure, "))), antCall(sys, u1, asst(text("Sure, here it is.")), u2),
		}, []string{"HIST-001@1/warning"}},
		{"tool result dropped, call kept", []call{
			antCall(sys, u1, a1, r1), antCall(sys, u1, a1, user("never mind")),
		}, []string{"HIST-002@1/error"}},
		{"tool call dropped, result kept", []call{
			antCall(sys, u1, a1, r1, a2, u2), antCall(sys, u1, r1, a2, u2),
		}, []string{"HIST-002@1/error", "HIST-003@1/error"}},
		{"thinking of an earlier turn dropped", []call{
			antCall(sys, u1, a2, u2), antCall(sys, u1, asst(text("Fixed the expected value.")), u2),
		}, []string{"HIST-003@1/error"}},
		{"compaction", []call{
			antCall(sys, u1, a1, r1, a2, u2, asst(text("All green.")), u3),
			antCall(sys, user("Summary: the parser test was fixed and passes."), asst(text("All green.")), u3, asst(text("You're welcome.")), user("Bye")),
		}, []string{"HIST-004@1/info"}},
		{"compaction that keeps an orphan tool result", []call{
			antCall(sys, user("Start"), asst(text("Ready.")), u1, a1, r1),
			antCall(sys, user("Summary: ready."), r1, a2, u2),
		}, []string{"HIST-002@1/error", "HIST-004@1/info"}},
		{"thinking echoed after its ephemeral prefix is gone", []call{
			{wire: traffic.WireAnthropic, req: onFable(antBody(sys, u1, reminder)), resp: antResponse(`{"type":"thinking","thinking":"t","signature":"sig-r0"}`, text("ok"))},
			{wire: traffic.WireAnthropic, req: onFable(antBody(sys, u1, asst(think("t", "sig-r0"), text("ok")), u2))},
		}, []string{"ANT-EPH-001@1/error"}},
		// claude-sonnet-4-5 does not run the prefix check: only a warning.
		{"thinking echoed after its ephemeral prefix is gone, older model", []call{
			{wire: traffic.WireAnthropic, req: antBody(sys, u1, reminder), resp: antResponse(`{"type":"thinking","thinking":"t","signature":"sig-r0"}`, text("ok"))},
			antCall(sys, u1, asst(think("t", "sig-r0"), text("ok")), u2),
		}, []string{"ANT-EPH-001@1/warning"}},
		{"thinking echoed after its ephemeral prefix is gone, drop_block", []call{
			{wire: traffic.WireAnthropic, req: antBody(sys, u1, reminder), resp: antResponse(`{"type":"thinking","thinking":"t","signature":"sig-r0"}`, text("ok"))},
			{wire: traffic.WireAnthropic, req: strings.Replace(antBody(sys, u1, asst(think("t", "sig-r0"), text("ok")), u2), `"system"`,
				`"thinking":{"type":"adaptive","block_binding":{"prefix_mismatch_behavior":"drop_block"}},"system"`, 1)},
		}, []string{"ANT-EPH-001@1/warning"}},
		{"ephemeral content kept in history is fine for thinking", []call{
			{wire: traffic.WireAnthropic, req: antBody(sys, u1, reminder), resp: antResponse(`{"type":"thinking","thinking":"t","signature":"sig-r0"}`, text("ok"))},
			antCall(sys, u1, reminder, asst(think("t", "sig-r0"), text("ok")), u2),
		}, nil},
		{"ephemeral text before the tool results", []call{
			antCall(sys, u1, a1, userBlocks(text("<reminder/>"), toolResult("toolu_01", "ok"))),
			antCall(sys, u1, a1, userBlocks(toolResult("toolu_01", "ok")), a2, u2),
		}, []string{"ANT-EPH-002@0/error", "HIST-001@1/warning"}},
		{"ephemeral message between tool use and result", []call{
			antCall(sys, u1, a1, reminder, r1),
			antCall(sys, u1, a1, r1, a2, u2),
		}, []string{"ANT-EPH-002@0/error", "HIST-001@1/warning"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := trafficOf(t, c.calls...)
			if n := len(thread.Threads(tr)); n != 1 {
				t.Fatalf("%d threads, want 1", n)
			}
			assertFindings(t, tr, c.want)
		})
	}
}

// TestHistRulesOtherWires covers what differs per wire: Responses reasoning
// and its follower, Gemini signatures and their alphabets, Responses state.
func TestHistRulesOtherWires(t *testing.T) {
	rsn := `{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA1"}`
	fcWithID := `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"ls","arguments":"{}"}`
	fcNoID := `{"type":"function_call","call_id":"call_1","name":"ls","arguments":"{}"}`
	out := `{"type":"function_call_output","call_id":"call_1","output":"a.txt"}`
	ru := func(s string) string { return fmt.Sprintf(`{"role":"user","content":%q}`, s) }
	resp := func(store string, items ...string) call {
		return call{wire: traffic.WireResponses, req: `{"model":"gpt-5",` + store + `"input":[` + strings.Join(items, ",") + `]}`}
	}
	const stateless = `"store":false,`

	gfc := func(sig string) string {
		return `{"role":"model","parts":[{"functionCall":{"name":"ls","args":{}},"thoughtSignature":"` + sig + `"}]}`
	}
	gfr := `{"role":"user","parts":[{"functionResponse":{"name":"ls","response":{"output":"a.txt"}}}]}`
	gu := func(s string) string { return `{"role":"user","parts":[{"text":"` + s + `"}]}` }
	gem := func(contents ...string) call {
		return call{wire: traffic.WireGemini, req: `{"contents":[` + strings.Join(contents, ",") + `]}`}
	}

	cases := []struct {
		name  string
		calls []call
		want  []string
	}{
		{"responses: reasoning dropped, follower id kept", []call{
			resp(stateless, ru("ls"), rsn, fcWithID, out), resp(stateless, ru("ls"), fcWithID, out, ru("more")),
		}, []string{"HIST-003@1/error"}},
		{"responses: reasoning dropped with its follower's id", []call{
			resp(stateless, ru("ls"), rsn, fcWithID, out), resp(stateless, ru("ls"), fcNoID, out, ru("more")),
		}, []string{"HIST-003@1/warning"}},
		{"responses: ephemeral item in stateless mode", []call{
			resp(stateless, ru("ls"), rsn, fcWithID, out, ru("<reminder/>")), resp(stateless, ru("ls"), rsn, fcWithID, out, ru("more")),
		}, nil},
		{"responses: ephemeral item with store left at its default", []call{
			resp("", ru("ls"), ru("<reminder/>")), resp("", ru("ls"), ru("more")),
		}, []string{"OAI-EPH-001@0/info"}},
		{"responses: ephemeral item between reasoning and its follower", []call{
			resp(stateless, ru("ls"), rsn, ru("<reminder/>"), fcWithID, out), resp(stateless, ru("ls"), rsn, fcWithID, out, ru("more")),
		}, []string{"OAI-EPH-001@0/error", "HIST-001@1/warning"}},
		{"gemini: signature re-encoded URL-safe", []call{
			gem(gu("ls"), gfc("ab+c/d=="), gfr), gem(gu("ls"), gfc("ab-c_d"), gfr, gu("more")),
		}, nil},
		{"gemini: signature stripped from a function call", []call{
			gem(gu("ls"), gfc("abcd"), gfr), gem(gu("ls"), `{"role":"model","parts":[{"functionCall":{"name":"ls","args":{}}}]}`, gfr, gu("more")),
		}, []string{"HIST-003@1/error"}},
		{"gemini: signature stripped from a text part", []call{
			gem(gu("hi"), `{"role":"model","parts":[{"text":"hello","thoughtSignature":"abcd"}]}`, gu("ls")),
			gem(gu("hi"), `{"role":"model","parts":[{"text":"hello"}]}`, gu("ls"), `{"role":"model","parts":[{"text":"a.txt"}]}`, gu("more")),
		}, []string{"HIST-003@1/warning"}},
		{"gemini: id-less function response dropped", []call{
			gem(gu("ls"), gfc("abcd"), gfr), gem(gu("ls"), gfc("abcd"), gu("more")),
		}, []string{"HIST-002@1/error"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := trafficOf(t, c.calls...)
			if n := len(thread.Threads(tr)); n != 1 {
				t.Fatalf("%d threads, want 1", n)
			}
			assertFindings(t, tr, c.want)
		})
	}
}

// TestHistEditShown: an edit finding carries the two histories as a diff of
// one line per message, naming blocks, ids and payload sizes.
func TestHistEditShown(t *testing.T) {
	tr := trafficOf(t,
		antCall("s", user("Fix it"), asst(think("Plan.", "sig-a2"), text("Fixed.")), user("Thanks")),
		antCall("s", user("Fix it"), asst(text("Fixed.")), user("Thanks")),
	)
	fs := check.Judge(tr, underTest(t))
	if len(fs) != 1 {
		t.Fatalf("findings: %v", fs)
	}
	f := fs[0]
	if f.Location != "request.messages[1]" || !strings.Contains(f.Message, "messages[1].content[0] of interaction 0") {
		t.Errorf("finding: %s", f)
	}
	for _, want := range []string{
		"mismatch (-want +got):",
		"`assistant: signed thinking \"Plan.\" (signature 6B #",
		"`assistant: text \"Fixed.\"`",
	} {
		if !strings.Contains(f.Diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, f.Diff)
		}
	}
}

func assertFindings(t *testing.T, tr *check.Traffic, want []string) {
	t.Helper()
	var got []string
	for _, f := range check.Judge(tr, underTest(t)) {
		got = append(got, fmt.Sprintf("%s@%d/%s", f.Check, f.Interaction, f.Severity))
		t.Logf("%s\n%s", f, f.Diff)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
}

// antResponse is a minimal Messages response holding blocks.
func antResponse(blocks ...string) string {
	return `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[` +
		strings.Join(blocks, ",") + `],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
}

// onFable is an Anthropic request body on a model with preserved thinking.
func onFable(body string) string {
	return strings.Replace(body, `"model":"claude-sonnet-4-5"`, `"model":"claude-fable-5-1"`, 1)
}
