package conformance

import (
	"fmt"
	"sort"

	"github.com/llmtck/llmtck/engine"
)

// Traffic is what the checks judge: every exchange of one cassette, in order.
type Traffic struct {
	Path      string
	Exchanges []engine.Exchange
}

// reporter collects one check's findings.
type reporter struct {
	check    *Check
	findings []Finding
}

// add records a finding at the check's own severity.
func (r *reporter) add(interaction int, location, format string, args ...any) *Finding {
	return r.addSeverity(r.check.Severity, interaction, location, format, args...)
}

func (r *reporter) addSeverity(sev Severity, interaction int, location, format string, args ...any) *Finding {
	r.findings = append(r.findings, Finding{
		Check:       r.check.ID,
		Severity:    sev,
		Interaction: interaction,
		Location:    location,
		Message:     fmt.Sprintf(format, args...),
	})
	return &r.findings[len(r.findings)-1]
}

// Judge runs checks over the traffic and returns their findings ordered by
// interaction, then check ID, then location.
func Judge(tr *Traffic, checks []*Check) []Finding {
	var all []Finding
	for _, c := range checks {
		if c.judge == nil || !appliesTo(c, tr) {
			continue
		}
		r := &reporter{check: c}
		c.judge(tr, r)
		all = append(all, r.findings...)
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Interaction != b.Interaction {
			return a.Interaction < b.Interaction
		}
		if a.Check != b.Check {
			return a.Check < b.Check
		}
		return a.Location < b.Location
	})
	return all
}

// appliesTo reports whether the traffic holds any exchange of the check's wire.
func appliesTo(c *Check, tr *Traffic) bool {
	if c.Wire == "" {
		return true
	}
	for i := range tr.Exchanges {
		if tr.Exchanges[i].Wire == c.Wire {
			return true
		}
	}
	return false
}

// Applicable returns the checks that apply to the traffic's wires.
func Applicable(tr *Traffic, checks []*Check) []*Check {
	var out []*Check
	for _, c := range checks {
		if c.judge != nil && appliesTo(c, tr) {
			out = append(out, c)
		}
	}
	return out
}
