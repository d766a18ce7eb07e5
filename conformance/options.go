package conformance

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/traffic"
)

// Option configures Run, CheckCassette and Golden. An option prints as the
// call that made it (conformance.Only("ANT-*")), and an entry point given
// an option it has no use for fails the test instead of ignoring it.
type Option interface {
	fmt.Stringer
	// apply sets the option on c, or says why it cannot.
	apply(c *config) error
}

// Entry points, as options name them in errors.
const (
	entryRun           = "Run"
	entryCheckCassette = "CheckCassette"
	entryGolden        = "Golden"
)

type config struct {
	entry      string
	only, skip []string
	wire       traffic.Wire
	gaps       map[string]string // check ID → reason
	goldenFile string
	caps       map[string]bool         // Capabilities; nil means everything
	scenarios  []string                // Scenarios globs
	scenarioFS fs.FS                   // ScenarioFS: play these instead of the bundled ones
	models     map[traffic.Wire]string // Model: the model each provider's turns name
	explore    int                     // Explore: generated scenarios per wire
	seed       uint64                  // Seed: the first seed explored
	seedSet    bool
}

// tolerated lists what the simulator logs but does not refuse: declared
// gaps and skipped checks (globs as Skip takes them).
func (c *config) tolerated() []string {
	out := append([]string(nil), c.skip...)
	for id := range c.gaps {
		out = append(out, id)
	}
	return out
}

// newConfig applies opts for the entry point, joining every error.
func newConfig(entry string, opts []Option) (*config, error) {
	c := &config{entry: entry}
	var errs []error
	for _, o := range opts {
		if err := o.apply(c); err != nil {
			errs = append(errs, fmt.Errorf("%v: %w", o, err))
		}
	}
	return c, errors.Join(errs...)
}

// usedBy fails unless c's entry point is one of entries.
func (c *config) usedBy(entries ...string) error {
	if slices.Contains(entries, c.entry) {
		return nil
	}
	return fmt.Errorf("conformance.%s has no use for this option (it applies to %s)", c.entry, strings.Join(entries, ", "))
}

// quoted renders strings as Go literals, comma-separated.
func quoted(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

type gapOption struct{ id, reason string }

// Gap declares a known gap: the check still runs, its findings are logged
// instead of failing the test, and the test fails if the check passes (the
// gap is stale and the declaration should go). An unknown ID fails the test.
func Gap(checkID, reason string) Option { return gapOption{checkID, reason} }

func (o gapOption) String() string { return fmt.Sprintf("conformance.Gap(%q, %q)", o.id, o.reason) }

func (o gapOption) apply(c *config) error {
	if err := c.usedBy(entryRun, entryCheckCassette); err != nil {
		return err
	}
	if checks.Lookup(o.id) == nil {
		return errors.New("no such check")
	}
	if c.gaps == nil {
		c.gaps = map[string]string{}
	}
	c.gaps[o.id] = o.reason
	return nil
}

type onlyOption []string

// Only restricts the run to checks whose ID matches one of the globs
// ("ANT-THINK-*").
func Only(globs ...string) Option { return onlyOption(globs) }

func (o onlyOption) String() string { return "conformance.Only(" + quoted(o) + ")" }

func (o onlyOption) apply(c *config) error {
	if err := c.usedBy(entryRun, entryCheckCassette); err != nil {
		return err
	}
	if err := validGlobs(o); err != nil {
		return err
	}
	c.only = append(c.only, o...)
	return nil
}

type skipOption []string

// Skip leaves out checks whose ID matches one of the globs.
func Skip(globs ...string) Option { return skipOption(globs) }

func (o skipOption) String() string { return "conformance.Skip(" + quoted(o) + ")" }

func (o skipOption) apply(c *config) error {
	if err := c.usedBy(entryRun, entryCheckCassette); err != nil {
		return err
	}
	if err := validGlobs(o); err != nil {
		return err
	}
	c.skip = append(c.skip, o...)
	return nil
}

type wireOption traffic.Wire

// ForceWire decodes every call of a cassette as the given wire instead of
// detecting it.
func ForceWire(w traffic.Wire) Option { return wireOption(w) }

func (o wireOption) String() string { return fmt.Sprintf("conformance.ForceWire(%q)", string(o)) }

func (o wireOption) apply(c *config) error {
	if err := c.usedBy(entryCheckCassette, entryGolden); err != nil {
		return err
	}
	c.wire = traffic.Wire(o)
	return nil
}

type goldenFileOption string

// GoldenFile names the golden file of Golden, relative to testdata/; by
// default it is the test's name with a .golden ending.
func GoldenFile(name string) Option { return goldenFileOption(name) }

func (o goldenFileOption) String() string {
	return fmt.Sprintf("conformance.GoldenFile(%q)", string(o))
}

func (o goldenFileOption) apply(c *config) error {
	if err := c.usedBy(entryGolden); err != nil {
		return err
	}
	c.goldenFile = string(o)
	return nil
}

type capabilitiesOption []string

// Capabilities declares what the harness supports: provider names
// ("anthropic", "openai", "responses", "gemini") and features ("cancel",
// "stream", "ephemeral", "compaction"). Scenarios needing anything else are
// skipped with the reason. Without this option everything is assumed.
func Capabilities(caps ...string) Option { return capabilitiesOption(caps) }

func (o capabilitiesOption) String() string { return "conformance.Capabilities(" + quoted(o) + ")" }

func (o capabilitiesOption) apply(c *config) error {
	if err := c.usedBy(entryRun); err != nil {
		return err
	}
	if c.caps == nil {
		c.caps = map[string]bool{}
	}
	var errs []error
	for _, cp := range o {
		if !knownCapability(cp) {
			errs = append(errs, fmt.Errorf("%q is not a provider (anthropic, openai, responses, gemini, bedrock) or a feature (%s)", cp, strings.Join(scenario.Capabilities, ", ")))
			continue
		}
		c.caps[cp] = true
	}
	return errors.Join(errs...)
}

type scenariosOption []string

// Scenarios restricts Run to scenarios whose name matches one of the globs
// ("anthropic/*").
func Scenarios(globs ...string) Option { return scenariosOption(globs) }

func (o scenariosOption) String() string { return "conformance.Scenarios(" + quoted(o) + ")" }

func (o scenariosOption) apply(c *config) error {
	if err := c.usedBy(entryRun); err != nil {
		return err
	}
	if err := validGlobs(o); err != nil {
		return err
	}
	c.scenarios = append(c.scenarios, o...)
	return nil
}

func validGlobs(globs []string) error {
	for _, g := range globs {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("bad pattern %q: %v", g, err)
		}
	}
	return nil
}

func knownCapability(c string) bool {
	for _, w := range []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini, traffic.WireBedrock} {
		if c == string(w) {
			return true
		}
	}
	return slices.Contains(scenario.Capabilities, c)
}

// missing lists what of required the harness did not declare; with no
// declaration nothing is missing.
func (c *config) missing(required []string) []string {
	if c.caps == nil {
		return nil
	}
	var out []string
	for _, r := range required {
		if !c.caps[r] {
			out = append(out, r)
		}
	}
	return out
}

type scenarioFSOption struct{ fsys fs.FS }

// ScenarioFS plays the scenarios in fsys instead of the bundled ones: every
// <provider>/<what>.json file, in the format of fixtures/scenarios/README.md,
// named by its path without .json. Scenarios still narrows them by name. A
// malformed file fails the test, naming the file, the line and the field.
func ScenarioFS(fsys fs.FS) Option { return scenarioFSOption{fsys} }

func (o scenarioFSOption) String() string { return fmt.Sprintf("conformance.ScenarioFS(%T)", o.fsys) }

func (o scenarioFSOption) apply(c *config) error {
	if err := c.usedBy(entryRun); err != nil {
		return err
	}
	if o.fsys == nil {
		return errors.New("nil file system")
	}
	c.scenarioFS = o.fsys
	return nil
}

type modelOption struct {
	provider traffic.Wire
	model    string
}

// Model makes the scenarios' turns on provider name model, so the harness
// sends it and the simulator behaves as that model does: on Anthropic, the
// models with preserved thinking (claude-fable-5-1 …) refuse a changed
// prefix under signed thinking, older ones (the scenarios' default) accept it.
func Model(provider, model string) Option { return modelOption{traffic.Wire(provider), model} }

func (o modelOption) String() string {
	return fmt.Sprintf("conformance.Model(%q, %q)", o.provider, o.model)
}

func (o modelOption) apply(c *config) error {
	if err := c.usedBy(entryRun); err != nil {
		return err
	}
	if o.model == "" || !slices.Contains([]traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini, traffic.WireBedrock}, o.provider) {
		return errors.New("want a provider (anthropic, openai, responses, gemini, bedrock) and a model")
	}
	if c.models == nil {
		c.models = map[traffic.Wire]string{}
	}
	c.models[o.provider] = o.model
	return nil
}

// withModels returns sc with the turns and steps of each provider in
// models naming that model.
func withModels(sc *scenario.Scenario, models map[traffic.Wire]string) *scenario.Scenario {
	if len(models) == 0 {
		return sc
	}
	out := *sc
	out.Turns = slices.Clone(sc.Turns)
	for i := range out.Turns {
		if m, ok := models[out.Turns[i].Wire]; ok {
			out.Turns[i].Model = m
			out.Turns[i].Steps = slices.Clone(out.Turns[i].Steps)
			for j := range out.Turns[i].Steps {
				out.Turns[i].Steps[j].Model = m
			}
		}
	}
	out.Steps = slices.Clone(sc.Steps)
	for i := range out.Steps {
		if m, ok := models[out.Steps[i].Wire]; ok {
			out.Steps[i].Model = m
		}
	}
	return &out
}
