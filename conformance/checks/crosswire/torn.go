package crosswire

import "github.com/llmtck/llmtck/conformance/check"

// tornCheck reports a recording that ends inside an interaction: what was
// cut off is read by nothing, so a file that looks checked is not whole.
var tornCheck = &check.Check{
	ID: "XP-TORN-001", Title: "The recording ends with a complete interaction", Severity: check.SeverityWarning, Scope: "C",
	Recording: true,
	Law:       "A recording ends with a complete interaction: none is cut in the middle.",
	Troubleshoot: "A recorder killed while it was writing a call (a CI job cancelled, a test that exits mid-stream) leaves the last interaction half written. " +
		"llmtck reads the complete interactions before it, and go-vcr refuses the whole file. " +
		"Record the conversation again, or cut the file back to the last complete interaction. A file with no complete interaction left is unreadable.",
	Since: "0.3.0",
	Evidence: check.Evidence{Sources: []string{
		"not a provider rule: a cut interaction is not YAML go-vcr loads, and nothing checks or replays what it held",
	}},
	Judge: judgeTorn,
}

func judgeTorn(tr *check.Traffic, r *check.Reporter) {
	if tr.Torn == 0 || len(tr.Exchanges) == 0 {
		return
	}
	last := len(tr.Exchanges) - 1
	r.Add(last, "", "the last %d bytes of the recording, after interaction %d, are an interaction cut in the middle (a recorder was killed while writing it): nothing checks or replays what it held", tr.Torn, last)
}
