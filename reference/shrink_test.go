package reference_test

import (
	"context"
	"os"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/explore"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/traffic"
)

// caughtBy plays f with variant v and reports whether check id found
// something (error or warning).
func caughtBy(t *testing.T, f *explore.File, v reference.Variant, id string) bool {
	t.Helper()
	sc, err := f.Scenario()
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := simulator.Play(sc, func(s *simulator.Session) error {
		reference.Play(context.Background(), s, reference.Options{Stream: true, Variant: v})
		return nil
	})
	for _, fd := range sim.Judge(nil) {
		if fd.Check == id && fd.Severity != check.SeverityInfo {
			return true
		}
	}
	return false
}

// Each fault-handling variant is found by exploring within 200 seeds, and
// the scenario that finds it shrinks to at most 2 turns that still do.
func TestFaultVariantsFoundAndShrunk(t *testing.T) {
	if testing.Short() {
		t.Skip("explores and shrinks")
	}
	cases := map[reference.Variant]string{
		reference.VariantKeepFailedPartial: "RETRY-001",
		reference.VariantRerunToolsOnRetry: "RETRY-002",
		reference.VariantIgnoreRetryAfter:  "RETRY-003",
	}
	wires := []traffic.Wire{traffic.WireAnthropic}
	if os.Getenv("LLMTCK_EXPLORE_WIRES") == "all" {
		wires = explore.Wires
	}
	for _, w := range wires {
		for v, id := range cases {
			t.Run(string(w)+"/"+string(v), func(t *testing.T) { findAndShrink(t, w, v, id) })
		}
	}
}

// findAndShrink explores wire w until variant v is caught by check id,
// within 200 seeds, and shrinks the scenario that catches it.
func findAndShrink(t *testing.T, w traffic.Wire, v reference.Variant, id string) {
	for seed := uint64(1); seed <= 200; seed++ {
		f, err := explore.Generate(w, seed, explore.Options{Caps: []string{string(w), "stream", "retry"}})
		if err != nil {
			t.Fatal(err)
		}
		if !caughtBy(t, f, v, id) {
			continue
		}
		small, steps := explore.Shrink(f, func(c *explore.File) bool { return caughtBy(t, c, v, id) })
		t0, s0, f0 := explore.Size(f)
		t1, s1, f1 := explore.Size(small)
		t.Logf("%s on %s: %s found at seed %d; shrunk in %d plays from %d turns/%d steps/%d faults to %d/%d/%d", v, w, id, seed, steps, t0, s0, f0, t1, s1, f1)
		if t1 > 2 {
			t.Errorf("shrunk to %d turns, want at most 2:\n%s", t1, small.JSON())
		}
		return
	}
	t.Errorf("%s not found by %s within 200 seeds", v, id)
}

// The variants the catalogue proves on bundled scenarios are found by
// exploring too: for each, the first wire and seed (within 200 per wire)
// where a check it targets finds it, shrunk. LLMTCK_EXPLORE_WIRES=all runs
// it (it plays a few thousand scenarios).
func TestVariantsFoundByExploring(t *testing.T) {
	if os.Getenv("LLMTCK_EXPLORE_WIRES") != "all" {
		t.Skip("LLMTCK_EXPLORE_WIRES=all runs it")
	}
	for _, v := range reference.Variants {
		if v == reference.VariantKeepReasoningOnSwitch {
			continue // explore does not switch to a model that does not reason (see explore.switchModels)
		}
		t.Run(string(v), func(t *testing.T) {
			for _, w := range explore.Wires {
				for seed := uint64(1); seed <= 200; seed++ {
					f, err := explore.Generate(w, seed, explore.Options{})
					if err != nil {
						t.Fatal(err)
					}
					id := ""
					for _, want := range targets[v] {
						if caughtBy(t, f, v, want) {
							id = want
							break
						}
					}
					if id == "" {
						continue
					}
					small, steps := explore.Shrink(f, func(c *explore.File) bool { return caughtBy(t, c, v, id) })
					t0, s0, f0 := explore.Size(f)
					t1, s1, f1 := explore.Size(small)
					t.Logf("%s on %s: %s found at seed %d; shrunk in %d plays from %d turns/%d steps/%d faults to %d/%d/%d", v, w, id, seed, steps, t0, s0, f0, t1, s1, f1)
					if t1 > 2 {
						t.Errorf("shrunk to %d turns, want at most 2", t1)
					}
					return
				}
			}
			t.Errorf("%s not found on any wire within 200 seeds", v)
		})
	}
}
