package checks_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"gotest.tools/v3/golden"
)

var checkID = regexp.MustCompile(`^[A-Z]+(-[A-Z]+)?-[0-9]{3}$`)

// TestRegistryGolden pins the catalogue: adding, removing or renaming a
// check, or changing its severity or scope, must update the golden file on
// purpose (go test ./conformance/checks -run TestRegistryGolden -update). IDs never
// change once released.
func TestRegistryGolden(t *testing.T) {
	var b strings.Builder
	for _, c := range checks.All() {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\tsince %s\t%s\n", c.ID, c.Severity, c.Scope, wireName(c), c.Since, c.Title)
	}
	golden.Assert(t, b.String(), "registry.golden")
}

func wireName(c *check.Check) string {
	if c.Wire == "" {
		return "all"
	}
	return string(c.Wire)
}

func TestRegistryEntriesComplete(t *testing.T) {
	for _, c := range checks.All() {
		if !checkID.MatchString(c.ID) {
			t.Errorf("%s: ID does not look like FAMILY-AREA-NNN or FAMILY-NNN", c.ID)
		}
		switch c.Severity {
		case check.SeverityError, check.SeverityWarning, check.SeverityInfo:
		default:
			t.Errorf("%s: severity %q", c.ID, c.Severity)
		}
		for _, s := range strings.Split(c.Scope, ",") {
			if s != "R" && s != "C" && s != "S" {
				t.Errorf("%s: scope %q, want R, C, S joined by commas", c.ID, c.Scope)
			}
		}
		if c.Title == "" || c.Law == "" || c.Troubleshoot == "" || c.Since == "" {
			t.Errorf("%s: title, law, troubleshoot and since are all required", c.ID)
		}
		switch {
		case c.Retired != "" && checks.Lookup(c.Retired) == nil:
			t.Errorf("%s: retired for %s, which is not in the catalogue", c.ID, c.Retired)
		case c.Retired == "" && c.Judge == nil:
			t.Errorf("%s: no judge", c.ID)
		}
		// An error says the provider refuses: say where that was seen.
		if c.Severity == check.SeverityError && len(c.Evidence.Sources) == 0 {
			t.Errorf("%s: an error-level check without evidence (Evidence.Sources)", c.ID)
		}
		if c.Severity == check.SeverityError && c.ProviderError == "" && len(c.Evidence.Endpoints) > 0 {
			t.Errorf("%s: refused on %s, but no ProviderError text", c.ID, c.Evidence)
		}
	}
}
