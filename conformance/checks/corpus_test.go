package checks_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/corpus"
)

// TestCorpusNoFalseAlarms runs the whole catalogue over the real recorded
// traffic: an error-level finding on an interaction the provider accepted
// (2xx) is a false alarm, since the provider is the judge of its own rules.
func TestCorpusNoFalseAlarms(t *testing.T) {
	for _, path := range corpus.Files(t) {
		name := corpus.Name(t, path)
		t.Run(name, func(t *testing.T) {
			tr, err := report.LoadTraffic(path, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range check.Judge(tr, checks.All()) {
				ex := tr.Exchanges[f.Interaction]
				if f.Severity == check.SeverityError && ex.Accepted() {
					t.Errorf("false alarm on accepted interaction (status %d): %s\n%s", ex.Status, f, f.Diff)
				} else {
					t.Logf("%s", f)
				}
			}
		})
	}
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
