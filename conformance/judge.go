package conformance

import (
	"fmt"
	"sort"
	"sync"

	"github.com/llmtck/llmtck/engine"
)

// Traffic is what the checks judge: every exchange of one cassette, in order.
// Its exchanges must not change once it has been judged: the analyses the
// check families share are kept on it.
type Traffic struct {
	Path      string
	Exchanges []engine.Exchange
	// Ephemeral is content the harness was told to send once and never
	// persist (a scenario's schema-retry feedback); HIST-005 finds it
	// anywhere but the last message of a request.
	Ephemeral []string

	analyses sync.Map // family name → its analysis of this traffic
}

// analysis returns the named analysis of tr, building it on first use, so a
// walk that several checks of one family need is paid once per traffic.
func analysis[T any](tr *Traffic, name string, build func(*Traffic) T) T {
	if v, ok := tr.analyses.Load(name); ok {
		return v.(T)
	}
	v, _ := tr.analyses.LoadOrStore(name, build(tr))
	return v.(T)
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
// interaction, then check ID, then location. Nil checks means the whole
// catalogue.
func Judge(tr *Traffic, checks []*Check) []Finding {
	if checks == nil {
		checks = Checks()
	}
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

// appliesTo reports whether the traffic holds any exchange of the check's
// wire, and whatever else the check needs to have something to judge.
func appliesTo(c *Check, tr *Traffic) bool {
	if c.applies != nil && !c.applies(tr) {
		return false
	}
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
