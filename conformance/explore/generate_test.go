package explore_test

import (
	"bytes"
	"testing"

	"github.com/llmtck/llmtck/conformance/explore"
	"github.com/llmtck/llmtck/conformance/scenario"
)

// Every generated scenario is valid for its wire: thousands of seeds per
// wire parse with the scenario package's own validation, and a seed gives
// the same bytes twice.
func TestGeneratedScenariosAreValid(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	for _, w := range explore.Wires {
		t.Run(string(w), func(t *testing.T) {
			features := map[string]int{}
			for seed := uint64(0); seed < uint64(n); seed++ {
				f, err := explore.Generate(w, seed, explore.Options{})
				if err != nil {
					t.Fatal(err)
				}
				sc, err := f.Scenario()
				if err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, f.JSON())
				}
				for _, r := range sc.Requires() {
					features[r]++
				}
				if seed < 20 {
					again, _ := explore.Generate(w, seed, explore.Options{})
					if !bytes.Equal(again.JSON(), f.JSON()) {
						t.Fatalf("seed %d generated different bytes twice", seed)
					}
				}
			}
			for _, c := range []string{"cancel", "stream", "ephemeral", "compaction", "retry"} {
				if c == "ephemeral" && (w == "anthropic" || w == "bedrock") {
					continue // no schema retry under history-bound thinking
				}
				if features[c] == 0 {
					t.Errorf("no scenario of %d needs %s", n, c)
				}
			}
			if others := len(features) - len(scenario.Capabilities) - 1; (w == "openai" || w == "responses") && others < 1 {
				t.Errorf("no scenario of %d hands off to another wire: %v", n, features)
			}
			t.Logf("%d scenarios; needing: %v", n, features)
		})
	}
}

// Options limit the draw: without a capability, no scenario needs it.
func TestGenerateHonoursCapabilities(t *testing.T) {
	caps := []string{"anthropic", "stream"}
	for seed := uint64(0); seed < 300; seed++ {
		f, _ := explore.Generate("anthropic", seed, explore.Options{Caps: caps})
		sc, err := f.Scenario()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sc.Requires() {
			if r != "anthropic" && r != "stream" {
				t.Fatalf("seed %d needs %s, not declared", seed, r)
			}
		}
	}
}
