package reference_test

import (
	"context"
	"slices"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
)

// The live linter's shortcut (a request that extends an accepted one
// unchanged is judged against that call and the later ones only) gives
// every request of every scenario, played by the reference engine and by
// each broken variant, the verdict a linter judging against the whole
// history gives: with a linter per scenario, and with one linter seeing all
// the scenarios one after the other (a proxy in front of many sessions).
func TestIncrementalLintOnScenarios(t *testing.T) {
	scenarios, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	compared, shortened := 0, 0
	for _, across := range []bool{false, true} {
		for _, v := range append([]reference.Variant{""}, reference.Variants...) {
			fast, full := lint.New(checks.All()), lint.New(checks.All())
			full.Full = true
			for _, sc := range scenarios {
				sim, _ := simulator.Play(sc, func(s *simulator.Session) error {
					reference.Play(context.Background(), s, reference.Options{Stream: true, Variant: v})
					return nil
				})
				tr := sim.Traffic()
				if !across {
					fast, full = lint.New(checks.All()), lint.New(checks.All())
					full.Full = true
				}
				fast.Ephemeral, full.Ephemeral = tr.Ephemeral, tr.Ephemeral
				for i, ex := range tr.Exchanges {
					verdict := fast.Judge(ex)
					got, want := lines(verdict), lines(full.Judge(ex))
					if !slices.Equal(got, want) {
						t.Errorf("%s, variant %q, request %d (across scenarios: %v):\nincremental %q\nfull        %q", sc.Name, v, i, across, got, want)
					}
					if verdict.Shortened {
						shortened++
					}
					fast.Add(ex)
					full.Add(ex)
					compared++
				}
			}
		}
	}
	if shortened == 0 {
		t.Error("no request was judged against a shortened history")
	}
	t.Logf("%d requests compared, %d judged against a shortened history", compared, shortened)
}

func lines(v lint.Verdict) []string {
	var out []string
	for _, f := range v.Findings {
		out = append(out, f.String())
	}
	return out
}

// TestLatestJudgementOnScenarios: a live judgement (check.Traffic.Latest)
// may leave the requests before the last one unjudged. On every scenario
// played by the reference engine and by each broken variant, each
// request's findings judged so are the ones a judgement of every request
// before it gives it, diffs included.
func TestLatestJudgementOnScenarios(t *testing.T) {
	scenarios, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	var cs []*check.Check // what the linter runs
	for _, c := range checks.All() {
		if !c.Recording {
			cs = append(cs, c)
		}
	}
	compared, found := 0, 0
	for _, v := range append([]reference.Variant{""}, reference.Variants...) {
		for _, sc := range scenarios {
			sim, _ := simulator.Play(sc, func(s *simulator.Session) error {
				reference.Play(context.Background(), s, reference.Options{Stream: true, Variant: v})
				return nil
			})
			tr := sim.Traffic()
			for i := range tr.Exchanges {
				about := func(latest bool) []string {
					var out []string
					judged := &check.Traffic{Exchanges: tr.Exchanges[:i+1], Ephemeral: tr.Ephemeral, Latest: latest}
					for _, f := range check.Judge(judged, cs) {
						if f.Interaction == i {
							out = append(out, f.String()+"\n"+f.Diff)
						}
					}
					return out
				}
				got, want := about(true), about(false)
				if !slices.Equal(got, want) {
					t.Errorf("%s, variant %q, request %d:\njudged latest %q\njudged whole  %q", sc.Name, v, i, got, want)
				}
				compared++
				found += len(want)
			}
		}
	}
	if found == 0 {
		t.Error("no request had a finding: the test proves nothing")
	}
	t.Logf("%d requests compared, %d findings", compared, found)
}
