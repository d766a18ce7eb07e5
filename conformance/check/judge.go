package check

import (
	"fmt"
	"sort"
)

// Reporter collects one check's findings.
type Reporter struct {
	check    *Check
	findings []Finding
}

// Add records a finding at the check's own severity and returns it, so the
// caller can attach a diff.
func (r *Reporter) Add(interaction int, location, format string, args ...any) *Finding {
	return r.AddSeverity(r.check.Severity, interaction, location, format, args...)
}

// AddSeverity records a finding at the given severity, for checks whose
// severity depends on the situation (an error on one model, a warning on
// another).
func (r *Reporter) AddSeverity(sev Severity, interaction int, location, format string, args ...any) *Finding {
	r.findings = append(r.findings, Finding{
		Check:       r.check.ID,
		Severity:    sev,
		Interaction: interaction,
		Location:    location,
		Message:     fmt.Sprintf(format, args...),
	})
	return &r.findings[len(r.findings)-1]
}

// Judge runs the checks that apply to the traffic and returns their findings
// ordered by interaction, then check ID, then location.
func Judge(tr *Traffic, checks []*Check) []Finding {
	var all []Finding
	for _, c := range checks {
		if !c.AppliesTo(tr) {
			continue
		}
		r := &Reporter{check: c}
		c.Judge(tr, r)
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

// Applicable returns the checks that apply to the traffic.
func Applicable(tr *Traffic, checks []*Check) []*Check {
	var out []*Check
	for _, c := range checks {
		if c.AppliesTo(tr) {
			out = append(out, c)
		}
	}
	return out
}
