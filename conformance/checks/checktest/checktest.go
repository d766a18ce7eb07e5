// Package checktest runs checks over traffic in tests, in the spirit of
// go/analysis/analysistest: the fixtures of a family, the single mutations
// they are made with, and the judgements its tests compare.
package checktest

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/traffic"
)

// FindingLines renders findings one to a line, for a failure message.
func FindingLines(fs []check.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.String() + "\n")
	}
	if b.Len() == 0 {
		return "  (none)\n"
	}
	return b.String()
}

// LintNext judges next against history with cs, as the recording proxy does.
func LintNext(history []traffic.Exchange, next traffic.Exchange, cs []*check.Check) []check.Finding {
	l := lint.New(cs)
	for _, ex := range history {
		l.Add(ex)
	}
	return l.Judge(next).Findings
}

// LastJudgedLiveAsWhole fails t unless the last request of exs, judged
// live (only its findings wanted: check.Traffic.Latest), gets the findings,
// diffs included, that whole, the judgement of all of exs, gives it.
func LastJudgedLiveAsWhole(t *testing.T, exs []traffic.Exchange, checks []*check.Check, whole []check.Finding) {
	t.Helper()
	last := len(exs) - 1
	about := func(fs []check.Finding) []string {
		var out []string
		for _, f := range fs {
			if f.Interaction == last {
				out = append(out, f.String()+"\n"+f.Diff)
			}
		}
		return out
	}
	if latest, want := about(check.Judge(&check.Traffic{Exchanges: exs, Latest: true}, checks)), about(whole); !slices.Equal(latest, want) {
		t.Fatalf("the last request judged latest:\n%q\njudged whole:\n%q", latest, want)
	}
}

// AllocatedJudging is how many bytes judging tr's exchanges with checks
// allocates: the cost the scale tests compare, steadier than wall-clock
// time on a loaded machine.
func AllocatedJudging(tr *check.Traffic, checks []*check.Check) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	check.Judge(&check.Traffic{Exchanges: tr.Exchanges}, checks)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
