package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/explore"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/traffic"
)

// DefaultSeed is the first seed Explore plays when no Seed is given, so CI
// plays the same scenarios on every run.
const DefaultSeed = 1

// SeedEnv names the environment variable that overrides the seed: a
// number, or "random" for a random seed, which the run prints.
const SeedEnv = "LLMTCK_EXPLORE_SEED"

// RegressionDir is where Run keeps the generated scenarios that failed,
// relative to the test's package: each is played on every later run.
var RegressionDir = filepath.Join("testdata", "llmtck", "explore")

type exploreOption int

// Explore plays n generated scenarios per wire the harness supports, after
// the bundled ones: subtests explore/<wire>/<seed>. A scenario that fails
// is written to testdata/llmtck/explore/<wire>-<seed>.json with the
// command that plays it again, and Run plays every file there on later
// runs, so a bug found once stays a regression test.
func Explore(n int) Option { return exploreOption(n) }

func (o exploreOption) String() string { return fmt.Sprintf("conformance.Explore(%d)", int(o)) }

func (o exploreOption) apply(c *config) error {
	if err := c.usedBy(entryRun); err != nil {
		return err
	}
	if o < 0 {
		return errors.New("want a count of scenarios, not a negative one")
	}
	c.explore = int(o)
	return nil
}

type seedOption uint64

// Seed sets the first seed Explore plays (DefaultSeed without it; the
// LLMTCK_EXPLORE_SEED environment variable overrides both).
func Seed(s uint64) Option { return seedOption(s) }

func (o seedOption) String() string { return fmt.Sprintf("conformance.Seed(%d)", uint64(o)) }

func (o seedOption) apply(c *config) error {
	if err := c.usedBy(entryRun); err != nil {
		return err
	}
	c.seed, c.seedSet = uint64(o), true
	return nil
}

// exploreSeed is the first seed to play: the environment's, the option's,
// or DefaultSeed.
func exploreSeed(t *testing.T, c *config) uint64 {
	t.Helper()
	switch v := os.Getenv(SeedEnv); {
	case v == "random":
		s := rand.Uint64() >> 16
		t.Logf("%s=random: exploring from seed %d (replay with %s=%d)", SeedEnv, s, SeedEnv, s)
		return s
	case v != "":
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a seed (an unsigned number) or random", SeedEnv, v)
		}
		return s
	case c.seedSet:
		return c.seed
	}
	return DefaultSeed
}

// explorePlay plays the regression files, then the generated scenarios;
// it returns how many ran.
func explorePlay(t *testing.T, h Harness, cfg *config, selected []*check.Check, found map[string]int) int {
	t.Helper()
	ran := 0
	files, _ := filepath.Glob(filepath.Join(RegressionDir, "*.json"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(p), ".json")
		wire, _, _ := strings.Cut(base, "-")
		sc, err := scenario.Parse(wire+"/"+base, data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		t.Run("explore/regression/"+base, func(t *testing.T) {
			t.Helper()
			playScenario(t, h, sc, cfg, selected, found, &ran)
		})
	}
	if cfg.explore == 0 {
		return ran
	}
	seed := exploreSeed(t, cfg)
	var caps []string
	if cfg.caps != nil {
		for c := range cfg.caps {
			caps = append(caps, c)
		}
		slices.Sort(caps)
	}
	for _, w := range explore.Wires {
		if cfg.caps != nil && !cfg.caps[string(w)] {
			continue
		}
		for i := range cfg.explore {
			s := seed + uint64(i)
			f, err := explore.Generate(w, s, explore.Options{Caps: caps})
			if err != nil {
				t.Fatal(err)
			}
			sc, err := f.Scenario()
			if err != nil {
				t.Fatalf("explore: seed %d on %s: %v", s, w, err)
			}
			var sim *simulator.Simulator
			passed := t.Run(fmt.Sprintf("explore/%s/%d", w, s), func(t *testing.T) {
				t.Helper()
				sim = playScenario(t, h, sc, cfg, selected, found, &ran)
			})
			if !passed && sim != nil {
				keepFailure(t, w, s, shrinkFailure(t, h, cfg, selected, w, s, f, failedCheck(sim, selected, cfg)))
			}
		}
	}
	return ran
}

// failedCheck is the first check whose error or warning failed the
// scenario sim played ("" when it failed outside any check).
func failedCheck(sim *simulator.Simulator, selected []*check.Check, cfg *config) string {
	for _, f := range sim.Judge(selected) {
		if _, gap := cfg.gaps[f.Check]; !gap && (f.Severity == check.SeverityError || f.Severity == check.SeverityWarning) {
			return f.Check
		}
	}
	return ""
}

// ShrinkEnv names the environment variable that turns shrinking off
// ("0"): a failing generated scenario is then kept as generated.
const ShrinkEnv = "LLMTCK_EXPLORE_SHRINK"

// maxShrinkPlays bounds the plays one shrink makes.
const maxShrinkPlays = 60

// shrinkFailure reduces the failing scenario f while the same check (or,
// for a failure outside any check, the same subtest) still fails, playing
// each candidate with the harness in a subtest explore/<wire>/<seed>/shrink/<k>:
// a candidate that fails shows there as a failure of its own.
func shrinkFailure(t *testing.T, h Harness, cfg *config, selected []*check.Check, w traffic.Wire, s uint64, f *explore.File, id string) *explore.File {
	t.Helper()
	if os.Getenv(ShrinkEnv) == "0" {
		return f
	}
	plays := 0
	small, _ := explore.Shrink(f, func(c *explore.File) bool {
		if plays >= maxShrinkPlays {
			return false
		}
		plays++
		sc, err := c.Scenario()
		if err != nil {
			return false
		}
		var sim *simulator.Simulator
		ignored := 0
		passed := t.Run(fmt.Sprintf("explore/%s/%d/shrink/%d", w, s, plays), func(t *testing.T) {
			sim = playScenario(t, h, sc, cfg, selected, map[string]int{}, &ignored)
		})
		if id == "" || sim == nil {
			return !passed
		}
		return failedCheck(sim, selected, cfg) == id || slices.ContainsFunc(sim.Judge(selected), func(fd check.Finding) bool {
			return fd.Check == id && fd.Severity != check.SeverityInfo
		})
	})
	turns, steps, faults := explore.Size(small)
	if small != f {
		small.Description = fmt.Sprintf("Seed %d on %s, shrunk to %d turn(s), %d step(s) and %d fault(s) that still fail %s. Generated as: %s", s, w, turns, steps, faults, orOutside(id), f.Description)
	}
	t.Logf("explore: seed %d on %s shrunk in %d plays to %d turn(s), %d step(s), %d fault(s), still failing %s", s, w, plays, turns, steps, faults, orOutside(id))
	return small
}

func orOutside(id string) string {
	if id == "" {
		return "(outside any check)"
	}
	return id
}

// keepFailure writes the failing scenario of seed s to RegressionDir, with
// how to play it again.
func keepFailure(t *testing.T, w traffic.Wire, s uint64, f *explore.File) {
	t.Helper()
	name := fmt.Sprintf("%s-%d.json", w, s)
	p := filepath.Join(RegressionDir, name)
	f.Description += fmt.Sprintf(" Replay: go test -run '/explore/regression/%s-%d' (this file), or LLMTCK_EXPLORE_SEED=%d with conformance.Explore(1) plays it from its seed; `llmtck replay --scenario %s` serves it.", w, s, s, p)
	if err := os.MkdirAll(RegressionDir, 0o755); err != nil {
		t.Logf("explore: keeping the failure: %v", err)
		return
	}
	if err := os.WriteFile(p, f.JSON(), 0o644); err != nil {
		t.Logf("explore: keeping the failure: %v", err)
		return
	}
	t.Logf("explore: seed %d failed on %s; kept as %s, which every later Run plays", s, w, p)
}
