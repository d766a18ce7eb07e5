package conformance

import (
	"fmt"
	"path"
	"sort"

	"github.com/llmtck/llmtck/engine"
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
	Wire engine.Wire
	// Law is the rule in one sentence.
	Law string
	// ProviderError is the provider's error text the check prevents,
	// verbatim where known; "" when the provider degrades silently.
	ProviderError string
	// Troubleshoot tells a harness author what usually causes the violation
	// and how to fix it.
	Troubleshoot string
	// Since is the llmtck version that introduced the check.
	Since string

	judge func(tr *Traffic, r *reporter)
	// applies, when set, says whether the traffic gives the check anything
	// to judge beyond holding its wire (HIST-005 needs declared ephemeral
	// content).
	applies func(tr *Traffic) bool
}

var registry = map[string]*Check{}

// register adds checks to the catalogue; a duplicate ID is a programming error.
func register(checks ...*Check) {
	for _, c := range checks {
		if _, dup := registry[c.ID]; dup {
			panic("conformance: duplicate check ID " + c.ID)
		}
		registry[c.ID] = c
	}
}

// Checks returns the whole catalogue sorted by ID.
func Checks() []*Check {
	out := make([]*Check, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the check with the given ID, or nil.
func Lookup(id string) *Check { return registry[id] }

// Select returns the checks whose ID matches one of only (all when only is
// empty) and none of skip. Patterns are path.Match globs such as "ANT-THINK-*".
// It fails when a pattern is malformed or when the selection is empty.
func Select(only, skip []string) ([]*Check, error) {
	for _, p := range append(append([]string{}, only...), skip...) {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("bad check pattern %q: %v", p, err)
		}
	}
	var out []*Check
	for _, c := range Checks() {
		if (len(only) == 0 || matchAny(only, c.ID)) && !matchAny(skip, c.ID) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no check matches --only %v --skip %v", only, skip)
	}
	return out, nil
}

func matchAny(patterns []string, id string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, id); ok {
			return true
		}
	}
	return false
}
