package reference_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
)

// targets are the checks each broken variant must trip.
var targets = map[reference.Variant][]string{
	reference.VariantReencodeThinking:      {"ANT-THINK-003", "BDR-THINK-001"},
	reference.VariantDropSignature:         {"ANT-THINK-002", "GEM-SIG-002", "BDR-THINK-002"},
	reference.VariantForgetToolResult:      {"ANT-TOOL-001", "OAI-TOOL-001", "OAI-TOOL-010", "GEM-TOOL-002", "BDR-TOOL-001"},
	reference.VariantPersistEphemeral:      {"HIST-005"},
	reference.VariantDropCancelled:         {"ANT-TOOL-001", "BDR-TOOL-001"},
	reference.VariantReorderReasoning:      {"OAI-RSN-001"},
	reference.VariantLeakThought:           {"ANT-THINK-003"},
	reference.VariantKeepReasoningOnSwitch: {"OAI-RSN-005"},
}

// caught plays every scenario with variant v and returns, per check ID,
// the scenarios in which it found an error or warning.
func caught(t *testing.T, v reference.Variant, scenarios []*scenario.Scenario) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, sc := range scenarios {
		sim, _ := simulator.Play(sc, func(s *simulator.Session) error {
			// The harness fails once the simulator rejects its request:
			// the rejection is what is looked for.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			reference.Play(ctx, s, reference.Options{Stream: true, Variant: v})
			return nil
		})
		seen := map[string]bool{}
		for _, f := range sim.Judge(nil) {
			if f.Severity != check.SeverityInfo && !seen[f.Check] {
				seen[f.Check] = true
				out[f.Check] = append(out[f.Check], sc.Name)
			}
		}
	}
	return out
}

// Each broken variant of the reference engine is caught by a check it
// targets, and each targeted check catches a variant.
func TestBrokenVariantsAreCaught(t *testing.T) {
	scenarios, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-20s %-14s %s\n", "variant", "check", "caught")
	checkCaught := map[string]bool{}
	for _, v := range reference.Variants {
		got := caught(t, v, scenarios)
		any := false
		for _, id := range targets[v] {
			n := len(got[id])
			fmt.Fprintf(&table, "%-20s %-14s in %d scenario(s) %s\n", v, id, n, strings.Join(got[id], " "))
			if n > 0 {
				any, checkCaught[id] = true, true
			}
		}
		var others []string
		for id := range got {
			others = append(others, id)
		}
		sort.Strings(others)
		fmt.Fprintf(&table, "%-20s %-14s %s\n", v, "(all)", strings.Join(others, " "))
		if !any {
			t.Errorf("variant %s slipped through: none of %v caught it", v, targets[v])
		}
	}
	for _, ids := range targets {
		for _, id := range ids {
			if !checkCaught[id] {
				t.Errorf("check %s caught no variant that targets it", id)
			}
		}
	}
	t.Log("\n" + table.String())
}
