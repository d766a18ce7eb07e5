package check

import (
	"slices"

	"github.com/llmtck/llmtck/traffic"
)

// Check is one rule of the catalogue. Its ID never changes once released.
type Check struct {
	ID       string
	Title    string
	Severity Severity
	// Scope says what the check judges: R (an outgoing request), C (a
	// cassette or transcript across turns), S (a stream's grammar), joined
	// with commas.
	Scope string
	// Wire is the wire the check applies to; "" means every wire.
	Wire traffic.Wire
	// Law is the rule in one sentence.
	Law string
	// ProviderError is the provider's error text the check prevents,
	// verbatim where known; "" when the provider degrades silently.
	ProviderError string
	// ProviderStatus is the HTTP status the provider answers a violation
	// with; 0 means 400 Bad Request.
	ProviderStatus int
	// Troubleshoot tells a harness author what usually causes the violation
	// and how to fix it.
	Troubleshoot string
	// Since is the llmtck version that introduced the check.
	Since string
	// Evidence backs an error-level check: where the provider's refusal was
	// observed. Its findings on other endpoints are warnings.
	Evidence Evidence

	// Recording marks a check of the recording itself (a credential left
	// in a cassette), not of what a provider accepts: live judgement does
	// not run it, since a live request carries its key by design and the
	// recorder scans what it writes.
	Recording bool
	// Retired names the check that took this one's rule over. A retired
	// check never runs; it stays listed so its ID in a Skip or Gap still
	// means something.
	Retired string

	// Judge reports the check's findings on the traffic.
	Judge func(tr *Traffic, r *Reporter)
	// Applies, when set, says whether the traffic gives the check anything
	// to judge beyond holding its wire (HIST-005 needs declared ephemeral
	// content).
	Applies func(tr *Traffic) bool
}

// AppliesTo reports whether the traffic holds any exchange of the check's
// wire, and whatever else the check needs to have something to judge.
func (c *Check) AppliesTo(tr *Traffic) bool { return c.appliesTo(tr, tr.wires()) }

// appliesTo is AppliesTo given tr's wires, which Judge works out once for
// all the checks.
func (c *Check) appliesTo(tr *Traffic, wires []traffic.Wire) bool {
	if c.Judge == nil || c.Retired != "" || (c.Applies != nil && !c.Applies(tr)) {
		return false
	}
	return c.Wire == "" || slices.Contains(wires, c.Wire)
}
