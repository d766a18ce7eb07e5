package conformance

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
)

// Harness runs the agent under test through one session: Run calls it once
// per scenario, with the providers simulated. It registers the session's
// tools, sends each turn's prompt to the turn's provider and runs the agent
// loop until the final answer, keeping the conversation from turn to turn
// as it would for a user. Fail t for a problem of the harness itself; the
// rules of the wire are Run's to judge.
type Harness func(t *testing.T, s *Session)

// Run plays every bundled scenario with the harness against simulated
// providers and judges what it sent: each scenario is a subtest named by
// the scenario, and each check that applies to its traffic a subtest of
// that named by the check's ID, so
//
//	go test -run 'TestHarness/anthropic/.*/ANT-THINK'
//
// selects a family: the harness runs in the scenario's own test, so the
// selection still plays it, and a harness that fails itself (t.Fatal on the
// simulator's error answer) still gets the checks' account.
// Error and warning findings fail their subtest (a
// harness should leave nothing the provider rejects or silently degrades);
// infos are logged. A scenario the harness does not finish, or in which it
// sent nothing, fails.
//
// Options: Capabilities declares what the harness supports (scenarios
// needing more are skipped with the reason); Gap declares a known gap,
// which still runs, logs its findings, and fails as stale when the check
// finds nothing in any scenario; Only, Skip and Scenarios narrow the run.
// An unknown check ID or capability fails the test, and so does a run in
// which no scenario ran.
func Run(t *testing.T, h Harness, opts ...Option) {
	t.Helper()
	cfg, err := newConfig(entryRun, opts)
	if err != nil {
		t.Fatal(err)
	}
	selected, err := checks.Select(cfg.only, cfg.skip)
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenario.All()
	if cfg.scenarioFS != nil {
		all, err = scenario.FromFS(cfg.scenarioFS)
	}
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []*scenario.Scenario
	for _, sc := range all {
		if len(cfg.scenarios) == 0 || checks.MatchAny(cfg.scenarios, sc.Name) {
			scenarios = append(scenarios, sc)
		}
	}
	if len(scenarios) == 0 {
		t.Fatalf("conformance.Scenarios(%q) matches none of %s", cfg.scenarios, strings.Join(scenario.Names(), ", "))
	}
	found := map[string]int{} // gap check ID → findings, over every scenario
	ran := 0
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			// Every helper up to the user's test, so a failure names the
			// line that called Run.
			t.Helper()
			playScenario(t, h, sc, cfg, selected, found, &ran)
		})
	}
	ran += explorePlay(t, h, cfg, selected, found)
	if ran == 0 {
		t.Errorf("no scenario ran: every one needs a capability the harness does not declare, so nothing was exercised")
	}
	for id, reason := range cfg.gaps {
		if found[id] == 0 && ran > 0 {
			t.Errorf("stale gap: %s found nothing in any scenario; remove conformance.Gap(%q, %q)", id, id, reason)
		}
	}
}

// playScenario plays sc with the harness and judges it, in t, counting
// it in ran once it starts (the harness declares what it needs); it
// returns the simulator that judged it.
func playScenario(t *testing.T, h Harness, sc *scenario.Scenario, cfg *config, selected []*check.Check, found map[string]int, ran *int) *simulator.Simulator {
	t.Helper()
	if missing := cfg.missing(sc.Requires()); len(missing) > 0 {
		t.Skipf("the harness does not declare %s (conformance.Capabilities)", strings.Join(missing, ", "))
	}
	*ran++
	sim := simulator.NewSimulator(withModels(sc, cfg.models))
	sim.Tolerate = cfg.tolerated()
	played := false
	err := sim.Play(func(s *Session) error {
		played = true
		runHarness(t, h, s)
		return nil
	})
	if played {
		judgeRun(t, sim, selected, cfg, found)
	}
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

// runHarness runs h on a goroutine of its own and waits for it, so a
// t.Fatal in the harness ends the harness and not the scenario's test: the
// checks still judge what it sent, from the test's own goroutine, and their
// failures name the line of the user's test (a judge deferred past a
// t.Fatal would be reported at runtime.Goexit's line). A panic in the harness
// fails the scenario with its stack.
func runHarness(t *testing.T, h Harness, s *Session) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("the harness panicked: %v\n%s", r, debug.Stack())
			}
		}()
		h(t, s)
	}()
	<-done
}

// judgeRun reports one scenario: what the simulator refused outside any
// check, an unfinished run, then each applicable check as a subtest.
func judgeRun(t *testing.T, sim *simulator.Simulator, selected []*check.Check, cfg *config, found map[string]int) {
	t.Helper()
	sc := sim.Scenario()
	for _, side := range sim.SideRequests() {
		t.Log(side)
	}
	if steps := sim.UnstreamedAborts(); len(steps) > 0 && !t.Failed() {
		t.Skipf("the harness did not stream step %v, which %s stops mid-stream: with no abort, it would pass without proving anything (declare the capabilities it has, without stream, to skip it up front)", steps, sc.Name)
	}
	if sim.Requests() == 0 {
		t.Errorf("the harness sent no request: %s exercised nothing", sc.Name)
		return
	}
	for _, rj := range sim.Rejections() {
		if rj.Check == "" {
			t.Errorf("the simulator refused a request: %v", rj)
		}
	}
	for _, n := range sim.Notes() {
		t.Error(n)
	}
	if !sim.Done() {
		t.Errorf("the harness stopped after %d of %d steps of %s", sim.Served(), len(sc.Steps), sc.Name)
	}
	tr := sim.Traffic()
	byCheck := map[string][]check.Finding{}
	for _, f := range sim.Judge(selected) {
		byCheck[f.Check] = append(byCheck[f.Check], f)
	}
	for _, c := range check.Applicable(tr, selected) {
		if _, ok := cfg.gaps[c.ID]; ok {
			found[c.ID] += len(byCheck[c.ID])
		}
		t.Run(c.ID, func(t *testing.T) {
			t.Helper()
			reportRun(t, byCheck[c.ID], cfg.gaps)
		})
	}
}

// reportRun turns one check's findings in one scenario into test results.
func reportRun(t *testing.T, findings []Finding, gaps map[string]string) {
	t.Helper()
	for i, f := range findings {
		msg := f.String()
		if f.Diff != "" {
			msg += "\n" + f.Diff
		}
		if c := checks.Lookup(f.Check); i == 0 && c != nil && c.Troubleshoot != "" {
			msg += "\nhow to fix (" + c.ID + "): " + c.Troubleshoot
		}
		reason, isGap := gaps[f.Check]
		switch {
		case isGap:
			t.Logf("known gap (%s): %s", reason, msg)
		case f.Severity == SeverityError || f.Severity == SeverityWarning:
			t.Error(msg)
		default:
			t.Log(msg)
		}
	}
}
