package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// runCaseEnv names the case TestHelperRun plays when the test binary runs
// itself: conformance.Run fails and skips tests, which a test can only
// watch from outside, in a child process.
const runCaseEnv = "LLMTCK_RUN_CASE"

// runCases are conformance.Run calls whose outcome TestRunBehaviour checks.
var runCases = map[string]func(t *testing.T){
	"capabilities": func(t *testing.T) {
		conformance.Run(t, helperHarness(false, false), conformance.Capabilities("anthropic"), conformance.Scenarios(skipGlobs()...))
	},
	"unknown-capability": func(t *testing.T) {
		conformance.Run(t, helperHarness(false, false), conformance.Capabilities("anthropic", "telepathy"))
	},
	"unknown-gap": func(t *testing.T) {
		conformance.Run(t, helperHarness(false, false), conformance.Gap("ANT-NOPE-999", "not a check"))
	},
	"sends-nothing": func(t *testing.T) {
		conformance.Run(t, func(*testing.T, *conformance.Session) {}, conformance.Scenarios("anthropic/parallel-tools"))
	},
	"nothing-runs": func(t *testing.T) {
		conformance.Run(t, helperHarness(false, false), conformance.Capabilities("gemini"), conformance.Scenarios("anthropic/*"))
	},
	"stale-gap": func(t *testing.T) {
		conformance.Run(t, helperHarness(false, false), conformance.Scenarios("anthropic/parallel-tools"),
			conformance.Gap("ANT-TOOL-001", "we resend after a 400"))
	},
	"broken": func(t *testing.T) {
		conformance.Run(t, helperHarness(true, true), conformance.Scenarios("anthropic/parallel-tools"))
	},
	"gap-reaches-simulator": func(t *testing.T) {
		conformance.Run(t, helperHarness(true, false), conformance.Scenarios("anthropic/parallel-tools"),
			conformance.Gap("ANT-TOOL-001", "results are merged later"))
	},
	"skip-reaches-simulator": func(t *testing.T) {
		conformance.Run(t, helperHarness(true, false), conformance.Scenarios("anthropic/parallel-tools"),
			conformance.Skip("ANT-TOOL-*"))
	},
	"scenario-fs": func(t *testing.T) {
		data, err := os.ReadFile("../fixtures/scenarios/anthropic/parallel-tools.json")
		if err != nil {
			t.Fatal(err)
		}
		conformance.Run(t, helperHarness(false, false), conformance.ScenarioFS(fstest.MapFS{"anthropic/ours.json": {Data: data}}))
	},
	"scenario-fs-malformed": func(t *testing.T) {
		bad := "{\n  \"description\": \"x\",\n  \"tools\": [\n    {\"nam\": \"get_weather\"}\n  ]\n}\n"
		conformance.Run(t, helperHarness(false, false), conformance.ScenarioFS(fstest.MapFS{"anthropic/bad.json": {Data: []byte(bad)}}))
	},
	"no-stream-abort": func(t *testing.T) {
		conformance.Run(t, func(t *testing.T, s *conformance.Session) {
			if err := reference.Play(context.Background(), s, reference.Options{Stream: false}); err != nil {
				t.Fatal(err)
			}
		}, conformance.Scenarios("anthropic/aborted-stream"))
	},
	"side-requests": func(t *testing.T) {
		conformance.Run(t, func(t *testing.T, s *conformance.Session) {
			base := s.BaseURL(traffic.WireAnthropic)
			title := `{"model":"claude-haiku-4-5","max_tokens":20,"system":"Write a five-word title for the conversation.","messages":[{"role":"user","content":"Planning a trip"}]}`
			for _, call := range []struct{ path, body string }{{"/v1/messages", title}, {"/v1/messages/count_tokens", title}} {
				req, _ := http.NewRequest("POST", base+call.path, strings.NewReader(call.body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Anthropic-Version", "2023-06-01")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Fatalf("side request %s: %d", call.path, resp.StatusCode)
				}
			}
			if err := reference.Play(context.Background(), s, reference.Options{Stream: true}); err != nil {
				t.Fatal(err)
			}
		}, conformance.Scenarios("anthropic/parallel-tools", "anthropic/schema-retry"))
	},
	"model-fable": func(t *testing.T) {
		conformance.Run(t, timestampedSystem, conformance.Scenarios("anthropic/thinking-tool-loop"), conformance.Model("anthropic", "claude-fable-5-1"))
	},
	"model-default": func(t *testing.T) {
		conformance.Run(t, timestampedSystem, conformance.Scenarios("anthropic/thinking-tool-loop"))
	},
	"fatal-harness": func(t *testing.T) {
		broken := helperHarness(true, false)
		conformance.Run(t, func(t *testing.T, s *conformance.Session) {
			broken(t, s)
			t.Fatal("the harness gives up")
		}, conformance.Scenarios("anthropic/parallel-tools"))
	},
	"broken-with-gap": func(t *testing.T) {
		conformance.Run(t, helperHarness(true, true), conformance.Scenarios("anthropic/parallel-tools"),
			conformance.Gap("ANT-TOOL-001", "we resend after a 400"))
	},
}

// TestHelperRun is the child process's test: it plays the case named by
// LLMTCK_RUN_CASE and is skipped otherwise.
func TestHelperRun(t *testing.T) {
	name := os.Getenv(runCaseEnv)
	if name == "" {
		t.Skip("run by TestRunBehaviour in a child process")
	}
	runCases[name](t)
}

// runChild runs TestHelperRun with case name and returns its verbose output
// and whether it passed. run is the -run pattern, "" for the whole test.
func runChild(t *testing.T, name string, run ...string) (string, bool) {
	t.Helper()
	pattern := "^TestHelperRun$"
	if len(run) > 0 {
		pattern = run[0]
	}
	cmd := exec.Command(os.Args[0], "-test.run="+pattern, "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), runCaseEnv+"="+name)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running the test binary: %v", err)
	}
	return string(out), err == nil
}

func TestRunBehaviour(t *testing.T) {
	if os.Getenv(runCaseEnv) != "" {
		t.Skip("in the child process")
	}
	cases := []struct {
		name   string
		run    []string // the -run pattern, when not the whole test
		pass   bool
		want   []string // lines or fragments the output must hold
		refuse []string // and must not
	}{
		{name: "capabilities", pass: true, want: capabilityLines(t)},
		{name: "unknown-capability", want: []string{`conformance.Capabilities("anthropic", "telepathy"): "telepathy" is not a provider (anthropic, openai, responses, gemini, bedrock) or a feature (cancel, stream, ephemeral, compaction, retry)`},
			refuse: []string{"=== RUN   TestHelperRun/anthropic/"}},
		{name: "unknown-gap", want: []string{`conformance.Gap("ANT-NOPE-999", "not a check"): no such check`},
			refuse: []string{"=== RUN   TestHelperRun/anthropic/"}},
		{name: "sends-nothing", want: []string{
			"the harness sent no request: anthropic/parallel-tools exercised nothing",
			"--- FAIL: TestHelperRun/anthropic/parallel-tools ",
		}},
		{name: "nothing-runs", want: []string{
			"--- SKIP: TestHelperRun/anthropic/parallel-tools ",
			"the harness does not declare anthropic (conformance.Capabilities)",
			"no scenario ran: every one needs a capability the harness does not declare, so nothing was exercised",
		}},
		{name: "stale-gap", want: []string{
			`stale gap: ANT-TOOL-001 found nothing in any scenario; remove conformance.Gap("ANT-TOOL-001", "we resend after a 400")`,
			"--- PASS: TestHelperRun/anthropic/parallel-tools/ANT-TOOL-001 ",
		}},
		{name: "broken", want: []string{
			"--- FAIL: TestHelperRun/anthropic/parallel-tools/ANT-TOOL-001 ",
			"error ANT-TOOL-001 request.messages[1].content[2].id: ",
			"--- PASS: TestHelperRun/anthropic/parallel-tools/ANT-THINK-001 ",
			"--- PASS: TestHelperRun/anthropic/parallel-tools/HIST-002 ",
		}},
		// A harness that does not retry gets no 400 for a declared gap or a
		// skipped check: the simulator logs the finding and answers.
		{name: "gap-reaches-simulator", pass: true, want: []string{
			"known gap (results are merged later): [1] error ANT-TOOL-001 ",
			"--- PASS: TestHelperRun/anthropic/parallel-tools ",
		}, refuse: []string{"the provider answered"}},
		{name: "skip-reaches-simulator", pass: true, refuse: []string{"the provider answered", "TestHelperRun/anthropic/parallel-tools/ANT-TOOL-001"}},
		{name: "scenario-fs", pass: true, want: []string{"--- PASS: TestHelperRun/anthropic/ours ", "--- PASS: TestHelperRun/anthropic/ours/ANT-TOOL-001 "},
			refuse: []string{"TestHelperRun/anthropic/parallel-tools"}},
		{name: "scenario-fs-malformed", want: []string{"anthropic/bad.json: line 4"}},
		// A harness that does not stream cannot be stopped mid-stream: the
		// scenario is skipped, saying why, instead of passing.
		{name: "no-stream-abort", pass: true, want: []string{"--- SKIP: TestHelperRun/anthropic/aborted-stream ", "the harness did not stream step [1]"}},
		// A title request and count_tokens before the conversation consume
		// no step: the scenario still plays whole, and the log says so.
		{name: "side-requests", pass: true, want: []string{
			"--- PASS: TestHelperRun/anthropic/parallel-tools ", "--- PASS: TestHelperRun/anthropic/schema-retry ",
			"request 1: a side request (none of its user messages holds a prompt of the scenario), answered with a plain reply; no step consumed",
			"request 2: count_tokens, answered with an estimate; no step consumed",
		}},
		// A system prompt that changes per request under signed thinking:
		// refused by a model with preserved thinking, accepted by the
		// scenarios' claude-sonnet-4-5 (the catalogue still warns).
		{name: "model-fable", want: []string{"bound to a different conversation", "the harness stopped after"}},
		{name: "model-default", want: []string{"--- FAIL: TestHelperRun/anthropic/thinking-tool-loop/ANT-THINK-009 "},
			refuse: []string{"bound to a different conversation", "the harness stopped after"}},
		// A harness that fails itself still gets the checks' account.
		{name: "fatal-harness", want: []string{
			"the harness gives up",
			"--- FAIL: TestHelperRun/anthropic/parallel-tools/ANT-TOOL-001 ",
			"how to fix (ANT-TOOL-001): ",
		}},
		// Selecting checks as the README shows still plays the harness.
		{name: "broken", run: []string{"TestHelperRun/anthropic/parallel-tools/ANT-TOOL"}, want: []string{
			"--- FAIL: TestHelperRun/anthropic/parallel-tools/ANT-TOOL-001 ",
			"error ANT-TOOL-001 request.messages[1].content[2].id: ",
		}, refuse: []string{"exercised nothing", "TestHelperRun/anthropic/parallel-tools/HIST-002"}},
		{name: "broken-with-gap", pass: true, want: []string{
			"known gap (we resend after a 400): [1] error ANT-TOOL-001 request.messages[1].content[2].id: ",
			"--- PASS: TestHelperRun/anthropic/parallel-tools/ANT-TOOL-001 ",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, passed := runChild(t, c.name, c.run...)
			if passed != c.pass {
				t.Errorf("passed = %v, want %v", passed, c.pass)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			for _, r := range c.refuse {
				if strings.Contains(out, r) {
					t.Errorf("output holds %q", r)
				}
			}
			if t.Failed() {
				t.Logf("output:\n%s", out)
			}
		})
	}
	// In the broken run only ANT-TOOL-001 fails among the checks.
	out, _ := runChild(t, "broken")
	failed := regexp.MustCompile(`--- FAIL: TestHelperRun/anthropic/parallel-tools/([A-Z]+-[A-Z-]*[0-9]+) `).FindAllStringSubmatch(out, -1)
	if len(failed) != 1 {
		t.Errorf("failing check subtests %v, want ANT-TOOL-001 alone", failed)
	}
}

// A finding is reported at the line of the user's test that called Run,
// also when the harness gave up with t.Fatal (a judge deferred past the
// harness's t.Fatal was reported at runtime.Goexit's line, panic.go).
func TestRunReportsTheCallersLine(t *testing.T) {
	if os.Getenv(runCaseEnv) != "" {
		t.Skip("in the child process")
	}
	finding := regexp.MustCompile(`(?m)^\s+(\S+\.go):(\d+): \[\d+\] (error|warning) `)
	for _, name := range []string{"broken", "fatal-harness"} {
		out, _ := runChild(t, name)
		lines := finding.FindAllStringSubmatch(out, -1)
		if len(lines) == 0 {
			t.Fatalf("%s: no finding printed:\n%s", name, out)
		}
		for _, l := range lines {
			if l[1] != "run_test.go" {
				t.Errorf("%s: a finding is reported at %s:%s, not at the line of run_test.go that called conformance.Run", name, l[1], l[2])
			}
		}
	}
}

// skipGlobs are the scenarios the capabilities case plays: the Anthropic
// ones, and one of another provider when any is bundled.
func skipGlobs() []string {
	globs := []string{"anthropic/*"}
	for _, n := range scenario.Names() {
		if !strings.HasPrefix(n, "anthropic/") {
			return append(globs, n)
		}
	}
	return globs
}

// capabilityLines is what the capabilities case must print: a pass for
// each scenario that needs only Anthropic, with its check subtests, and a
// skip naming what is missing for every other.
func capabilityLines(t *testing.T) []string {
	t.Helper()
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	skipped := 0
	for _, sc := range all {
		if !matchesAny(skipGlobs(), sc.Name) {
			continue
		}
		var missing []string
		for _, r := range sc.Requires() {
			if r != "anthropic" {
				missing = append(missing, r)
			}
		}
		if len(missing) == 0 {
			lines = append(lines, "--- PASS: TestHelperRun/"+sc.Name+" ", "--- PASS: TestHelperRun/"+sc.Name+"/ANT-THINK-001 ")
			continue
		}
		skipped++
		lines = append(lines, "--- SKIP: TestHelperRun/"+sc.Name+" ",
			"the harness does not declare "+strings.Join(missing, ", ")+" (conformance.Capabilities)")
	}
	if skipped == 0 {
		t.Fatal("every bundled scenario needs only Anthropic: nothing to skip")
	}
	return lines
}

func matchesAny(globs []string, name string) bool {
	for _, g := range globs {
		if g == name || strings.HasSuffix(g, "/*") && strings.HasPrefix(name, strings.TrimSuffix(g, "*")) {
			return true
		}
	}
	return false
}

// helperHarness is a small agent on the reference loop (reference/harness),
// streaming: it keeps the conversation from turn to turn and registers the
// session's tools. With drop it is broken: the first request that answers
// two tool calls leaves out the second result. With retry it sends a
// request the provider refused once more, from its transcript, as some
// agents do.
func helperHarness(drop, retry bool) conformance.Harness {
	return func(t *testing.T, s *conformance.Session) {
		var history []traffic.Message
		if s.System != "" {
			history = append(history, traffic.Message{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: s.System}}})
		}
		tools := reference.Tools(s.Tools)
		client := http.DefaultClient
		if drop {
			client = reference.Tamper(nil, traffic.WireAnthropic, dropSecondResult())
		}
		for _, turn := range s.Turns {
			h, err := harness.New(harness.Config{BaseURL: s.BaseURL(turn.Provider), Wire: turn.Provider, Model: turn.Model,
				MaxTokens: s.MaxTokens, Stream: true, Thinking: s.Thinking, HTTPClient: client})
			if err != nil {
				t.Fatal(err)
			}
			msgs := append(history, traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: turn.Prompt}}})
			for attempt := 0; ; attempt++ {
				ctx, cancel := context.WithCancel(context.Background())
				s.OnCancel(cancel)
				run, err := h.Start(ctx, harness.Params{Messages: msgs, Tools: tools})
				if err != nil {
					cancel()
					t.Fatal(err)
				}
				for ev := range run.Events() {
					switch ev := ev.(type) {
					case engine.RelayEvent:
						ev.Respond(engine.PermissionResponse{Approved: true})
					case engine.ErrorEvent:
						t.Logf("the provider answered: %v", ev.Err)
					}
				}
				cancel()
				msgs = run.Transcript().Messages()
				if run.EndReason() != engine.EndError || !retry || attempt > 0 {
					break
				}
			}
			history = msgs
		}
	}
}

// dropSecondResult breaks the first request whose last message answers two
// tool calls: the second tool_result is left out.
func dropSecondResult() func(int, *traffic.Request) {
	var once sync.Once
	return func(_ int, req *traffic.Request) {
		last := &req.Messages[len(req.Messages)-1]
		if len(last.Blocks) < 2 || last.Blocks[1].Type != traffic.BlockToolResult {
			return
		}
		once.Do(func() { last.Blocks = last.Blocks[:1] })
	}
}

// timestampedSystem is the reference engine with a system prompt that
// says the time of each request, as harnesses do.
func timestampedSystem(t *testing.T, s *conformance.Session) {
	client := reference.Tamper(nil, traffic.WireAnthropic, func(call int, req *traffic.Request) {
		if len(req.System) > 0 {
			req.System[0].Text += fmt.Sprintf(" Request %d.", call)
		}
	})
	if err := reference.Play(context.Background(), s, reference.Options{Stream: true, HTTPClient: client}); err != nil {
		t.Log(err)
	}
}
