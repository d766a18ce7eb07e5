package conformance

import (
	"testing"
)

// CheckCassette lints a recorded cassette (any format check reads) in a Go
// test: each applicable check runs as a subtest named by its ID, so
//
//	go test -run 'TestTraffic/ANT-THINK'
//
// selects a family. Error-level findings fail their subtest; warnings and
// infos are logged. Declared gaps (Gap) log instead of failing and fail when
// they no longer find anything.
func CheckCassette(t *testing.T, path string, opts ...Option) {
	t.Helper()
	cfg := newConfig(opts)
	for _, err := range cfg.errs {
		t.Fatal(err)
	}
	checks, err := Select(cfg.only, cfg.skip)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := LoadTraffic(path, cfg.wire)
	if err != nil {
		t.Fatal(err)
	}
	applicable := Applicable(tr, checks)
	if len(applicable) == 0 {
		t.Fatalf("%s: no check applies (wires seen: %s)", path, providerOf(tr.Exchanges))
	}
	for id := range cfg.gaps {
		if !contains(applicable, id) {
			t.Errorf("conformance.Gap(%q): the check does not apply to %s, so the gap can never close", id, path)
		}
	}
	for _, c := range applicable {
		t.Run(c.ID, func(t *testing.T) {
			t.Helper()
			findings := Judge(tr, []*Check{c})
			reportFindings(t, c, findings, cfg.gaps)
		})
	}
}

// reportFindings turns one check's findings into test results.
func reportFindings(t *testing.T, c *Check, findings []Finding, gaps map[string]string) {
	t.Helper()
	reason, isGap := gaps[c.ID]
	for _, f := range findings {
		msg := f.String()
		if f.Diff != "" {
			msg += "\n" + f.Diff
		}
		switch {
		case isGap:
			t.Logf("known gap (%s): %s", reason, msg)
		case f.Severity == SeverityError:
			t.Error(msg)
		default:
			t.Log(msg)
		}
	}
	if isGap && len(findings) == 0 {
		t.Errorf("stale gap: %s passes now; remove conformance.Gap(%q, %q)", c.ID, c.ID, reason)
	}
}

func contains(checks []*Check, id string) bool {
	for _, c := range checks {
		if c.ID == id {
			return true
		}
	}
	return false
}
