package history_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// TestThreadsCorpus pins how the real recordings thread: the files that
// interleave conversations split, retries and repairs stay in one thread,
// and every decoded request lands in exactly one thread.
func TestThreadsCorpus(t *testing.T) {
	want := map[string][][]int{
		// The root agent (0, 2, 3) hands over to a sub-agent with its own
		// system prompt (1) and takes the conversation back.
		"docker__cagent/e2e__testdata__cassettes__TestRuntime_MultiAgent_SessionReload.yaml": {{0, 2, 3}, {1}},
		// The same conversation continued on another wire is another thread.
		"pydantic__pydantic-ai/tests__models__cassettes__test_google__test_thinking_with_tool_calls_from_other_model.yaml": {{0, 1}, {2}},
		// Interaction 1 is a serpapi call, not an LLM request.
		"tmc__langchaingo/agents__testdata__TestExecutorWithOpenAIFunctionAgent.httprr": {{0, 2}},
		// The same request recorded three times is one thread of retries.
		"traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__test_chat__test_chat_tool_calls.yaml": {{0, 1, 2}},
		"traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__test_vision__test_vision.yaml":        {{0, 1, 2}},
		// A rejected request (1) and its repaired resend (2) stay together.
		"pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml": {{0, 1, 2}},
		// A 400 followed by the client's retry with its own tool history.
		"pydantic__pydantic-ai/tests__models__cassettes__test_groq__test_tool_use_failed_error.yaml": {{0, 1, 2}},
		// A 429 and the identical retry.
		"tmc__langchaingo/llms__openai__testdata__TestOpenRouterStreaming.httprr": {{0, 1}},
		// Three requests, the third a repeat of the second.
		"pydantic__pydantic-ai/tests__cassettes__test_cache_prefix_stability__test_anthropic_thinking_roundtrip_wire_stable[vercel].yaml": {{0, 1, 2}},
		"pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_model_retry.yaml":                                       {{0, 1, 2}},
	}
	seen := map[string]bool{}
	for _, path := range corpus.Files(t) {
		name := corpus.Name(t, path)
		t.Run(name, func(t *testing.T) {
			tr, err := report.LoadTraffic(path, "")
			if err != nil {
				t.Fatal(err)
			}
			threads := thread.Threads(tr)
			var got [][]int
			in := map[int]int{}
			for _, th := range threads {
				got = append(got, th.Exchanges)
				for _, i := range th.Exchanges {
					in[i]++
					if ex := tr.Exchanges[i]; ex.Wire != th.Wire {
						t.Errorf("exchange %d (%s) in a %s thread", i, ex.Wire, th.Wire)
					}
				}
			}
			for i, ex := range tr.Exchanges {
				threaded := ex.Request != nil && ex.Wire != traffic.WireUnknown
				if threaded && in[i] != 1 || !threaded && in[i] != 0 {
					t.Errorf("exchange %d is in %d threads", i, in[i])
				}
			}
			if w, ok := want[name]; ok {
				seen[name] = true
				if d := cmp.Diff(w, got); d != "" {
					t.Errorf("threads (-want +got):\n%s", d)
				}
			} else if len(threads) > 1 {
				t.Errorf("%d threads %v, want one (or add the file to the table)", len(threads), got)
			}
		})
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("%s is not in the corpus", name)
		}
	}
}

// TestThreadsBuilt threads a hand-made cassette that interleaves a main
// conversation (with a retry, ephemeral content and a compaction), a
// sub-agent, and title generation, plus a Responses chain.
func TestThreadsBuilt(t *testing.T) {
	const main, sub, title = "You are a coding agent.", "You are a search sub-agent.", "Write a five-word title."
	u1 := user("Fix the failing test in parser_test.go")
	a1 := asst(think("Look at the test first.", "sig-a1"), toolUse("toolu_01", "read"))
	r1 := userBlocks(toolResult("toolu_01", "func TestParse…"))
	a2 := asst(text("The expected value is stale."))
	u2 := user("Update it and run the tests")
	a3 := asst(text("Done; all tests pass."))
	u3 := user("Thanks. Now add a changelog entry.")
	tr := trafficOf(t,
		antCall(main, u1), // 0 main
		antCall(title, user("Conversation: Fix the failing test")),                                                        // 1 title
		call{wire: traffic.WireAnthropic, req: antBody(main, u1, a1, r1), status: 529},                                    // 2 main, overloaded
		antCall(sub, user("Find where parse() is defined")),                                                               // 3 sub-agent
		antCall(main, u1, a1, r1),                                                                                         // 4 main, retry of 2
		antCall(sub, user("Find where parse() is defined"), asst(text("parser.go:12")), user("And its tests?")),           // 5 sub-agent
		antCall(main, u1, a1, r1, a2, u2, user("<reminder>2 files changed</reminder>")),                                   // 6 main + ephemeral
		antCall(main, u1, a1, r1, a2, u2, a3, u3),                                                                         // 7 main, reminder gone
		antCall(main, user("Summary: the stale parser test was fixed."), a3, u3, asst(text("Added.")), user("Commit it")), // 8 compaction
		antCall(title, user("Conversation: Fix the failing test; changelog")),                                             // 9 title again
	)
	tr.Exchanges = append(tr.Exchanges, trafficOf(t,
		call{wire: traffic.WireResponses, req: `{"model":"gpt-5","input":[{"role":"user","content":"Hi"}]}`,
			resp: `{"id":"resp_A1","object":"response","status":"completed","output":[]}`},
		call{wire: traffic.WireResponses, req: `{"model":"gpt-5","previous_response_id":"resp_A1","input":[{"role":"user","content":"And then?"}]}`},
	).Exchanges...)
	tr.Exchanges[10].Index, tr.Exchanges[11].Index = 10, 11

	var got [][]int
	for _, th := range thread.Threads(tr) {
		got = append(got, th.Exchanges)
	}
	want := [][]int{{0, 2, 4, 6, 7, 8}, {1}, {3, 5}, {9}, {10, 11}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("threads (-want +got):\n%s", d)
	}
	var fs []string
	for _, f := range check.Judge(tr, underTest(t)) {
		fs = append(fs, fmt.Sprintf("%s@%d", f.Check, f.Interaction))
	}
	if d := cmp.Diff([]string{"HIST-004@8"}, fs); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
}

// TestThreadsRejectUnrelated: conversations that share only an opening,
// or a system prompt, are not threaded together.
func TestThreadsRejectUnrelated(t *testing.T) {
	const sys = "You are terse."
	tr := trafficOf(t,
		antCall(sys, user("What is 2+2?"), asst(think("Add.", "sig-1"), text("4")), user("And 3+3?")),
		antCall(sys, user("What is 2+2?")), // a fresh run, not a rewind of 0
		antCall(sys, user("Name a colour.")),
		antCall(sys, user("What is 2+2?"), asst(text("Four.")), user("Why?")), // a fork of 1
	)
	var got [][]int
	for _, th := range thread.Threads(tr) {
		got = append(got, th.Exchanges)
	}
	want := [][]int{{0}, {1, 3}, {2}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("threads (-want +got):\n%s", d)
	}
}

// underTest returns the checks this family owns.
func underTest(t *testing.T) []*check.Check {
	t.Helper()
	cs, err := checks.Select([]string{"HIST-*", "*-EPH-*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// call is one hand-made exchange: a request body and, optionally, a
// response body and status (200 when zero).
type call struct {
	wire   traffic.Wire
	req    string
	resp   string
	status int
}

var endpoint = map[traffic.Wire]string{
	traffic.WireAnthropic: "https://api.anthropic.com/v1/messages",
	traffic.WireOpenAI:    "https://api.openai.com/v1/chat/completions",
	traffic.WireResponses: "https://api.openai.com/v1/responses",
	traffic.WireGemini:    "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent",
}

// trafficOf decodes hand-made exchanges as the real codecs do.
func trafficOf(t *testing.T, calls ...call) *check.Traffic {
	t.Helper()
	tr := &check.Traffic{Path: t.Name()}
	for i, c := range calls {
		status := c.status
		if status == 0 {
			status = 200
		}
		ex := providers.Decode(i, providers.Call{Method: "POST", URL: endpoint[c.wire], Wire: c.wire,
			RequestBody: []byte(c.req), Status: status, ResponseBody: []byte(c.resp)})
		if ex.RequestErr != "" {
			t.Fatalf("call %d: %s", i, ex.RequestErr)
		}
		tr.Exchanges = append(tr.Exchanges, ex)
	}
	return tr
}

// Anthropic bodies in a few words.

func antCall(system string, msgs ...string) call {
	return call{wire: traffic.WireAnthropic, req: antBody(system, msgs...)}
}

func antBody(system string, msgs ...string) string {
	return fmt.Sprintf(`{"model":"claude-sonnet-4-5","max_tokens":2048,"system":%q,"messages":[%s]}`, system, strings.Join(msgs, ","))
}

func user(s string) string { return userBlocks(text(s)) }

func userBlocks(blocks ...string) string {
	return `{"role":"user","content":[` + strings.Join(blocks, ",") + `]}`
}

func asst(blocks ...string) string {
	return `{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`
}

func text(s string) string { return fmt.Sprintf(`{"type":"text","text":%q}`, s) }

func think(s, sig string) string {
	return fmt.Sprintf(`{"type":"thinking","thinking":%q,"signature":%q}`, s, sig)
}

func toolUse(id, name string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":{"path":"parser_test.go"}}`, id, name)
}

func toolResult(id, s string) string {
	return fmt.Sprintf(`{"type":"tool_result","tool_use_id":%q,"content":%q}`, id, s)
}

// FuzzThreads feeds threading and the history checks three request bodies
// of one wire, seeded with consecutive requests of every corpus recording:
// whatever the bodies, every decoded request lands in one thread, every
// finding names an interaction of the traffic, and the findings are the
// same when the bodies are decoded through a memo.
func FuzzThreads(f *testing.F) {
	wires := []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini}
	for _, path := range corpus.Files(f) {
		tr, err := report.LoadTraffic(path, "")
		if err != nil {
			f.Fatal(err)
		}
		c, err := cassette.Load(path)
		if err != nil {
			f.Fatal(err)
		}
		var bodies [][]byte
		w := -1
		for i, ex := range tr.Exchanges {
			if ex.Request == nil {
				continue
			}
			if w < 0 {
				w = slices.Index(wires, ex.Wire)
			}
			bodies = append(bodies, c.Interactions[i].Request.Body)
		}
		if w < 0 {
			continue
		}
		for len(bodies) < 3 {
			bodies = append(bodies, bodies[len(bodies)-1])
		}
		if corpus.FuzzSeed(bodies[0], bodies[1], bodies[2]) {
			f.Add(uint8(w), bodies[0], bodies[1], bodies[2])
		}
	}
	f.Fuzz(func(t *testing.T, w uint8, a, b, c []byte) {
		wire := wires[int(w)%len(wires)]
		tr := &check.Traffic{}
		for i, body := range [][]byte{a, b, c} {
			tr.Exchanges = append(tr.Exchanges, providers.Decode(i, providers.Call{
				Method: "POST", URL: endpoint[wire], Wire: wire, RequestBody: body, Status: 200}))
		}
		in := map[int]int{}
		for _, th := range thread.Threads(tr) {
			for _, i := range th.Exchanges {
				in[i]++
			}
		}
		for i, ex := range tr.Exchanges {
			if want := btoi(ex.Request != nil); in[i] != want {
				t.Errorf("exchange %d is in %d threads, want %d", i, in[i], want)
			}
		}
		found := check.Judge(tr, underTest(t))
		for _, fd := range found {
			if fd.Interaction < 0 || fd.Interaction >= len(tr.Exchanges) || !strings.HasPrefix(fd.Location, "request") {
				t.Errorf("finding out of the traffic: %s", fd)
			}
		}
		// Decoded as check decodes a cassette, the requests share the
		// messages they repeat (traffic.Memo) and threading grows their
		// fingerprints in place: the same findings.
		memo := traffic.NewMemo()
		shared := &check.Traffic{}
		for i, body := range [][]byte{a, b, c} {
			shared.Exchanges = append(shared.Exchanges, providers.Decode(i, providers.Call{
				Method: "POST", URL: endpoint[wire], Wire: wire, RequestBody: body, Status: 200, Memo: memo}))
		}
		if d := cmp.Diff(fmt.Sprint(found), fmt.Sprint(check.Judge(shared, underTest(t)))); d != "" {
			t.Errorf("findings of the requests decoded through a memo (-alone +memo):\n%s", d)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
