package conformance

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
)

// CheckCassette lints a recorded cassette (any format `llmtck check` reads)
// in a Go test. Given a *testing.T, each applicable check runs as a subtest
// named by its ID, so
//
//	go test -run 'TestTraffic/ANT-THINK'
//
// selects a family; any other TB gets the same account without subtests.
// Error-level findings fail; warnings and infos are logged, each with the
// check's troubleshooting advice on the first finding. Declared gaps (Gap)
// log instead of failing, and fail when they no longer find anything.
func CheckCassette(t TB, path string, opts ...Option) {
	t.Helper()
	cfg, err := newConfig(entryCheckCassette, opts)
	if err != nil {
		t.Fatalf("%v", err)
		return
	}
	selected, err := checks.Select(cfg.only, cfg.skip)
	if err != nil {
		t.Fatalf("%v", err)
		return
	}
	tr, err := report.LoadTraffic(path, cfg.wire)
	if err != nil {
		t.Fatalf("%v", err)
		return
	}
	applicable := check.Applicable(tr, selected)
	if len(applicable) == 0 {
		t.Fatalf("%s: no check applies (wires seen: %s)", path, report.ProviderOf(tr.Exchanges))
		return
	}
	for id := range cfg.gaps {
		if !contains(applicable, id) {
			t.Errorf("conformance.Gap(%q): the check does not apply to %s, so the gap can never close", id, path)
		}
	}
	for _, c := range applicable {
		findings := check.Judge(tr, []*check.Check{c})
		if tt, ok := t.(*testing.T); ok {
			tt.Run(c.ID, func(t *testing.T) {
				t.Helper()
				reportFindings(t, path, c, findings, cfg.gaps)
			})
			continue
		}
		reportFindings(t, path, c, findings, cfg.gaps)
	}
}

// reportFindings turns one check's findings on the cassette at path into
// test results.
func reportFindings(t TB, path string, c *check.Check, findings []check.Finding, gaps map[string]string) {
	t.Helper()
	reason, isGap := gaps[c.ID]
	for i, f := range findings {
		msg := path + ": " + f.String()
		if f.Diff != "" {
			msg += "\n" + strings.TrimRight(f.Diff, "\n")
		}
		if i == 0 && c.Troubleshoot != "" {
			msg += "\nhow to fix (" + c.ID + "): " + c.Troubleshoot
		}
		switch {
		case isGap:
			t.Logf("known gap (%s): %s", reason, msg)
		case f.Severity == check.SeverityError:
			t.Errorf("%s", msg)
		default:
			t.Logf("%s", msg)
		}
	}
	if isGap && len(findings) == 0 {
		t.Errorf("stale gap: %s passes now; remove conformance.Gap(%q, %q)", c.ID, c.ID, reason)
	}
}

func contains(cs []*check.Check, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}
