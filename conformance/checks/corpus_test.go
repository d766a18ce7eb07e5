package checks_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/traffic"
	"gotest.tools/v3/golden"
)

// TestCorpusNoFalseAlarms runs the whole catalogue over the real recorded
// traffic of both corpus sets: an error-level finding on an interaction the
// provider accepted (2xx) is a false alarm, since the provider is the judge
// of its own rules. What each file yields is pinned in a golden summary
// (go test ./conformance/checks -run TestCorpusNoFalseAlarms -update).
func TestCorpusNoFalseAlarms(t *testing.T) {
	for _, set := range []string{corpus.Dev, corpus.Wave2} {
		for _, path := range corpus.SetFiles(t, set) {
			name := corpus.Name(t, path)
			t.Run(set+"/"+name, func(t *testing.T) {
				tr, err := report.LoadTraffic(path, "")
				if err != nil {
					t.Fatal(err)
				}
				findings := check.Judge(tr, checks.All())
				for _, f := range findings {
					ex := tr.Exchanges[f.Interaction]
					if f.Severity == check.SeverityError && ex.Accepted() {
						t.Errorf("false alarm on accepted interaction (status %d): %s\n%s", ex.Status, f, f.Diff)
					}
				}
				golden.Assert(t, corpusSummary(tr, findings), filepath.Join("corpus", set, strings.ReplaceAll(name, "/", "__")+".golden"))
			})
		}
	}
}

// corpusSummary is what one recording yields: each call's wire, dialect and
// status, whether it decoded, and its findings by check and severity.
func corpusSummary(tr *check.Traffic, findings []check.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider %s", report.ProviderOf(tr.Exchanges))
	if d := report.DialectOf(tr.Exchanges); d != "" {
		fmt.Fprintf(&b, " (%s)", d)
	}
	fmt.Fprintf(&b, ", %d interactions\n", len(tr.Exchanges))
	for i, ex := range tr.Exchanges {
		decoded := "decoded"
		switch {
		case ex.RequestErr != "" || ex.ResponseErr != "":
			decoded = "NOT DECODED: " + strings.TrimSpace(ex.RequestErr+" "+ex.ResponseErr)
		case ex.Wire == traffic.WireUnknown:
			decoded = "no wire"
		}
		fmt.Fprintf(&b, "#%d %s %s %d %s\n", i, ex.Wire, ex.Dialect, ex.Status, decoded)
		counts := map[string]int{}
		var keys []string
		for _, f := range findings {
			if f.Interaction != i {
				continue
			}
			k := string(f.Severity) + " " + f.Check
			if counts[k] == 0 {
				keys = append(keys, k)
			}
			counts[k]++
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "   %s ×%d\n", k, counts[k])
		}
	}
	return b.String()
}

// TestCorpusRealViolationFlagged: the one real protocol violation in the
// corpus — an edited Responses history the API rejected with 400 "Item
// 'rs_…' of type 'reasoning' was provided without its required following
// item" — is caught by the matching reasoning check at that interaction.
func TestCorpusRealViolationFlagged(t *testing.T) {
	path := corpus.Dir(t) + "/pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml"
	tr, err := report.LoadTraffic(path, "")
	if err != nil {
		t.Fatal(err)
	}
	// The issue counts from 1 ("interaction 2"); reports count from 0.
	if tr.Exchanges[1].Status != 400 {
		t.Fatalf("interaction 1 status = %d, want the recorded 400", tr.Exchanges[1].Status)
	}
	for _, f := range check.Judge(tr, checks.All()) {
		if f.Check == "OAI-RSN-001" && f.Interaction == 1 && f.Severity == check.SeverityError {
			t.Logf("flagged: %s", f)
			return
		}
	}
	t.Errorf("OAI-RSN-001 did not flag interaction 1")
}
