package conformance

import (
	"fmt"
	"net"
	"net/http"
	"path"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/engine"
)

// Run plays every bundled scenario with the harness against simulated
// providers and judges what it sent: each scenario is a subtest named by
// the scenario, and each check that applies to its traffic a subtest of
// that named by the check's ID, so
//
//	go test -run 'TestHarness/anthropic/.*/ANT-THINK'
//
// selects a family; the harness itself runs in the subtest "harness".
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
	cfg := newConfig(opts)
	for _, err := range cfg.errs {
		t.Fatal(err)
	}
	checks, err := Select(cfg.only, cfg.skip)
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []*scenario.Scenario
	for _, sc := range all {
		if len(cfg.scenarios) == 0 || matchAny(cfg.scenarios, sc.Name) {
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
			if missing := cfg.missing(sc.Requires()); len(missing) > 0 {
				t.Skipf("the harness does not declare %s (conformance.Capabilities)", strings.Join(missing, ", "))
			}
			ran++
			// The harness runs in its own subtest, so one that fails itself
			// on the simulator's error answer still gets the checks' account.
			sim, err := Play(sc, func(s *Session) error {
				t.Run("harness", func(t *testing.T) { h(t, s) })
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			judgeRun(t, sim, checks, cfg, found)
		})
	}
	if ran == 0 {
		t.Errorf("no scenario ran: every one needs a capability the harness does not declare, so nothing was exercised")
	}
	for id, reason := range cfg.gaps {
		if found[id] == 0 && ran > 0 {
			t.Errorf("stale gap: %s found nothing in any scenario; remove conformance.Gap(%q, %q)", id, id, reason)
		}
	}
}

// judgeRun reports one scenario: what the simulator refused outside any
// check, an unfinished run, then each applicable check as a subtest.
func judgeRun(t *testing.T, sim *Simulator, checks []*Check, cfg *config, found map[string]int) {
	t.Helper()
	sc := sim.Scenario()
	if sim.Requests() == 0 {
		t.Fatalf("the harness sent no request: %s exercised nothing", sc.Name)
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
	byCheck := map[string][]Finding{}
	for _, f := range sim.Judge(checks) {
		byCheck[f.Check] = append(byCheck[f.Check], f)
	}
	for _, c := range Applicable(tr, checks) {
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
	for _, f := range findings {
		msg := f.String()
		if f.Diff != "" {
			msg += "\n" + f.Diff
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

// mergeFindings is a followed by the findings of b not already in it (the
// simulator's own findings repeat the catalogue's on the same request),
// in interaction order.
func mergeFindings(a, b []Finding) []Finding {
	type key struct {
		check, loc string
		at         int
	}
	seen := map[key]bool{}
	out := append([]Finding(nil), a...)
	for _, f := range a {
		seen[key{f.Check, f.Location, f.Interaction}] = true
	}
	for _, f := range b {
		if k := (key{f.Check, f.Location, f.Interaction}); !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Interaction < out[j].Interaction })
	return out
}

// Play serves sc on loopback HTTP, one listener per provider, runs play
// with the session, and returns the simulator that judged the traffic. Its
// error is play's, or a listener that could not start.
func Play(sc *scenario.Scenario, play func(*Session) error) (*Simulator, error) {
	sim := NewSimulator(sc)
	urls := map[engine.Wire]string{}
	for _, w := range sc.Wires() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("conformance: simulating %s: %w", w, err)
		}
		srv := &http.Server{Handler: sim.Handler(w), ReadHeaderTimeout: time.Minute}
		go srv.Serve(ln)
		defer srv.Close()
		urls[w] = "http://" + ln.Addr().String()
	}
	s := NewSession(sc, urls, sim)
	return sim, play(s)
}

// NewSession returns the session a harness is given to play sc against
// providers at urls: the simulator's handlers, or a proxy in front of them.
// sim presses stop through the session's OnCancel hook.
func NewSession(sc *scenario.Scenario, urls map[engine.Wire]string, sim *Simulator) *Session {
	s := newSession(sc, urls)
	if sim != nil {
		sim.OnCancel = s.cancel
	}
	return s
}

// Capabilities declares what the harness supports: provider names
// ("anthropic", "openai", "responses", "gemini") and features ("cancel",
// "stream", "ephemeral", "compaction"). Scenarios needing anything else are
// skipped with the reason. Without this option everything is assumed.
func Capabilities(caps ...string) Option {
	return optionFunc(func(c *config) {
		if c.caps == nil {
			c.caps = map[string]bool{}
		}
		for _, cp := range caps {
			if !knownCapability(cp) {
				c.errs = append(c.errs, fmt.Errorf("conformance.Capabilities(%q): not a provider (anthropic, openai, responses, gemini) or a feature (%s)", cp, strings.Join(scenario.Capabilities, ", ")))
				continue
			}
			c.caps[cp] = true
		}
	})
}

// Scenarios restricts Run to scenarios whose name matches one of the globs
// ("anthropic/*").
func Scenarios(globs ...string) Option {
	return optionFunc(func(c *config) {
		for _, g := range globs {
			if _, err := path.Match(g, ""); err != nil {
				c.errs = append(c.errs, fmt.Errorf("conformance.Scenarios(%q): %v", g, err))
			}
		}
		c.scenarios = append(c.scenarios, globs...)
	})
}

func knownCapability(c string) bool {
	for _, w := range []engine.Wire{engine.WireAnthropic, engine.WireOpenAI, engine.WireResponses, engine.WireGemini} {
		if c == string(w) {
			return true
		}
	}
	for _, f := range scenario.Capabilities {
		if c == f {
			return true
		}
	}
	return false
}

// missing lists what of required the harness did not declare; with no
// declaration nothing is missing.
func (c *config) missing(required []string) []string {
	if c.caps == nil {
		return nil
	}
	var out []string
	for _, r := range required {
		if !c.caps[r] {
			out = append(out, r)
		}
	}
	return out
}
