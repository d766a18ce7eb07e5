package check

import (
	"fmt"
	"sort"
)

// Reporter collects one check's findings.
type Reporter struct {
	check    *Check
	tr       *Traffic
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
//
// An error on an endpoint the check's evidence does not cover is reported
// as a warning, saying where the rule is observed.
func (r *Reporter) AddSeverity(sev Severity, interaction int, location, format string, args ...any) *Finding {
	msg := fmt.Sprintf(format, args...)
	if sev == SeverityError {
		if ex := r.tr.exchange(interaction); ex != nil && !r.check.Evidence.Holds(ex.Dialect) {
			sev = SeverityWarning
			msg += fmt.Sprintf(" (an error on %s; not observed on %s)", r.check.Evidence, ex.Dialect)
		}
	}
	r.findings = append(r.findings, Finding{
		Check:       r.check.ID,
		Severity:    sev,
		Interaction: interaction,
		Location:    location,
		Message:     msg,
	})
	return &r.findings[len(r.findings)-1]
}

// Judge runs the checks that apply to the traffic and returns their findings
// ordered by interaction, then check ID, then location.
func Judge(tr *Traffic, checks []*Check) []Finding {
	var all []Finding
	r := &Reporter{tr: tr} // one for all the checks: its findings are copied out
	wires := tr.wires()
	for _, c := range checks {
		if !c.appliesTo(tr, wires) {
			continue
		}
		r.check, r.findings = c, r.findings[:0]
		c.Judge(tr, r)
		all = append(all, r.findings...)
	}
	Sort(all)
	return all
}

// Sort orders findings as Judge returns them: by interaction, then check
// ID, then location.
func Sort(all []Finding) {
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
