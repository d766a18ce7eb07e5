// Package checks is the catalogue: every check of every family, assembled
// in one place, and the ways to look checks up and select them.
package checks

import (
	"fmt"
	"path"
	"slices"
	"sort"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks/anthropic"
	"github.com/llmtck/llmtck/conformance/checks/bedrock"
	"github.com/llmtck/llmtck/conformance/checks/crosswire"
	"github.com/llmtck/llmtck/conformance/checks/gemini"
	"github.com/llmtck/llmtck/conformance/checks/history"
	"github.com/llmtck/llmtck/conformance/checks/openai"
	"github.com/llmtck/llmtck/conformance/checks/responses"
	"github.com/llmtck/llmtck/conformance/checks/retry"
	"github.com/llmtck/llmtck/conformance/checks/stream"
)

// families are the check families, each a package of its own.
var families = [][]*check.Check{
	anthropic.Checks(),
	openai.Checks(),
	responses.Checks(),
	gemini.Checks(),
	bedrock.Checks(),
	history.Checks(),
	stream.Checks(),
	crosswire.Checks(),

	retry.Checks(),
}

// catalogue is every check, sorted by ID, and byID indexes it.
var catalogue, byID = assemble(families)

func assemble(families [][]*check.Check) ([]*check.Check, map[string]*check.Check) {
	var all []*check.Check
	byID := map[string]*check.Check{}
	for _, f := range families {
		for _, c := range f {
			if _, dup := byID[c.ID]; dup {
				panic("checks: duplicate check ID " + c.ID)
			}
			byID[c.ID] = c
			all = append(all, c)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	return all, byID
}

// All returns the whole catalogue sorted by ID.
func All() []*check.Check { return append([]*check.Check(nil), catalogue...) }

// Lookup returns the check with the given ID, or nil.
func Lookup(id string) *check.Check { return byID[id] }

// Select returns the checks whose ID matches one of only (all when only is
// empty) and none of skip. Patterns are path.Match globs such as "ANT-THINK-*".
// It fails when a pattern is malformed or when the selection is empty.
func Select(only, skip []string) ([]*check.Check, error) {
	for _, p := range append(append([]string{}, only...), skip...) {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("bad check pattern %q: %v", p, err)
		}
	}
	// A pattern that names no check is a typo, or a check that does not
	// exist: skipping it would silently run what the user meant to skip.
	for _, set := range []struct {
		flag     string
		patterns []string
	}{{"only", only}, {"skip", skip}} {
		for _, p := range set.patterns {
			if !slices.ContainsFunc(catalogue, func(c *check.Check) bool { return MatchAny([]string{p}, c.ID) }) {
				return nil, fmt.Errorf("no check matches --%s %s (llmtck check --list names them)", set.flag, p)
			}
		}
	}
	var out []*check.Check
	for _, c := range catalogue {
		if (len(only) == 0 || MatchAny(only, c.ID)) && !MatchAny(skip, c.ID) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no check matches --only %v --skip %v", only, skip)
	}
	return out, nil
}

// MatchAny reports whether id matches one of the path.Match patterns.
func MatchAny(patterns []string, id string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, id); ok {
			return true
		}
	}
	return false
}

// Judge runs the whole catalogue over the traffic.
func Judge(tr *check.Traffic) []check.Finding { return check.Judge(tr, catalogue) }
